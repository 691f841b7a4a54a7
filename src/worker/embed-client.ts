/**
 * The engine worker's side of the embedding thread (embed.worker.ts): a nested Web Worker (as
 * core's PoolThread, the port every pool speaks to) that holds the USE-lite model, started on
 * the first load() and kept from then on. Requests carry
 * ids, so embeds may overlap. A load that fails (or a thread that stops) leaves nothing behind:
 * the next load() starts a fresh thread.
 */
import { messagePortThread, type PoolThread } from '../core/jobs/pool-thread';
import type { EmbeddingModel, ModelLoadProgress } from '../core/semantic/port';
import type { EmbedReply, EmbedRequest } from './embed.worker';

/** A request before the connection numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = {
  resolve: (reply: EmbedReply) => void;
  reject: (err: Error) => void;
  onProgress?: (loaded: number, total: number) => void;
};

type EmbedThread = PoolThread<EmbedRequest, EmbedReply>;

function spawnWorker(): EmbedThread {
  const worker = new Worker(new URL('./embed.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-embedder',
  });
  // an exit without a message: the Connection says what that means
  return messagePortThread(worker, '');
}

/** One embedding thread and its requests in flight. */
class Connection {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the thread is gone, once it is. */
  private stopped: string | null = null;

  constructor(
    private readonly thread: EmbedThread,
    private readonly onStop: (conn: Connection) => void,
  ) {
    thread.listen(
      (reply) => this.receive(reply),
      (detail) =>
        this.stop(
          `The embedding worker stopped${detail ? `: ${detail}` : ' (it could not start, or it crashed)'}`,
        ),
    );
  }

  get alive(): boolean {
    return this.stopped === null;
  }

  request(req: Unnumbered<EmbedRequest>, onProgress?: Pending['onProgress']): Promise<EmbedReply> {
    if (this.stopped !== null) return Promise.reject(new Error(this.stopped));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      try {
        this.thread.post({ ...req, id } as EmbedRequest, []);
      } catch (err) {
        this.pending.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private receive(reply: EmbedReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    if (reply.type === 'progress') {
      p.onProgress?.(reply.loaded, reply.total);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'error') p.reject(new Error(reply.message));
    else p.resolve(reply);
  }

  /** Terminates the thread and fails every request in flight with `why`. */
  stop(why: string): void {
    if (this.stopped !== null) return;
    this.stopped = why;
    this.thread.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new Error(why));
    this.onStop(this);
  }
}

export class BrowserEmbedder {
  private conn: Connection | null = null;
  private loading: Promise<EmbeddingModel> | null = null;
  private readonly listeners = new Set<(p: ModelLoadProgress) => void>();

  constructor(private readonly spawn: () => EmbedThread = spawnWorker) {}

  /**
   * The model, loaded once: the first call starts the thread, later calls get the same model
   * (and, while it loads, its progress too). A failed load rejects with the thread's message and
   * the next call starts over; an abort rejects this caller only (the load goes on for the others).
   */
  load(onProgress?: (p: ModelLoadProgress) => void, signal?: AbortSignal): Promise<EmbeddingModel> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (!this.loading) {
      const started = this.start();
      this.loading = started;
      // a failed load is not kept: the next call starts over
      started.catch(() => {
        if (this.loading === started) this.loading = null;
      });
    }
    const loading = this.loading;
    if (onProgress) this.listeners.add(onProgress);
    return new Promise<EmbeddingModel>((resolve, reject) => {
      const onAbort = () => settle(() => reject(abortReason(signal!)));
      const settle = (then: () => void) => {
        if (onProgress) this.listeners.delete(onProgress);
        signal?.removeEventListener('abort', onAbort);
        then();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      loading.then(
        (model) => settle(() => resolve(model)),
        (err: unknown) => settle(() => reject(err)),
      );
    });
  }

  /** Terminates the thread: requests in flight reject, and a later load() starts a new one. */
  dispose(): void {
    this.conn?.stop('The embedding model was disposed');
    this.conn = null;
    this.loading = null;
  }

  private start(): Promise<EmbeddingModel> {
    let conn: Connection;
    try {
      conn = new Connection(this.spawn(), (c) => this.forget(c));
    } catch (err) {
      return Promise.reject(
        new Error(
          `The embedding worker could not start: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    }
    this.conn = conn;
    const progress = (loaded: number, total: number) => {
      for (const l of [...this.listeners]) l({ phase: 'model', loaded, total });
    };
    const ready = async () => {
      const reply = await conn.request({ type: 'load' }, progress);
      if (reply.type !== 'ready') throw new Error(`The embedding worker answered ${reply.type} to load`);
      return this.model(conn, reply.modelId, reply.dims);
    };
    return ready().catch((err: unknown) => {
      // the next load() starts over with a fresh thread
      conn.stop('The embedding model did not load');
      throw err;
    });
  }

  private forget(conn: Connection): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.loading = null;
  }

  private model(conn: Connection, id: string, dims: number): EmbeddingModel {
    return {
      id,
      dims,
      async embed(texts: readonly string[]): Promise<Float32Array> {
        if (!texts.length) return new Float32Array(0);
        const reply = await conn.request({ type: 'embed', texts: [...texts] });
        if (reply.type !== 'vectors') throw new Error(`The embedding worker answered ${reply.type} to embed`);
        if (reply.vectors.length !== texts.length * dims)
          throw new Error(
            `The embedding worker sent ${reply.vectors.length} numbers for ${texts.length} texts of ${dims}`,
          );
        return reply.vectors;
      },
      dispose: () => {
        if (this.conn === conn) this.dispose();
        else conn.stop('The embedding model was disposed');
      },
    };
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The model load was aborted', 'AbortError');
}

/** Null where this scope cannot start workers: semantic search is then unavailable here. */
export function browserEmbedder(): BrowserEmbedder | null {
  if (typeof Worker === 'undefined') return null;
  return new BrowserEmbedder();
}

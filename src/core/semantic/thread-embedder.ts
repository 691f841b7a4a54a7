/**
 * The embedding model on a thread of its own: the browser's embedding worker (started by the
 * engine worker, worker/embed-client.ts) and Node's embedding thread (adapters/node/embed-pool.ts),
 * on core's thread pool with one thread (jobs/pool.ts). The thread starts on the first load() and
 * is kept from then on; requests carry ids, so embeds may overlap (the thread runs them one at a
 * time, in the order they came). The loaded model is the thread's own, so a thread that stops is
 * not replaced behind the callers' backs: what it held fails, the model it gave fails from then
 * on, and the next load() starts a fresh thread. So does a load that fails.
 *
 * The messages: `{id, type: 'load'}` is answered with progress messages (when the thread has
 * any), then ready or error; `{id, type: 'embed'}` with vectors or error. An embed before any
 * load loads the model first (without progress).
 */
import { QuarryError } from '../errors';
import { Pool } from '../jobs/pool';
import type { PoolThread } from '../jobs/pool-thread';
import type { EmbeddingModel, ModelLoadProgress } from './port';

export type EmbedRequest = { id: number; type: 'load' } | { id: number; type: 'embed'; texts: string[] };

export type EmbedReply =
  | { id: number; type: 'progress'; loaded: number; total: number }
  | { id: number; type: 'ready'; modelId: string; dims: number; device?: string }
  | { id: number; type: 'vectors'; vectors: Float32Array }
  | { id: number; type: 'error'; message: string };

export type EmbedThread = PoolThread<EmbedRequest, EmbedReply>;

/** A request before the pool numbers it (a load with the callback its progress goes to). */
type Ask =
  { type: 'load'; onProgress?: (loaded: number, total: number) => void } | { type: 'embed'; texts: string[] };

/** One thread and its requests in flight. */
type Connection = Pool<EmbedRequest, EmbedReply, Ask, EmbedReply>;

export interface ThreadEmbedderNames {
  /** What the thread is called in messages ('embedding worker', 'embedding thread'). */
  thread: string;
  /** What requests in flight fail with when the model is disposed. */
  disposed: string;
}

export class ThreadEmbedder {
  private conn: Connection | null = null;
  private loading: Promise<EmbeddingModel> | null = null;
  private readonly listeners = new Set<(p: ModelLoadProgress) => void>();

  constructor(
    private readonly spawn: () => EmbedThread,
    private readonly names: ThreadEmbedderNames,
  ) {}

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
    this.conn?.dispose(this.names.disposed);
    this.conn = null;
    this.loading = null;
  }

  private start(): Promise<EmbeddingModel> {
    let thread: EmbedThread;
    try {
      thread = this.spawn();
    } catch (err) {
      return Promise.reject(
        new Error(
          `The ${this.names.thread} could not start: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    }
    const conn = this.connect(thread);
    this.conn = conn;
    const onProgress = (loaded: number, total: number) => {
      for (const l of [...this.listeners]) l({ phase: 'model', loaded, total });
    };
    const ready = async () => {
      const reply = await conn.run({ type: 'load', onProgress });
      if (reply.type !== 'ready') throw new Error(`The ${this.names.thread} answered ${reply.type} to load`);
      return this.model(conn, reply.modelId, reply.dims, reply.device);
    };
    return ready().catch((err: unknown) => {
      // the next load() starts over with a fresh thread
      conn.dispose('The embedding model did not load');
      throw err;
    });
  }

  private connect(thread: EmbedThread): Connection {
    const name = this.names.thread;
    const conn: Connection = new Pool({
      size: 1,
      spawn: () => thread,
      // the model is the thread's: a thread that stops closes the connection
      restart: false,
      encode: (id, ask) => ({
        message: ask.type === 'load' ? { id, type: 'load' } : { id, type: 'embed', texts: ask.texts },
        transfer: [],
      }),
      replyId: (reply) => reply.id,
      outcome: (reply, ask) => {
        if (reply.type === 'progress') {
          if (ask.type === 'load') ask.onProgress?.(reply.loaded, reply.total);
          return undefined;
        }
        return reply.type === 'error'
          ? { ok: false, error: new Error(reply.message) }
          : { ok: true, value: reply };
      },
      // the thread queues its requests itself
      room: () => true,
      // an exit without a message: it could not start, or it crashed
      lost: (detail) =>
        new Error(`The ${name} stopped${detail ? `: ${detail}` : ' (it could not start, or it crashed)'}`),
      cancelled: () => new QuarryError('Cancelled', `The ${name}'s request was cancelled`),
      closed: (reason) => new Error(reason ?? `The ${name} was closed`),
      onClose: () => this.forget(conn),
    });
    return conn;
  }

  private forget(conn: Connection): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.loading = null;
  }

  private model(conn: Connection, id: string, dims: number, device?: string): EmbeddingModel {
    const name = this.names.thread;
    return {
      id,
      dims,
      ...(device ? { device } : {}),
      async embed(texts: readonly string[]): Promise<Float32Array> {
        if (!texts.length) return new Float32Array(0);
        const reply = await conn.run({ type: 'embed', texts: [...texts] });
        if (reply.type !== 'vectors') throw new Error(`The ${name} answered ${reply.type} to embed`);
        if (reply.vectors.length !== texts.length * dims)
          throw new Error(
            `The ${name} sent ${reply.vectors.length} numbers for ${texts.length} texts of ${dims}`,
          );
        return reply.vectors;
      },
      dispose: () => {
        if (this.conn === conn) this.dispose();
        else conn.dispose(this.names.disposed);
      },
    };
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new QuarryError('Cancelled', 'The model load was aborted');
}

/**
 * Parsing on several threads. The index build hands each file's text to a FileChunker and
 * applies the answers IN THE ORDER IT ASKED (InOrderWindow), so a build on a pool of threads
 * gives the very index a build on one thread gives: chunk ids, postings and stored bytes
 * alike (a property test checks it with answers arriving in random order).
 *
 * ThreadPool is the platform-free half of a pool: it speaks ChunkRequest/ChunkReply to
 * whatever `spawn` returns (a Web Worker in the browser, a worker_threads Worker in Node; see
 * the adapters), sends each file to the thread with the least text pending, and when a
 * thread dies rejects that thread's files (they are skipped as unreadable, with the reason)
 * and starts a new one for the files after them. serveChunks is the thread side.
 */
import { QuarryError, toQuarryError, type QuarryErrorJSON } from '../errors';
import type { Chunk } from './types';

/** One file's chunks, maybe computed on another thread. Rejects with QuarryError('Unreadable') when the file cannot be chunked. */
export interface FileChunker {
  /** `threads`: use at most that many of the pool's threads (the caller keeps a core for itself). */
  chunk(path: string, text: string, threads?: number): Promise<Chunk[]>;
  /** How many files it parses at once (1 on the calling thread). */
  readonly parallelism: number;
  dispose?(): void;
}

export interface ChunkRequest {
  id: number;
  path: string;
  text: string;
}

export type ChunkReply = { id: number; chunks: Chunk[] } | { id: number; error: QuarryErrorJSON };

/** The thread side: answers each request with the chunks or the error, in any order. */
export function serveChunks(getChunker: () => Promise<{ chunk(path: string, text: string): Promise<Chunk[]> }>, post: (reply: ChunkReply) => void) {
  return (req: ChunkRequest): void => {
    getChunker()
      .then((c) => c.chunk(req.path, req.text))
      .then(
        (chunks) => post({ id: req.id, chunks }),
        (err: unknown) => {
          const e = toQuarryError(err);
          post({ id: req.id, error: { code: e.code, message: e.message, data: e.data } });
        },
      );
  };
}

/** What ThreadPool needs of a thread. */
export interface ChunkThread {
  post(req: ChunkRequest): void;
  /** Every reply; `onExit` once, when the thread died (an error event, a failed start, an exit). */
  listen(onReply: (reply: ChunkReply) => void, onExit: (reason: string) => void): void;
  terminate(): void;
}

interface Slot {
  thread: ChunkThread;
  pending: Map<number, { resolve: (c: Chunk[]) => void; reject: (e: unknown) => void; path: string; chars: number }>;
  /** Characters sent and not answered yet: the thread's queue, measured in work. */
  chars: number;
}

export class ThreadPool implements FileChunker {
  private readonly slots: Array<Slot | null>;
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly spawn: () => ChunkThread,
    readonly parallelism: number,
  ) {
    if (!(parallelism >= 1)) throw new QuarryError('InvalidArgument', `A parsing pool needs at least one thread, not ${parallelism}`);
    this.slots = Array.from({ length: parallelism }, () => null);
  }

  chunk(path: string, text: string, threads = this.parallelism): Promise<Chunk[]> {
    if (this.disposed) return Promise.reject(new QuarryError('Cancelled', 'The parsing pool was closed'));
    // the thread with the least text still to parse (a thread busy with one 1 MB file is not free)
    let best = 0;
    const n = Math.max(1, Math.min(this.slots.length, threads));
    for (let i = 1; i < n; i++) if (this.load(i) < this.load(best)) best = i;
    const slot = this.slotAt(best);
    const id = this.nextId++;
    return new Promise<Chunk[]>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject, path, chars: text.length });
      slot.chars += text.length;
      slot.thread.post({ id, path, text });
    });
  }

  private load(i: number): number {
    return this.slots[i]?.chars ?? 0;
  }

  private slotAt(i: number): Slot {
    const existing = this.slots[i];
    if (existing) return existing;
    const slot: Slot = { thread: this.spawn(), pending: new Map(), chars: 0 };
    this.slots[i] = slot;
    slot.thread.listen(
      (reply) => {
        const p = slot.pending.get(reply.id);
        if (!p) return;
        slot.pending.delete(reply.id);
        slot.chars -= p.chars;
        if ('chunks' in reply) p.resolve(reply.chunks);
        else p.reject(new QuarryError(reply.error.code, reply.error.message, reply.error.data));
      },
      (reason) => {
        if (this.slots[i] === slot) this.slots[i] = null; // the next file starts a new thread
        for (const p of slot.pending.values()) p.reject(new QuarryError('Unreadable', `The parser thread stopped while parsing ${p.path}: ${reason}`, { path: p.path }));
        slot.pending.clear();
        slot.chars = 0;
      },
    );
    return slot;
  }

  dispose(): void {
    this.disposed = true;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      this.slots[i] = null;
      if (!slot) continue;
      for (const p of slot.pending.values()) p.reject(new QuarryError('Cancelled', 'The parsing pool was closed'));
      slot.pending.clear();
      slot.thread.terminate();
    }
  }
}

/** How many parsing threads: one per core beyond the one the caller keeps, at least two. */
export function poolSize(cores: number | undefined): number {
  return Math.max(2, Math.floor(cores ?? 2) - 1);
}

/**
 * Answers applied in the order asked, with at most `maxFiles` files / `maxChars` characters
 * waiting: push() resolves once the window has room again (after applying the oldest answers).
 * A rejected answer is handed to `apply` as the error, in its turn, like a result.
 */
export class InOrderWindow<T> {
  private readonly queue: Array<{ answer: Promise<T>; chars: number; apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void }> = [];
  private chars = 0;

  constructor(
    private readonly maxFiles: number,
    private readonly maxChars: number,
  ) {}

  async push(answer: Promise<T>, chars: number, apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void): Promise<void> {
    // settle now so an answer that fails while it waits is not an unhandled rejection
    answer.catch(() => undefined);
    this.queue.push({ answer, chars, apply });
    this.chars += chars;
    while (this.queue.length > this.maxFiles || (this.chars > this.maxChars && this.queue.length > 1)) await this.applyOldest();
  }

  /**
   * Takes the answer only when the window has room for it (never waiting, never applying
   * anything now): false when it is full. The index build uses it while it must not stop to
   * apply answers (the text index comes first).
   */
  offer(answer: Promise<T>, chars: number, apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void): boolean {
    if (this.queue.length >= this.maxFiles || (this.queue.length > 0 && this.chars + chars > this.maxChars)) return false;
    answer.catch(() => undefined);
    this.queue.push({ answer, chars, apply });
    this.chars += chars;
    return true;
  }

  /** Applies every answer still waiting, in order. */
  async drain(): Promise<void> {
    while (this.queue.length) await this.applyOldest();
  }

  get waiting(): number {
    return this.queue.length;
  }

  private async applyOldest(): Promise<void> {
    const head = this.queue[0];
    let r: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      r = { ok: true, value: await head.answer };
    } catch (error) {
      r = { ok: false, error };
    }
    this.queue.shift();
    this.chars -= head.chars;
    head.apply(r);
  }
}

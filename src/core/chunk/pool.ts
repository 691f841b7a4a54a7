/**
 * Parsing on several threads. The index build hands each file's text to a FileChunker and
 * applies the answers IN THE ORDER IT ASKED (InOrderWindow), so a build on a pool of threads
 * gives the very index a build on one thread gives: chunk ids, postings and stored bytes
 * alike (a property test checks it with answers arriving in random order).
 *
 * ThreadPool is the platform-free half of a pool: it speaks ChunkRequest/ChunkReply to
 * whatever `spawn` returns (a Web Worker in the browser, a worker_threads Worker in Node; see
 * the adapters), gives each file to the thread with the least text pending, sends a thread
 * two files at a time (the rest wait here, so a cancelled build's files are dropped instead of
 * parsed for nothing), and when a thread dies rejects the files it held (they are skipped as
 * unreadable, with the reason) and starts a new one for the others. serveChunks is the thread side.
 */
import { QuarryError, toQuarryError, type QuarryErrorJSON } from '../errors';
import type { PoolThread } from '../jobs/pool-thread';
import { MAX_BACKGROUND_WAIT_MS, now, unlessAborted } from '../jobs/yielder';
import type { Chunk } from './types';

/** One file's chunks, maybe computed on another thread. Rejects with QuarryError('Unreadable') when the file cannot be chunked. */
export interface ChunkOptions {
  /** Use at most this many of the pool's threads (the caller keeps a core for itself). */
  threads?: number;
  /** A file still waiting for a thread when this aborts is never parsed (rejected as Cancelled). */
  signal?: AbortSignal;
  /**
   * What the thread must load for this file (its grammar): a thread that has it already is
   * preferred unless it has AFFINITY_SLACK_CHARS more text pending than the least busy one, so
   * a repository of many languages loads each grammar once, not once per thread.
   */
  affinity?: string;
}

/** How much more pending text a thread that has the file's grammar may have and still get it. */
export const AFFINITY_SLACK_CHARS = 256 * 1024;

export interface FileChunker {
  chunk(path: string, text: string, options?: ChunkOptions): Promise<Chunk[]>;
  /**
   * The affinity keys (grammars) the coming files need: loading starts now, all at once, each
   * on the thread its files will go to, instead of one after the other as files arrive.
   */
  prepare?(keys: readonly string[], options?: Pick<ChunkOptions, 'threads'>): void;
  /** How many files it parses at once (1 on the calling thread). */
  readonly parallelism: number;
  dispose?(): void;
}

export interface ChunkRequest {
  id: number;
  path: string;
  text: string;
}

/** What a thread is sent: a file to chunk, or a grammar to load before its files come. */
export type ChunkMessage = ChunkRequest | { preload: string };

export type ChunkReply = { id: number; chunks: Chunk[] } | { id: number; error: QuarryErrorJSON };

/** The thread side: answers each request with the chunks or the error, in any order. */
export function serveChunks(
  getChunker: () => Promise<{
    chunk(path: string, text: string): Promise<Chunk[]>;
    prepare?(keys: readonly string[]): void;
  }>,
  post: (reply: ChunkReply) => void,
) {
  return (req: ChunkMessage): void => {
    if ('preload' in req) {
      // a grammar that fails to load here fails its files later, with the reason
      getChunker().then(
        (c) => c.prepare?.([req.preload]),
        () => undefined,
      );
      return;
    }
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
export type ChunkThread = PoolThread<ChunkMessage, ChunkReply>;

interface Job {
  id: number;
  path: string;
  text: string;
  resolve: (c: Chunk[]) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  affinity?: string;
  threads?: number;
  onAbort?: () => void;
}

interface Slot {
  thread: ChunkThread;
  /** Sent to the thread and not answered yet (see canSend). */
  sent: Map<number, Job>;
  /** Waiting here, in order, until the thread has room: a cancelled build's files are dropped from it. */
  backlog: Job[];
  /** Characters sent or waiting and not answered yet: the thread's queue, measured in work. */
  chars: number;
  /** Characters sent and not answered yet. */
  sentChars: number;
  /** The affinity keys of the files it was given (the grammars it has loaded or is loading). */
  keys: Set<string>;
}

/**
 * What a thread holds at once: at least two files (one parsing, one ready), and more up to
 * IN_FLIGHT_CHARS (~0.25 s of parsing), so it does not run dry while the calling thread is busy
 * for a moment (its replies wait for that thread's event loop), yet a cancel leaves it little to
 * finish.
 */
const IN_FLIGHT_MIN = 2;
const IN_FLIGHT_MAX = 64;
export const IN_FLIGHT_CHARS = 2 * 1024 * 1024;

/**
 * Longest a hold keeps files back in one go: foreground work that never ends still lets the
 * build go on (the background yielder's own limit).
 */
export const MAX_HOLD_MS = MAX_BACKGROUND_WAIT_MS;

/** Threads that stop before their first answer, in a row, after which the pool parses on the calling thread. */
export const START_FAILURES_BEFORE_FALLBACK = 2;

export class ThreadPool implements FileChunker {
  private readonly slots: Array<Slot | null>;
  private nextId = 1;
  private disposed = false;
  /** Threads that stopped without ever answering, in a row (a worker script that cannot load, say). */
  private startFailures = 0;
  /** Set once threads cannot start here: every file goes to `fallback` from then on. */
  private onThisThread: Promise<FileChunker> | null = null;
  /** How long to keep new files back (ms; 0: send them), see holdWhile. */
  private gate: (() => number) | null = null;
  /** When the current hold began (-1: not holding). */
  private heldSince = -1;
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly spawn: () => ChunkThread,
    readonly parallelism: number,
    /** The chunker to use on the calling thread when threads cannot start (none: their files fail, transiently). */
    private readonly fallback?: () => Promise<FileChunker>,
  ) {
    if (!(parallelism >= 1))
      throw new QuarryError(
        'InvalidArgument',
        `A parsing pool needs at least one thread, not ${parallelism}`,
      );
    this.slots = Array.from({ length: parallelism }, () => null);
  }

  /**
   * While `gate()` is above 0 (foreground work a person waits on: a search, a file, a listing,
   * and a moment after), no new file goes to a thread; the files in flight finish. The page's
   * renderer shares the machine's cores with these threads: on two cores, parsing threads fed
   * straight from their answers kept both cores busy while the engine's own build loop gave way,
   * and the frame that showed a search's results waited for a core. Never longer than MAX_HOLD_MS
   * in one go.
   */
  holdWhile(gate: (() => number) | null): void {
    this.gate = gate;
  }

  private holding(): boolean {
    const wait = this.gate?.() ?? 0;
    if (!(wait > 0)) {
      this.heldSince = -1;
      return false;
    }
    const t = now();
    if (this.heldSince < 0) this.heldSince = t;
    if (t - this.heldSince >= MAX_HOLD_MS) return false;
    this.resumeTimer ??= setTimeout(
      () => {
        this.resumeTimer = null;
        this.pump();
      },
      Math.min(wait, 50),
    );
    return true;
  }

  /** Send what the threads have room for, unless held. */
  private pump(): void {
    if (this.disposed) return;
    if (!this.slots.some((s) => s?.backlog.length)) {
      // nothing waiting: no hold to keep (the next one starts afresh), no timer armed to check it again
      this.heldSince = -1;
      return;
    }
    if (this.holding()) return;
    for (const slot of this.slots) {
      if (slot)
        while (slot.backlog.length && canSend(slot, slot.backlog[0])) this.send(slot, slot.backlog.shift()!);
    }
  }

  /** Whether the pool gave up on threads and parses on the calling thread. */
  get fellBack(): boolean {
    return this.onThisThread !== null;
  }

  chunk(path: string, text: string, options: ChunkOptions = {}): Promise<Chunk[]> {
    if (this.disposed) return Promise.reject(new QuarryError('Cancelled', 'The parsing pool was closed'));
    if (options.signal?.aborted) return Promise.reject(cancelled(path));
    if (this.onThisThread) return this.onThisThread.then((c) => c.chunk(path, text));
    // the thread with the least text still to parse (a thread busy with one 1 MB file is not free)
    let best = 0;
    let home = -1;
    const key = options.affinity;
    const n = Math.max(1, Math.min(this.slots.length, options.threads ?? this.parallelism));
    for (let i = 0; i < n; i++) {
      if (this.load(i) < this.load(best)) best = i;
      if (key !== undefined && this.slots[i]?.keys.has(key) && (home < 0 || this.load(i) < this.load(home)))
        home = i;
    }
    const chosen = home >= 0 && this.load(home) <= this.load(best) + AFFINITY_SLACK_CHARS ? home : best;
    let slot: Slot;
    try {
      slot = this.slotAt(chosen);
    } catch (err) {
      // a thread that cannot even be created (a browser's SecurityError, ERR_WORKER_INIT_FAILED): this file fails, for now
      return Promise.reject(threadStopped(path, err instanceof Error ? err.message : String(err)));
    }
    if (key !== undefined) slot.keys.add(key);
    return new Promise<Chunk[]>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        path,
        text,
        resolve,
        reject,
        signal: options.signal,
        affinity: key,
        threads: options.threads,
      };
      slot.chars += text.length;
      if (canSend(slot, job) && !this.holding()) this.send(slot, job);
      else {
        slot.backlog.push(job);
        if (job.signal) {
          job.onAbort = () => this.drop(slot, job);
          job.signal.addEventListener('abort', job.onAbort, { once: true });
        }
      }
    });
  }

  prepare(keys: readonly string[], options: Pick<ChunkOptions, 'threads'> = {}): void {
    if (this.disposed) return;
    if (this.onThisThread) {
      void this.onThisThread.then(
        (c) => c.prepare?.(keys),
        () => undefined,
      );
      return;
    }
    const n = Math.max(1, Math.min(this.slots.length, options.threads ?? this.parallelism));
    for (const key of keys) {
      if (this.slots.some((s) => s?.keys.has(key))) continue;
      // the thread with the fewest grammars: each loads its share, in parallel with the others
      let best = 0;
      for (let i = 1; i < n; i++)
        if ((this.slots[i]?.keys.size ?? 0) < (this.slots[best]?.keys.size ?? 0)) best = i;
      try {
        const slot = this.slotAt(best);
        slot.keys.add(key);
        slot.thread.post({ preload: key }, []);
      } catch {
        return; // no thread can start: the files will say so
      }
    }
  }

  private send(slot: Slot, job: Job): void {
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    slot.sent.set(job.id, job);
    slot.sentChars += job.text.length;
    slot.thread.post({ id: job.id, path: job.path, text: job.text }, []);
  }

  /** A waiting file of a cancelled build: never sent. */
  private drop(slot: Slot, job: Job): void {
    const at = slot.backlog.indexOf(job);
    if (at < 0) return;
    slot.backlog.splice(at, 1);
    slot.chars -= job.text.length;
    job.reject(cancelled(job.path));
  }

  private load(i: number): number {
    return this.slots[i]?.chars ?? 0;
  }

  private slotAt(i: number): Slot {
    const existing = this.slots[i];
    if (existing) return existing;
    const slot: Slot = {
      thread: this.spawn(),
      sent: new Map(),
      backlog: [],
      chars: 0,
      sentChars: 0,
      keys: new Set(),
    };
    this.slots[i] = slot;
    let answered = false;
    slot.thread.listen(
      (reply) => {
        answered = true;
        this.startFailures = 0;
        const job = slot.sent.get(reply.id);
        if (!job) return;
        slot.sent.delete(reply.id);
        slot.chars -= job.text.length;
        slot.sentChars -= job.text.length;
        this.pump();
        if ('chunks' in reply) job.resolve(reply.chunks);
        else job.reject(new QuarryError(reply.error.code, reply.error.message, reply.error.data));
      },
      (reason) => {
        if (this.slots[i] === slot) this.slots[i] = null; // later files start a new thread
        if (!answered) this.startFailures++;
        if (
          !answered &&
          this.fallback &&
          (this.onThisThread || this.startFailures >= START_FAILURES_BEFORE_FALLBACK)
        ) {
          // threads cannot start here: parse on the calling thread from now on, the files this one held too
          if (!this.onThisThread) {
            this.onThisThread = this.fallback();
            this.onThisThread.catch(() => undefined);
          }
          slot.backlog.unshift(...slot.sent.values());
          slot.sent.clear();
        }
        for (const job of slot.sent.values()) job.reject(threadStopped(job.path, reason));
        slot.sent.clear();
        slot.chars = 0;
        slot.sentChars = 0;
        // the files that were only waiting go to the threads still (or newly) running
        for (const job of slot.backlog.splice(0)) {
          if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
          this.chunk(job.path, job.text, {
            signal: job.signal,
            affinity: job.affinity,
            threads: job.threads,
          }).then(job.resolve, job.reject);
        }
      },
    );
    return slot;
  }

  dispose(): void {
    this.disposed = true;
    if (this.resumeTimer !== null) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      this.slots[i] = null;
      if (!slot) continue;
      for (const job of [...slot.sent.values(), ...slot.backlog]) {
        if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
        job.reject(new QuarryError('Cancelled', 'The parsing pool was closed'));
      }
      slot.sent.clear();
      slot.backlog = [];
      slot.thread.terminate();
    }
  }
}

function canSend(slot: Slot, job: Job): boolean {
  return (
    slot.sent.size < IN_FLIGHT_MIN ||
    (slot.sent.size < IN_FLIGHT_MAX && slot.sentChars + job.text.length <= IN_FLIGHT_CHARS)
  );
}

const cancelled = (path: string) => new QuarryError('Cancelled', `Parsing ${path} was cancelled`, { path });

/** Not the file's fault (it may be, or not): `transient` asks the index build to try it again next time. */
const threadStopped = (path: string, reason: string) =>
  new QuarryError('Unreadable', `The parser thread stopped while parsing ${path}: ${reason}`, {
    path,
    transient: true,
  });

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
  private readonly queue: Array<{
    answer: Promise<T>;
    chars: number;
    apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void;
  }> = [];
  private chars = 0;

  constructor(
    private readonly maxFiles: number,
    private readonly maxChars: number,
    /** When it aborts, push() and drain() stop waiting at once (Cancelled); answers still out are left alone. */
    private readonly signal?: AbortSignal,
  ) {}

  async push(
    answer: Promise<T>,
    chars: number,
    apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void,
  ): Promise<void> {
    // settle now so an answer that fails while it waits is not an unhandled rejection
    answer.catch(() => undefined);
    this.queue.push({ answer, chars, apply });
    this.chars += chars;
    while (this.queue.length > this.maxFiles || (this.chars > this.maxChars && this.queue.length > 1))
      await this.applyOldest();
  }

  /**
   * Takes the answer only when the window has room for it (never waiting, never applying
   * anything now): false when it is full. The index build uses it while it must not stop to
   * apply answers (the text index comes first).
   */
  offer(
    start: () => Promise<T>,
    chars: number,
    apply: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void,
  ): boolean {
    if (this.queue.length >= this.maxFiles || (this.queue.length > 0 && this.chars + chars > this.maxChars))
      return false;
    const answer = start(); // only now: a file the window cannot take is not started
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
      r = {
        ok: true,
        value: await unlessAborted(
          head.answer,
          this.signal,
          () => new QuarryError('Cancelled', 'Indexing was cancelled'),
        ),
      };
    } catch (error) {
      if (this.signal?.aborted) throw error; // cancelled: nothing more is applied
      r = { ok: false, error };
    }
    this.queue.shift();
    this.chars -= head.chars;
    head.apply(r);
  }
}

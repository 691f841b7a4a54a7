/**
 * Parsing on several threads. The index build hands each file's text to a FileChunker and
 * applies the answers IN THE ORDER IT ASKED (InOrderWindow), so a build on a pool of threads
 * gives the very index a build on one thread gives: chunk ids, postings and stored bytes
 * alike (a property test checks it with answers arriving in random order).
 *
 * ThreadPool is the platform-free half of a pool, on core's thread pool (jobs/pool.ts): it
 * speaks ChunkRequest/ChunkReply to whatever `spawn` returns (a Web Worker in the browser, a
 * worker_threads Worker in Node; see the adapters), gives each file to the thread with the least
 * text pending (or one that has its grammar), sends a thread two files at a time (the rest wait
 * here, so a cancelled build's files are dropped instead of parsed for nothing), and when a
 * thread dies rejects the files it held (they are skipped as unreadable, with the reason) and
 * starts a new one for the others. serveChunks is the thread side.
 */
import { QuarryError, toQuarryError, type QuarryErrorJSON } from '../errors';
import { Pool, type ThreadSlot } from '../jobs/pool';
import type { PoolThread } from '../jobs/pool-thread';
import { MAX_BACKGROUND_WAIT_MS, unlessAborted } from '../jobs/yielder';
import { MAX_PARSE_MS } from '../limits';
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

/** A file for the pool: what the thread is sent, and where it may go. */
interface Job {
  path: string;
  text: string;
  affinity?: string;
  threads?: number;
}

/** What the pool keeps of a thread: the affinity keys of the files it was given (the grammars it has loaded or is loading). */
interface ThreadKeys {
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

/**
 * The longest a thread may take over one file (from when it is the oldest it holds) before it
 * counts as hung: it is then ended, the file fails (transiently) and a new thread takes the
 * others. A file's own parse stops at MAX_PARSE_MS (it fails, with 'parse-timeout'); this only
 * catches a thread that no longer answers at all, with room for a grammar to load first.
 */
export const THREAD_BUDGET_MS = 12 * MAX_PARSE_MS;

export class ThreadPool implements FileChunker {
  private readonly pool: Pool<ChunkMessage, ChunkReply, Job, Chunk[], ThreadKeys>;
  /** The chunker on the calling thread once threads cannot start here (made the first time it is needed). */
  private onThisThread: Promise<FileChunker> | null = null;
  private readonly local: (() => Promise<FileChunker>) | null;

  constructor(
    spawn: () => ChunkThread,
    readonly parallelism: number,
    /** The chunker to use on the calling thread when threads cannot start (none: their files fail, transiently). */
    fallback?: () => Promise<FileChunker>,
  ) {
    if (!(parallelism >= 1))
      throw new QuarryError(
        'InvalidArgument',
        `A parsing pool needs at least one thread, not ${parallelism}`,
      );
    this.local = fallback
      ? () => {
          if (!this.onThisThread) {
            this.onThisThread = fallback();
            this.onThisThread.catch(() => undefined);
          }
          return this.onThisThread;
        }
      : null;
    this.pool = new Pool({
      size: parallelism,
      spawn,
      state: () => ({ keys: new Set<string>() }),
      encode: (id, job) => ({ message: { id, path: job.path, text: job.text }, transfer: [] }),
      replyId: (reply) => reply.id,
      outcome: (reply) =>
        'chunks' in reply
          ? { ok: true, value: reply.chunks }
          : { ok: false, error: new QuarryError(reply.error.code, reply.error.message, reply.error.data) },
      weight: (job) => job.text.length,
      room: canSend,
      place: (job, slots) => this.place(job, slots),
      budget: () => THREAD_BUDGET_MS,
      // a file with a thread finishes: a cancelled build only drops the files still waiting here
      cancelRunning: 'finish',
      cancelled: (job) => cancelled(job.path),
      lost: (reason, job) => threadStopped(job.path, reason),
      closed: () => new QuarryError('Cancelled', 'The parsing pool was closed'),
      giveUpAfter: START_FAILURES_BEFORE_FALLBACK,
      fallback: this.local ? (job) => this.local!().then((c) => c.chunk(job.path, job.text)) : undefined,
      maxHoldMs: MAX_HOLD_MS,
    });
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
    this.pool.holdWhile(gate);
  }

  /** Whether the pool gave up on threads and parses on the calling thread. */
  get fellBack(): boolean {
    return this.pool.gaveUp;
  }

  chunk(path: string, text: string, options: ChunkOptions = {}): Promise<Chunk[]> {
    return this.pool.run(
      { path, text, affinity: options.affinity, threads: options.threads },
      options.signal,
    );
  }

  /**
   * The thread for a file: the one with the least text still to parse (a thread busy with one 1 MB
   * file is not free), or one that has its grammar unless it has AFFINITY_SLACK_CHARS more.
   */
  private place(job: Job, slots: readonly ThreadSlot<ThreadKeys>[]): number {
    let best = 0;
    let home = -1;
    const key = job.affinity;
    const n = this.usable(job.threads);
    for (let i = 0; i < n; i++) {
      if (slots[i].load < slots[best].load) best = i;
      if (key !== undefined && slots[i].state.keys.has(key) && (home < 0 || slots[i].load < slots[home].load))
        home = i;
    }
    const chosen = home >= 0 && slots[home].load <= slots[best].load + AFFINITY_SLACK_CHARS ? home : best;
    if (key !== undefined) slots[chosen].state.keys.add(key);
    return chosen;
  }

  private usable(threads: number | undefined): number {
    return Math.max(1, Math.min(this.parallelism, threads ?? this.parallelism));
  }

  prepare(keys: readonly string[], options: Pick<ChunkOptions, 'threads'> = {}): void {
    if (this.pool.closed) return;
    if (this.pool.gaveUp && this.local) {
      void this.local().then(
        (c) => c.prepare?.(keys),
        () => undefined,
      );
      return;
    }
    const slots = this.pool.slots;
    const n = this.usable(options.threads);
    for (const key of keys) {
      if (slots.some((s) => s.state.keys.has(key))) continue;
      // the thread with the fewest grammars: each loads its share, in parallel with the others
      let best = 0;
      for (let i = 1; i < n; i++) if (slots[i].state.keys.size < slots[best].state.keys.size) best = i;
      if (!this.pool.post(best, { preload: key })) return; // no thread can start: the files will say so
      slots[best].state.keys.add(key);
    }
  }

  dispose(): void {
    this.pool.dispose();
  }
}

function canSend(slot: ThreadSlot<ThreadKeys>, job: Job): boolean {
  return (
    slot.inFlight < IN_FLIGHT_MIN ||
    (slot.inFlight < IN_FLIGHT_MAX && slot.inFlightWeight + job.text.length <= IN_FLIGHT_CHARS)
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

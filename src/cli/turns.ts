/**
 * Long work in a Node server (`quarry mcp`, `quarry serve`) that leaves the event loop its turn.
 * The Node file source reads with synchronous calls inside async methods, so a walk of 30,000
 * files, or ten at once, runs as one unbroken chain of microtasks: stdin is not read, and a ping
 * waited 22.8 s behind ten code_search calls. Here:
 *
 *   - Turns: one budget for the whole process; once it is spent, every chain of work that asks
 *     waits for the same setImmediate, so stdin, sockets and timers run at least every budget;
 *   - yieldingSource: a FileSource that asks Turns before each list / stat / read, which is where
 *     every walk, search and index build spends its time (the source itself is unchanged: the
 *     proxy forwards everything, `instanceof` included, so the search threads still open its files).
 *     It offers no transient reads (readTransient, readRanges: one buffer, valid until the source's
 *     next read): calls that resume together after a turn would read each other's bytes (ten
 *     concurrent code_search calls returned lines of other files), so readers take `read`'s own bytes;
 *   - FairQueue: heavy calls run a few at a time, in the order they came; the others wait.
 */
import { QuarryError } from '../core/errors';
import type { FileSource } from '../core/source/types';

/** How long work may hold the event loop before it lets everything else run (ms). */
export const TURN_BUDGET_MS = 10;

export class Turns {
  private last = performance.now();
  private pending: Promise<void> | null = null;

  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** undefined within the budget (go on); otherwise a promise every caller shares, settled after one turn of the loop. */
  maybeYield(): Promise<void> | undefined {
    if (this.pending) return this.pending;
    if (performance.now() - this.last < this.budgetMs) return undefined;
    this.pending = new Promise<void>((resolve) =>
      setImmediate(() => {
        this.pending = null;
        this.last = performance.now();
        resolve();
      }),
    );
    return this.pending;
  }
}

/** The methods every walk, search and read goes through (statFile only when the source has it). */
const PACED = new Set<PropertyKey>(['list', 'stat', 'statFile', 'read']);
/** A buffer the next read overwrites: unsafe for readers that interleave (see above); readers fall back to `read`. */
const HIDDEN = new Set<PropertyKey>(['readTransient', 'readRanges']);

/** `source`, asking `turns` before each list, stat and read. */
export function yieldingSource(source: FileSource, turns: Turns): FileSource {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(source, {
    get(target, prop) {
      if (HIDDEN.has(prop)) return undefined;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = made.get(prop);
      if (!fn) {
        const method = value as (...args: unknown[]) => unknown;
        fn = PACED.has(prop)
          ? (...args: unknown[]) => {
              const wait = turns.maybeYield();
              return wait ? wait.then(() => method.apply(target, args)) : method.apply(target, args);
            }
          : method.bind(target);
        made.set(prop, fn);
      }
      return fn;
    },
  });
}

interface Waiting {
  start(): void;
}

/**
 * Runs work `slots` at a time in the order it was given; the rest waits its turn. A cancelled
 * caller leaves the line at once (with a Cancelled error) and never starts.
 */
export class FairQueue {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(readonly slots: number) {}

  /** How many run and how many wait (tests, diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.enter(signal);
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.start();
    }
  }

  private enter(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.running < this.slots && this.waiting.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }
}

function cancelled(): QuarryError {
  return new QuarryError('Cancelled', 'The call was cancelled while it waited its turn');
}

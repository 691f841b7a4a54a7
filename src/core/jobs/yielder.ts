/**
 * Long jobs yield to the event loop on a time budget (not after every file), so a worker
 * can receive cancel() and a main-thread fallback keeps the page responsive.
 * 12 ms keeps a 60 Hz frame free while costing well under 1% in context switches.
 */
export const DEFAULT_YIELD_BUDGET_MS = 12;

export interface Yielder {
  /** Resolves at once while within budget; otherwise after a macrotask turn. */
  maybeYield(): Promise<void> | void;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export function createYielder(yieldBudgetMs = DEFAULT_YIELD_BUDGET_MS): Yielder {
  let last = now();
  return {
    maybeYield() {
      const t = now();
      if (t - last < yieldBudgetMs) return;
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          last = now();
          resolve();
        }, 0),
      );
    },
  };
}

/**
 * What a person is waiting for right now (a search, a file, a listing): background jobs give
 * way to it, and for `graceMs` after it ends, while its answer is drawn on screen. On a machine
 * with few cores a background index build would otherwise take the CPU those frames need.
 */
export class Foreground {
  private active = 0;
  private quietAt = 0;
  constructor(private readonly graceMs = 250) {}

  /** Marks the start of foreground work; call the returned function when it ends (once). */
  begin(): () => void {
    this.active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      this.quietAt = Math.max(this.quietAt, now() + this.graceMs);
    };
  }

  /** How long background work should wait before going on (0: go on). */
  waitMs(): number {
    if (this.active > 0) return this.graceMs;
    return Math.max(0, this.quietAt - now());
  }
}

/** Longest background work waits for foreground work in one go (so endless foreground work cannot starve it). */
export const MAX_BACKGROUND_WAIT_MS = 2000;

export interface BackgroundYielderOptions {
  yieldBudgetMs?: number;
  /** A cancelled job stops waiting at once (its next step sees the abort). */
  signal?: AbortSignal;
  /** Longest wait in one go: foreground work that never ends still lets one slice through (ms). */
  maxWaitMs?: number;
}

/**
 * A yielder for background jobs: it yields on the same budget, and while foreground work is
 * running (or just ended) it waits, in steps of at most 50 ms, until it is quiet, the job is
 * cancelled, or `maxWaitMs` has passed.
 */
export function createBackgroundYielder(
  foreground: Foreground,
  options: BackgroundYielderOptions = {},
): Yielder {
  const budget = options.yieldBudgetMs ?? DEFAULT_YIELD_BUDGET_MS;
  const maxWaitMs = options.maxWaitMs ?? MAX_BACKGROUND_WAIT_MS;
  const signal = options.signal;
  let last = now();
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return {
    maybeYield() {
      if (now() - last < budget && foreground.waitMs() === 0) return;
      return (async () => {
        await sleep(0);
        const until = now() + maxWaitMs;
        for (let w = foreground.waitMs(); w > 0 && !signal?.aborted && now() < until; w = foreground.waitMs())
          await sleep(Math.min(w, 50));
        last = now();
      })();
    },
  };
}

/** A yielder that never yields (CLI, benchmarks). */
export const NEVER_YIELD: Yielder = { maybeYield() {} };

/**
 * `work`, or a rejection with `cancelled()` as soon as `signal` aborts: for an await a job
 * cannot interrupt (loading the parsers), so that a cancelled job still
 * ends at once. The work itself runs on and its answer, or its failure, is dropped.
 */
export function unlessAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  cancelled: () => Error,
): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

export function elapsedSince(start: number): number {
  return Math.round((now() - start) * 100) / 100;
}

export { now };

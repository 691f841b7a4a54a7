/**
 * The background reconcile of roots opened from their stored listings (the engine's reconcileRepo):
 * one job per root, its progress shown quietly as "Checking for changes (n of N)", its end handed
 * to the controller (which refreshes the views and the index when something changed).
 */
import { toQuarryError } from '../../core/errors';
import type { EngineClient } from '../../worker/client';
import type { ReconcileStats } from '../../worker/protocol';
import { ProgressStore } from '../progress-store';

/** The longest a reopened root's reconcile waits for its index to load first. */
const RECONCILE_WAIT_MS = 3_000;

export class Reconciler {
  private jobs = new Map<string, { cancel: () => void; progress: ProgressStore }>();
  /** Called once when the running or next index build ends (indexEnded). */
  private indexWaiters: Array<() => void> = [];

  constructor(
    private readonly engine: Partial<Pick<EngineClient, 'reconcileRepo'>>,
    /** Runs `fn` once the page is idle; returns a cancel (immediate when absent). */
    private readonly whenIdle: ((fn: () => void) => () => void) | undefined,
    /** The progress to show (the latest running job's), or null when none runs. */
    private readonly onChecking: (progress: ProgressStore | null) => void,
    /** A job that completed (ending 'complete'). */
    private readonly onReconciled: (key: string, stats: ReconcileStats) => void,
  ) {}

  /**
   * Start reconciling one root (a job already running for it is replaced); the status says
   * "Checking for changes" from now. The job itself waits until the index build ends (at most
   * RECONCILE_WAIT_MS), then until the page is idle: the worker first answers what the reopen
   * shows and what a person does first (the tree, quick open, the deep-linked file, the stored
   * index loaded), then reads the whole folder again.
   */
  start(key: string, defer: (fn: () => void) => () => void = (fn) => this.afterIndexIdle(fn)): void {
    const reconcileRepo = this.engine.reconcileRepo?.bind(this.engine);
    if (!reconcileRepo) return;
    this.jobs.get(key)?.cancel();
    const progress = new ProgressStore();
    const mine = { cancel: () => {}, progress };
    this.jobs.set(key, mine);
    this.onChecking(progress);
    const run = () => {
      if (this.jobs.get(key) !== mine) return;
      const job = reconcileRepo(key).onProgress((p) => progress.set(p));
      mine.cancel = job.cancel;
      this.follow(key, mine, job.done);
    };
    mine.cancel = defer(run);
  }

  /** An index build ended (however it ended): the reconciles waiting for it go on. */
  indexEnded(): void {
    const waiters = this.indexWaiters;
    this.indexWaiters = [];
    for (const w of waiters) w();
  }

  private afterIndexIdle(fn: () => void): () => void {
    let settled = false;
    let cancelIdle = () => {};
    const go = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.indexWaiters = this.indexWaiters.filter((w) => w !== go);
      if (this.whenIdle) cancelIdle = this.whenIdle(fn);
      else fn();
    };
    const timer = setTimeout(go, RECONCILE_WAIT_MS);
    this.indexWaiters.push(go);
    return () => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        this.indexWaiters = this.indexWaiters.filter((w) => w !== go);
      }
      cancelIdle();
    };
  }

  private follow(
    key: string,
    mine: { cancel: () => void; progress: ProgressStore },
    done: Promise<{ stats: ReconcileStats }>,
  ): void {
    const finish = () => {
      if (this.jobs.get(key) !== mine) return false;
      this.jobs.delete(key);
      this.onChecking(this.checking);
      return true;
    };
    done.then(
      (end) => {
        if (finish() && end.stats.ending === 'complete') this.onReconciled(key, end.stats);
      },
      (err) => {
        // the folder could not be read again (permission gone, folder moved): what is shown stays
        // the stored listing's; EngineRestarted reopens every root anyway
        if (finish() && toQuarryError(err).code !== 'EngineRestarted')
          console.warn(`Quarry: could not check ${key} for changes: ${toQuarryError(err).message}`);
      },
    );
  }

  /** The progress of a running job (the most recently started), or null. */
  get checking(): ProgressStore | null {
    let last: ProgressStore | null = null;
    for (const j of this.jobs.values()) last = j.progress;
    return last;
  }

  /** Whether a root's reconcile is running. */
  running(key: string): boolean {
    return this.jobs.has(key);
  }

  /** Stop one root's job (closed) or every job (a new workspace). */
  cancel(key?: string): void {
    for (const [k, j] of [...this.jobs]) {
      if (key !== undefined && k !== key) continue;
      j.cancel();
      this.jobs.delete(k);
    }
    this.onChecking(this.checking);
  }
}

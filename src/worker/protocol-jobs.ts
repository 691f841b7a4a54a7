/**
 * The worker boundary's job envelope (re-exported by protocol.ts): every method resolves with an
 * Outcome; a long call streams `{type, data}` events and ends with `{results, limitHit, skipped, stats}`.
 */
import type { QuarryErrorJSON } from '../core/errors';
import type { Skipped } from '../core/walk/policy';

export type JobId = string;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: QuarryErrorJSON };

/** Progress is plain data: phase plus counts (after isomorphic-git's `{phase, loaded, total}`). */
export interface Progress {
  /**
   * Opening: listing, reading, indexing. Building the code index: grammars, scanning, indexing
   * (the text index), parsing (the symbol chunks, after the text index is in use), saving.
   * Semantic search: model (its bytes), embedding (chunks' views: files/totalFiles count views).
   */
  phase:
    | 'listing'
    | 'reading'
    | 'indexing'
    | 'searching'
    | 'grammars'
    | 'scanning'
    | 'parsing'
    | 'saving'
    | 'git'
    | 'model'
    | 'embedding';
  /** For phase 'git': isomorphic-git's own phase ('Receiving objects', 'Resolving deltas', 'Updating workdir'...); files/totalFiles are its loaded/total. */
  label?: string;
  /** Files handled so far in this phase. */
  files: number;
  /** Files expected in this phase (0 while unknown). */
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

export type JobEvent<R> = { type: 'batch'; data: R[] } | { type: 'progress'; data: Progress };

/** The callback a long call streams through. Over Comlink it is a proxy (its return value is ignored). */
export type JobCallback<R> = (event: JobEvent<R>) => void | Promise<void>;

export interface JobStats {
  elapsedMs: number;
  /** What ended the job: 'cancelled' is a normal ending (superseded or user cancel), not an error. */
  ending: 'complete' | 'cancelled' | 'stopped';
  [key: string]: unknown;
}

/**
 * How every job ends. `results` holds the items that were not yet sent in a batch
 * (possibly none), so each item is delivered exactly once and in order.
 */
export interface JobEnd<R, S extends JobStats = JobStats> {
  results: R[];
  limitHit: boolean;
  skipped: Skipped[];
  stats: S;
}

/** Batches are flushed every this many items or this many milliseconds, whichever comes first. */
export const BATCH_MAX_ITEMS = 50;
export const BATCH_MAX_MS = 16;

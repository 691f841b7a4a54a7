/**
 * The worker boundary: the only module both sides import. Everything here is plain,
 * structured-cloneable data (no class instances, RegExp, Map or Error). File System
 * Access handles and File objects are allowed because the platform clones them.
 *
 * Shape (after VS Code's search service): long calls take a job id and one callback that
 * receives `{type, data}` envelopes; `cancel(jobId)` is its own call; a job resolves with
 * `{results, limitHit, skipped, stats}`. Every method resolves with an Outcome instead of
 * throwing, because Comlink forwards only message/name/stack of an Error.
 */
import type { QuarryErrorJSON } from '../core/errors';
import type { GrepFileResult, GrepRequest, HitRange } from '../core/grep/types';
import type { Skipped } from '../core/walk/policy';

export type JobId = string;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: QuarryErrorJSON };

/** Progress is plain data: phase plus counts (after isomorphic-git's `{phase, loaded, total}`). */
export interface Progress {
  phase: 'listing' | 'reading' | 'indexing' | 'searching';
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

// ---- opening a repository -------------------------------------------------------------

/** Where a repository comes from. Sent to the worker, which builds the FileSource there. */
export type RepoSpec =
  | { kind: 'demo' }
  | { kind: 'handle'; name: string; handle: FileSystemDirectoryHandle }
  /** A snapshot from `<input webkitdirectory>` or a dropped folder: cannot be re-read. */
  | { kind: 'files'; name: string; files: SnapshotFile[]; /** Files sent ahead with stageFiles() (large folders). */ stageId?: string }
  /** Plain text files (tests, the main-thread fallback, Node benchmarks). */
  | { kind: 'memory'; name: string; files: Record<string, string> };

export type { SnapshotFile } from '../adapters/browser-files';
import type { SnapshotFile } from '../adapters/browser-files';

/**
 * Large snapshots cross in slices of this many files (one message each), so structured
 * cloning 10k File objects never blocks the main thread in one long task.
 */
export const STAGE_SLICE_FILES = 50;
/** Target main-thread time per slice message. */
export const STAGE_SLICE_BUDGET_MS = 5;

export interface RepoStats extends JobStats {
  name: string;
  kind: RepoSpec['kind'];
  files: number;
  bytes: number;
  /** Files and directories left out, by reason. */
  skippedByReason: Record<string, number>;
}

// ---- file tree, quick open, file viewer ------------------------------------------------

export interface TreeEntry {
  name: string;
  path: string;
  kind: 'file' | 'directory';
  /** Present when the walk left this entry out (greyed in the tree). */
  skipped?: Skipped['reason'];
  /** Number of entries below (directories only; loaded or skipped). */
  childCount?: number;
}

export interface QuickOpenHit {
  path: string;
  score: number;
  /** UTF-16 indexes in `path` of the characters that matched the query. */
  positions: number[];
}

export interface FileHighlight {
  pattern: string;
  mode: GrepRequest['mode'];
  caseMode?: GrepRequest['caseMode'];
  wholeWord?: boolean;
}

export interface FileContent {
  path: string;
  text: string;
  lineCount: number;
  encoding: string;
  bytes: number;
  /** Hits of `highlight` by line (1-based), when asked for. */
  hits: Array<[line: number, ranges: HitRange[]]>;
  /** Set when the highlight pattern could not be compiled. */
  highlightError?: QuarryErrorJSON;
}

export type SearchEnd = JobEnd<GrepFileResult, SearchStats>;

export interface SearchStats extends JobStats {
  total: number;
  totalIsExact: boolean;
  delivered: number;
  filesSearched: number;
  filesMatched: number;
  strategy: string;
}

export interface EngineInfo {
  /** 'worker' when the engine runs in a Web Worker, 'main-thread' for the fallback. */
  host: 'worker' | 'main-thread' | 'node-worker';
  repo: RepoStats | null;
}

/** The engine's remote surface (what engine-api.ts implements and Comlink exposes). */
export interface EngineApi {
  ping(): Promise<Outcome<EngineInfo>>;
  openRepo(jobId: JobId, spec: RepoSpec, onEvent: JobCallback<never>): Promise<Outcome<JobEnd<never, RepoStats>>>;
  search(jobId: JobId, request: GrepRequest, onEvent: JobCallback<GrepFileResult>): Promise<Outcome<SearchEnd>>;
  cancel(jobId: JobId): Promise<Outcome<boolean>>;
  /** Send part of a snapshot ahead of openRepo({kind:'files', stageId}); returns the staged count. */
  stageFiles(stageId: string, files: SnapshotFile[]): Promise<Outcome<number>>;
  listDir(path: string): Promise<Outcome<TreeEntry[]>>;
  quickOpen(query: string, limit: number): Promise<Outcome<QuickOpenHit[]>>;
  readFile(path: string, highlight?: FileHighlight): Promise<Outcome<FileContent>>;
  skipped(offset: number, limit: number): Promise<Outcome<{ total: number; items: Skipped[] }>>;
  /** Test hook: busy-loop for `ms` without yielding (a job that ignores cancel). */
  spin(jobId: JobId, ms: number): Promise<Outcome<JobEnd<never>>>;
}

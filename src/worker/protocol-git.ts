/**
 * The worker boundary's git contracts (re-exported by protocol.ts): clone and fetch, the
 * repository library, history and its log, one file's diff, history and blame.
 */
import type { HistorySearchSummary } from '../core/query/results';
import type { QuarryErrorJSON } from '../core/errors';
import type { JobStats } from './protocol-jobs';

// ---- git: clone, fetch updates, the repository library, history ----------------------------

import type { RepoRecord } from '../core/git/types';

/** A library entry: a clone or an opened folder (with its handle while Recent keeps it). */
export interface LibraryEntry extends RepoRecord {
  /** The key the repository opens under (made by the engine). */
  key: string;
  handle?: FileSystemDirectoryHandle;
  /** When the folder was last opened (ms since the epoch). */
  openedAt?: number;
}
export type { StorageEstimate } from '../core/git/types';
import type { StorageEstimate } from '../core/git/types';
export type { History, HistoryCommit, ChangedFile } from '../core/git/types';
import type { History } from '../core/git/types';

export interface GitAuth {
  /** Access token for a private repository: sent with this call only, never stored by the engine. */
  token?: string;
  username?: string;
  /** CORS proxy URL (a setting the UI remembers). */
  corsProxy?: string;
}

export interface CloneRequest extends GitAuth {
  url: string;
  /** Branch or tag (default: the remote's default branch). */
  ref?: string;
  /** Commits of history: 1 (default, shallow) ... ; 0 = full history. */
  depth?: number;
}

export interface GitJobStats extends JobStats {
  /** The library entry after the clone or fetch (null when cancelled). */
  repo: LibraryEntry | null;
  /** fetchUpdates: files added or modified and removed by the new commit. */
  changedPaths?: string[];
  removedPaths?: string[];
  previousCommit?: string;
}

export interface LibraryInfo {
  repos: LibraryEntry[];
  storage: StorageEstimate;
}

export interface HistoryRequest {
  /** Most recent commits (default 50). */
  limit?: number;
  /** The root's key (default: the first root). */
  root?: string;
}

export interface HistoryView extends Partial<History> {
  /** The library id of a clone (for fetching more history). */
  libraryId?: string;
  /** False for a repository without git data (the demo, a snapshot, a folder without .git). */
  available: boolean;
  /** Why there is no history, for the empty state. */
  reason?: string;
  source?: 'clone' | 'folder';
}

// ---- the History view's log: streamed, stored with the index (worker/history-job.ts) ----------

export type { LogCommit, LogRefresh } from '../core/git/types';
import type { ChangedFile, HistoryLogPart, LogRefresh, UncommittedFile } from '../core/git/types';
export type { UncommittedFile } from '../core/git/types';

export interface HistoryLogRequest {
  /** The root's key (default: the first root). */
  root?: string;
}

/**
 * What the history job streams, in order: the head (branch, HEAD, shallow), commits (a part with
 * `reset` replaces the list: the stored log, then the refreshed one), and for an opened folder its
 * uncommitted changes (read in the background once the first commits are out). Paths carry the
 * root's prefix when several roots are open.
 */
export type HistoryJobPart =
  /** First: where the git data is (a clone has a library id for "fetch more"; a folder has uncommitted changes). */
  | { kind: 'repo'; source: 'clone' | 'folder'; libraryId?: string }
  | HistoryLogPart
  | { kind: 'uncommitted'; files: UncommittedFile[]; tracked: number; hashed: number; elapsedMs: number }
  | { kind: 'uncommittedError'; error: QuarryErrorJSON };

export interface HistoryLogStats extends JobStats {
  /** False for a root without git data (the demo, a snapshot, a folder without .git), with the reason. */
  available: boolean;
  reason?: string;
  source?: 'clone' | 'folder';
  /** A clone's library id (History's "fetch more" for a shallow clone). */
  libraryId?: string;
  head: string | null;
  branch: string | null;
  shallow: boolean;
  commits: number;
  /** Commits read from the object store (0 on a cache hit). */
  read: number;
  /** How the stored log was used (null when there is no git data). */
  refresh: LogRefresh | null;
  /** Why a stored log was not used; why the new one could not be stored. */
  cacheIgnored?: string;
  saveError?: string;
}

/** How a type:commit / type:diff search ended: how far back it reached, and whether the log is shallow. */
export interface HistorySearchStats extends JobStats, HistorySearchSummary {}

export interface CommitChangesRequest {
  oid: string;
  root?: string;
}

/** A commit's changed files against its first parent (History's expanded commit), kept in the engine's memory. */
export interface CommitChangesView {
  oid: string;
  files: ChangedFile[];
  /** The parent is beyond a shallow clone's depth: the changes are unknown. */
  parentMissing?: boolean;
}

// ---- one file's diff, history and blame (issue 18; worker/file-git.ts) ---------------------

export type { FileDiffResult, FileDiffStatus } from '../core/git/types';
export type { FileHistoryEntry, FileChange } from '../core/git/types';
export type { BlameResult, BlameCommit, BlameRun } from '../core/git/types';
export type { DiffOp } from '../core/diff/ops';
export type { TextDiff, DiffSide } from '../core/diff/text-diff';
export type { WordPair, WordRange } from '../core/diff/words';

export interface FileDiffRequest {
  /** A workspace path (with several roots, the root's name first). */
  path: string;
  /** A commit (full or abbreviated oid: the file against the commit's first parent) or 'worktree' (uncommitted, against HEAD). */
  commit: string;
}

/** Whether a file's root has git data (so blame and file history can be offered), and its HEAD. */
export interface FileGitStatus {
  available: boolean;
  reason?: string;
  source?: 'clone' | 'folder';
  /** HEAD's oid (null in a repository without commits). */
  head?: string | null;
}

export interface FileHistoryStats extends JobStats {
  head: string | null;
  /** Commits read. */
  walked: number;
  shallow: boolean;
  /** Answered from the engine's memory (same HEAD, same path). */
  cached: boolean;
}

export interface BlameStats extends JobStats {
  cached: boolean;
}

/**
 * Git's results as plain data: the repository library's records, history and its streamed log,
 * a working tree's uncommitted changes, one file's diff, history and blame. The git adapters
 * (adapters/git) produce them and the worker boundary (worker/protocol-git.ts) carries them;
 * only types live here, so core, the adapters and the protocol share one definition.
 */
import type { DiffSide, TextDiff } from '../diff/text-diff';

// ---- the repository library (adapters/git/registry.ts, repos.ts) ---------------------------

/** One cloned repository or opened folder in the library (the "repos" IndexedDB store). */
export interface RepoRecord {
  id: string;
  /** Clone URL (no credentials), or a label such as the folder name for opened folders. */
  url: string;
  /** Short display name (last path segment of the URL, or the folder name). */
  name: string;
  /** Checked-out branch, or the tag/commit when HEAD is detached. */
  branch: string;
  /** Checked-out commit oid ('' for a folder without git). */
  commit: string;
  /** Bytes stored for this repository (working tree + .git for clones). */
  sizeBytes: number;
  /** Files in the working tree, .git excluded. */
  fileCount: number;
  /** ms since the epoch */
  clonedAt: number;
  lastFetchedAt: number;
  lastIndexedAt?: number;
  source: 'clone' | 'folder';
  /** Clone depth (0 = full history) reused by fetchUpdates. */
  depth?: number;
  /** The ref the user asked for, if any (else the remote's default branch was used). */
  ref?: string;
  /** CORS proxy used for the clone (a URL, not a secret), reused by fetchUpdates. */
  corsProxy?: string;
}

export interface StorageEstimate {
  /** Bytes this origin uses (navigator.storage.estimate), when the browser says. */
  usageBytes: number | null;
  quotaBytes: number | null;
  /** Bytes the library's clones take, by their records. */
  reposBytes: number;
  /** Whether the browser promised not to evict this origin's storage. */
  persisted: boolean | null;
}

// ---- history: a bounded log with changed files (adapters/git/history.ts) ---------------------

export type ChangeType = 'add' | 'modify' | 'delete';

export interface ChangedFile {
  path: string;
  type: ChangeType;
}

export interface HistoryCommit {
  oid: string;
  author: string;
  email: string;
  /** Author time, ms since the epoch. */
  date: number;
  message: string;
  parents: string[];
  changedFiles: ChangedFile[];
  /** True when the parent is beyond a shallow clone's depth: changedFiles is then empty. */
  parentMissing?: boolean;
}

export type UncommittedStatus = 'added' | 'modified' | 'deleted' | 'untracked';

export interface History {
  /** Current branch, or null when HEAD is detached. */
  branch: string | null;
  head: string | null;
  commits: HistoryCommit[];
  /** True when the log stopped at a shallow clone's boundary rather than the root commit. */
  shallow: boolean;
  uncommitted?: { path: string; status: UncommittedStatus }[];
}

// ---- the streamed log (adapters/git/log-walk.ts, history-log.ts) ---------------------------

export interface LogCommit {
  oid: string;
  parents: string[];
  author: string;
  email: string;
  /** Author time, ms since the epoch. */
  date: number;
  /** Committer time, seconds since the epoch (what the log is ordered by). */
  committed: number;
  message: string;
  /** Set when the parents were not walked: a shallow clone's boundary or a missing parent object. */
  parentMissing?: boolean;
}

export type LogRefresh = 'cache_hit' | 'incremental' | 'rewritten' | 'full';

/** What a history job streams: commits (a `reset` part replaces what came before) and the head. */
export type HistoryLogPart =
  | { kind: 'commits'; commits: LogCommit[]; reset: boolean; from: 'cache' | 'read' }
  | { kind: 'head'; head: string | null; branch: string | null; shallow: boolean };

// ---- a working tree's uncommitted changes (adapters/git/worktree-status.ts) -----------------

export interface UncommittedFile {
  path: string;
  status: UncommittedStatus;
}

// ---- one file's diff, history and blame (adapters/git/blob-at.ts, file-diff.ts, ...) ---------

/** A commit as one file's diff, history and blame read it (adapters/git/blob-at.ts). */
export interface CommitInfo {
  oid: string;
  parents: string[];
  author: string;
  email: string;
  /** Author time, ms since the epoch. */
  date: number;
  /** The message's first line. */
  summary: string;
  tree: string;
}

export type FileDiffStatus = 'added' | 'deleted' | 'modified' | 'unchanged' | 'parentMissing';

export interface FileDiffResult {
  path: string;
  /** What was asked: a full commit oid, or 'worktree'. */
  target: string;
  /** The commit shown (null for the working tree). */
  commit: Omit<CommitInfo, 'tree'> | null;
  /** What it is compared with: the first parent, or HEAD for the working tree (null: none, a root commit or an empty repository). */
  base: Omit<CommitInfo, 'tree'> | null;
  status: FileDiffStatus;
  before: DiffSide;
  after: DiffSide;
  /** The line and word diff when both sides are text (an absent side counts as empty). */
  diff: TextDiff | null;
}

export type FileChange = 'add' | 'modify' | 'delete';

export interface FileHistoryEntry extends Omit<CommitInfo, 'tree'> {
  change: FileChange;
  /** The path's blob after this commit (null: deleted) and in its first parent (null: absent). */
  blob: string | null;
  previousBlob: string | null;
  /** The parent was not fetched (a shallow clone): this commit may not be where the file began. */
  boundary?: boolean;
}

export interface BlameCommit {
  oid: string;
  author: string;
  email: string;
  date: number;
  summary: string;
  /** Past a shallow clone's boundary (or the walk's limit): lines may be older than this commit. */
  boundary?: boolean;
}

/** Lines [start, start + count) of the file at HEAD (0-based) came from `commits[commit]`, where they were lines origStart... */
export interface BlameRun {
  start: number;
  count: number;
  commit: number;
  origStart: number;
}

export interface BlameResult {
  path: string;
  head: string;
  /** The file at HEAD (the lines the runs describe). */
  text: string;
  lineCount: number;
  commits: BlameCommit[];
  runs: BlameRun[];
  /** Versions of the file diffed. */
  versions: number;
  shallow: boolean;
}

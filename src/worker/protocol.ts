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
import type { ExploreResult } from '../core/explore/types';
import type { QuarryErrorJSON } from '../core/errors';
import type { GrepFileResult, GrepRequest, HitRange } from '../core/grep/types';
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

// ---- opening a repository -------------------------------------------------------------

/** Where a repository comes from. Sent to the worker, which builds the FileSource there. */
export type RepoSpec =
  | { kind: 'demo' }
  /** A live folder (File System Access); the engine files it in the library and derives its key. */
  | { kind: 'handle'; name: string; handle: FileSystemDirectoryHandle }
  /**
   * A snapshot from `<input webkitdirectory>` or a dropped folder: cannot be re-read. Only the
   * paths cross; the worker pulls the bytes it needs through openRepo's `pull` callback (see
   * adapters/browser/files.ts for why File objects never cross).
   */
  | {
      kind: 'files';
      name: string;
      paths: string[];
      /** Paths sent ahead with stagePaths() (large folders). */ stageId?: string;
    }
  /** Plain text files (tests, the main-thread fallback, Node benchmarks). */
  | { kind: 'memory'; name: string; files: Record<string, string> }
  /** A repository cloned into the library (lightning-fs in IndexedDB): readable offline. */
  | { kind: 'git'; id: string; name: string }
  /** The folder `quarry serve --root DIR` exposes beside the app (adapters/browser/served-source.ts); opened only when the page names it. */
  | { kind: 'served'; name: string };

export type { PulledFile, PullFiles, SnapshotFile } from '../adapters/browser/files';
import type { PullFiles, SnapshotFile } from '../adapters/browser/files';

/** What the UI opens: like RepoSpec, but a snapshot keeps its File objects (on the main thread). */
export type OpenSpec =
  Exclude<RepoSpec, { kind: 'files' }> | { kind: 'files'; name: string; files: SnapshotFile[] };

/** A snapshot's path list crosses in slices of this many paths (strings clone fast: ~1 ms per 5,000). */
export const STAGE_SLICE_PATHS = 5000;

/** How a repository joins the workspace: it replaces every open root (default), or is added as one more root. */
export interface OpenOptions {
  add?: boolean;
}

export interface RepoStats extends JobStats {
  /** The repository's key, made by the engine: it names the repository in the address and its stored index. */
  key: string;
  /** The root's name in the workspace (paths are prefixed by it when several roots are open). */
  root: string;
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
  /** Set on the top-level entries of a workspace with several roots: the root's key. */
  root?: string;
}

/** One open root of the workspace. */
export interface RootInfo {
  key: string;
  /** Unique display name; with several roots, every path of this root starts with `name/`. */
  name: string;
  stats: RepoStats;
  indexStatus: IndexStatus;
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

export type { LinkTarget, MarkdownDocument, MdBlock, MdInline } from './markdown-tree';
import type { MarkdownDocument } from './markdown-tree';

/** readBytes refuses files larger than this (the viewer's images; a picture over 16 MB is not worth a tab's memory). */
export const READ_BYTES_MAX_BYTES = 16 * 1024 * 1024;

/** A file's raw bytes (readBytes: images for the viewer, including files the walk skipped as binary). */
export interface FileBytes {
  path: string;
  bytes: Uint8Array;
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
  /** The first root (null when nothing is open). */
  repo: RepoStats | null;
  roots: RootInfo[];
}

// ---- the code index (chunks + BM25 + trigrams), Ranked mode, related code ------------------

export type RefreshMode = 'cache_hit' | 'incremental' | 'full';

export interface IndexRequest {
  /** The key of the root to index (RepoStats.key); every root, one after the other, when absent. */
  root?: string;
  /** Rebuild from scratch, ignoring the stored index. */
  force?: boolean;
}

export interface IndexStats extends JobStats {
  refreshMode: RefreshMode;
  filesScanned: number;
  chunksIndexed: number;
  filesChanged: number;
  filesRemoved: number;
  /** Date.now() when the build finished. */
  builtAt: number;
  /** Set when the index could not be saved (it still works until the page is closed). */
  saveError?: string;
  /** Set when the text budget (INDEX_MAX_TEXT_BYTES) left files out: how many (text search scans them). */
  overBudget?: number;
  /** What the ranked index covers: parsed, as blocks (no parser), text only (core's Coverage). */
  coverage?: Coverage;
}

export type { Coverage } from '../core/rank/build';
import type { Coverage } from '../core/rank/build';

/** What the status line shows. */
export interface IndexStatus {
  state: 'none' | 'building' | 'ready' | 'failed';
  /** The last completed refresh (kept while a new one runs). */
  last: IndexStats | null;
  error?: QuarryErrorJSON;
}

// ---- semantic search ----------------------------------------------------------------------

export interface SemanticStats extends JobStats {
  /** view texts sent to the model in this run (the rest were stored) */
  embedded: number;
  chunks: number;
  vectors: number;
  /** bytes the vectors take (int8 + a scale each) */
  bytes: number;
}

export interface SemanticStatus {
  /** unavailable: no model in this build; off: not loaded yet; loading: the model; embedding: the chunks */
  state: 'unavailable' | 'off' | 'loading' | 'embedding' | 'ready' | 'failed';
  vectors: number;
  /** chunks of the ready code indexes (what embedding covers) */
  chunks: number;
  last?: SemanticStats;
  error?: QuarryErrorJSON;
}

/** Arguments of the engine's `semantic_search` tool (Semantic mode, and Ranked once the model is loaded). */
export interface SemanticRequest extends RankedRequest {
  /** 'semantic': vectors only; 'hybrid' (default): fused with the Ranked list */
  type?: 'semantic' | 'hybrid';
}

/** Why a Semantic hit matched: core's SemanticWhy (lexical terms, similarity, ranks). */
export type { SemanticWhy } from '../core/semantic/search';
import type { SemanticWhy } from '../core/semantic/search';

export interface SemanticHitView extends ChunkRef {
  score: number;
  why: SemanticWhy;
  lines: Array<SnippetLine | null>;
}

export interface SemanticResult {
  hits: SemanticHitView[];
  type: 'semantic' | 'hybrid';
  /** query words (highlighted in the snippets) */
  words: string[];
  elapsedMs: number;
}

/** Arguments of the engine's `ranked_view` tool (Ranked mode). */
export interface RankedRequest {
  query: string;
  limit?: number;
  include?: string[];
  exclude?: string[];
  extensions?: string[];
}

/** One score component of a Ranked hit: core's RankedComponent (plain data). */
export type { RankedComponent } from '../core/rank/ranked';
import type { RankedComponent } from '../core/rank/ranked';

export interface SnippetLine {
  line: number;
  text: string;
  /** UTF-16 ranges of matched words in `text`. */
  ranges: HitRange[];
}

/** Where a chunk is: core's Chunk fields, nothing else of the index crosses. */
export type { Chunk as ChunkRef } from '../core/chunk/types';
import type { Chunk as ChunkRef } from '../core/chunk/types';

export interface RankedHitView extends ChunkRef {
  score: number;
  exactSymbol: boolean;
  components: RankedComponent[];
  /** what the score was multiplied by for the chunk's kind, file role and being a declaration (1: nothing) */
  prior: number;
  /** the parts of the prior below 1, as words: "key", "test file", "declaration" */
  discounts: string[];
  /** A few lines of the chunk (its first line and the first matching lines), a null entry marks a gap. */
  lines: Array<SnippetLine | null>;
}

export interface RankedResult {
  hits: RankedHitView[];
  /** Query words after identifier splitting and a sentence's stopwords ("getUserById" -> get, user, by, id; "user by id" -> user, id). */
  words: string[];
  elapsedMs: number;
}

export interface RelatedHitView extends ChunkRef {
  score: number;
  sharedTerms: string[];
  /** why it is related beyond shared words: "same class", "same file", "same folder", "same kind", "similar name", "contains others" */
  reasons: string[];
}

export interface RelatedResult {
  seed: ChunkRef;
  results: RelatedHitView[];
}

// ---- git: clone, fetch updates, the repository library, history ----------------------------

import type { RepoRecord } from '../adapters/git/registry';

/** A library entry: a clone or an opened folder (with its handle while Recent keeps it). */
export interface LibraryEntry extends RepoRecord {
  /** The key the repository opens under (made by the engine). */
  key: string;
  handle?: FileSystemDirectoryHandle;
  /** When the folder was last opened (ms since the epoch). */
  openedAt?: number;
}
export type { StorageEstimate } from '../adapters/git/repos';
import type { StorageEstimate } from '../adapters/git/repos';
export type { History, HistoryCommit, ChangedFile } from '../adapters/git/history';
import type { History } from '../adapters/git/history';

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

export type { ExploreResult };

export type {
  DefinitionsResult,
  OutlineNode,
  ReferenceFile,
  ReferencesResult,
  SymbolDefinition,
  WorkspaceSymbolHit,
} from '../core/nav/types';
import type { DefinitionsResult, OutlineNode, ReferenceFile, WorkspaceSymbolHit } from '../core/nav/types';

/** How a references job ended: lines counted (a lower bound when limitHit). */
export interface ReferencesStats extends JobStats {
  total: number;
  limitHit: boolean;
}

/** A name to look up, and the workspace path of the file it was clicked in ('' from nowhere). */
export interface NavRequest {
  name: string;
  path?: string;
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

export type { LogCommit, LogRefresh } from '../adapters/git/history-log';
import type { HistoryLogPart, LogRefresh } from '../adapters/git/history-log';
export type { UncommittedFile } from '../adapters/git/worktree-status';
import type { UncommittedFile } from '../adapters/git/worktree-status';
import type { ChangedFile } from '../adapters/git/history';

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

export type { FileDiffResult, FileDiffStatus } from '../adapters/git/file-diff';
import type { FileDiffResult } from '../adapters/git/file-diff';
export type { FileHistoryEntry, FileChange } from '../adapters/git/file-history';
import type { FileHistoryEntry } from '../adapters/git/file-history';
export type { BlameResult, BlameCommit, BlameRun } from '../adapters/git/blame';
import type { BlameResult } from '../adapters/git/blame';
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

/** The engine's remote surface (engine.ts implements it, Comlink exposes it). */
export interface EngineApi {
  ping(): Promise<Outcome<EngineInfo>>;
  /**
   * Open a repository as the workspace, or (open.add) as one more root. `pull` is required for a
   * `files` snapshot: the worker asks the main thread for bytes through it.
   */
  openRepo(
    jobId: JobId,
    spec: RepoSpec,
    onEvent: JobCallback<never>,
    pull?: PullFiles,
    open?: OpenOptions,
  ): Promise<Outcome<JobEnd<never, RepoStats>>>;
  /** Remove one root (by key); the others and their indexes stay. */
  closeRoot(key: string): Promise<Outcome<boolean>>;
  roots(): Promise<Outcome<RootInfo[]>>;
  search(
    jobId: JobId,
    request: GrepRequest,
    onEvent: JobCallback<GrepFileResult>,
  ): Promise<Outcome<SearchEnd>>;
  cancel(jobId: JobId): Promise<Outcome<boolean>>;
  /** Send part of a snapshot's path list ahead of openRepo({kind:'files', stageId}); returns the staged count. */
  stagePaths(stageId: string, paths: string[]): Promise<Outcome<number>>;
  listDir(path: string): Promise<Outcome<TreeEntry[]>>;
  quickOpen(query: string, limit: number): Promise<Outcome<QuickOpenHit[]>>;
  readFile(path: string, highlight?: FileHighlight): Promise<Outcome<FileContent>>;
  /** A file's bytes as they are (an image), text or binary; refused over `maxBytes` (at most READ_BYTES_MAX_BYTES, the default). */
  readBytes(path: string, maxBytes?: number): Promise<Outcome<FileBytes>>;
  /** A Markdown file as a tree of plain data for the viewer to render as text-only markup (markdown-tree.ts). */
  readMarkdown(path: string): Promise<Outcome<MarkdownDocument>>;
  skipped(offset: number, limit: number): Promise<Outcome<{ total: number; items: Skipped[] }>>;
  /**
   * Run a tool on the open workspace: the contracts of core/tools (codebase_search, get_routes...)
   * and the engine's own (ranked_view, semantic_search, related_view, flag_inventory); args and result are plain data.
   */
  callTool(name: string, args: unknown): Promise<Outcome<unknown>>;
  /** Build or refresh the code index of one root or of all (each stored under its root's key); progress phases stream as events. */
  indexRepo(
    jobId: JobId,
    request: IndexRequest,
    onEvent: JobCallback<never>,
  ): Promise<Outcome<JobEnd<never, IndexStats>>>;
  indexStatus(): Promise<Outcome<IndexStatus>>;
  /** Load the embedding model and embed every open root's chunks (only what is not stored yet); progress phases 'model' then 'embedding'. */
  enableSemantic(jobId: JobId, onEvent: JobCallback<never>): Promise<Outcome<JobEnd<never, SemanticStats>>>;
  semanticStatus(): Promise<Outcome<SemanticStatus>>;
  /** Clone into the library (progress streams isomorphic-git's phases); nothing is registered unless it completes. */
  cloneRepo(
    jobId: JobId,
    request: CloneRequest,
    onEvent: JobCallback<never>,
  ): Promise<Outcome<JobEnd<never, GitJobStats>>>;
  /** Fetch + fast checkout of a cloned repository; changed paths come back for the incremental re-index. */
  fetchRepo(
    jobId: JobId,
    id: string,
    auth: GitAuth,
    onEvent: JobCallback<never>,
  ): Promise<Outcome<JobEnd<never, GitJobStats>>>;
  /** Fetch `by` more commits of a shallow clone's history (History's "fetch more"). */
  deepenRepo(
    jobId: JobId,
    id: string,
    by: number,
    auth: GitAuth,
    onEvent: JobCallback<never>,
  ): Promise<Outcome<JobEnd<never, GitJobStats>>>;
  /** The one registry: clones and opened folders (folders with their handles), newest first. */
  library(): Promise<Outcome<LibraryInfo>>;
  /** Recent: opened folders with their handles, most recently opened first (loads no git code). */
  recentFolders(): Promise<Outcome<LibraryEntry[]>>;
  /** Remove a library entry; a clone's stored files, a folder's handle and the stored index are freed. */
  deleteRepo(id: string): Promise<Outcome<boolean>>;
  /** History of a root (a clone, or an opened folder that contains .git). */
  history(request: HistoryRequest): Promise<Outcome<HistoryView>>;
  /** History's log, streamed (HistoryJobPart); paints from the stored log, then reads only what is new; progress phase 'git'. */
  historyLog(
    jobId: JobId,
    request: HistoryLogRequest,
    onEvent: JobCallback<HistoryJobPart>,
  ): Promise<Outcome<JobEnd<HistoryJobPart, HistoryLogStats>>>;
  /** One commit's changed files (read when it is expanded, then kept). */
  commitChanges(request: CommitChangesRequest): Promise<Outcome<CommitChangesView>>;
  /** The Explore view: explore's report (its tool arguments), each batch the report so far as an analyzer finishes; the last result is the whole report. */
  explore(
    jobId: JobId,
    args: Record<string, unknown>,
    onEvent: JobCallback<ExploreResult>,
  ): Promise<Outcome<JobEnd<ExploreResult>>>;
  /** Whether the file's root has git data (blame, file history), and its HEAD. */
  fileGitStatus(path: string): Promise<Outcome<FileGitStatus>>;
  /** A file's diff in a commit against its first parent, or of the working tree against HEAD: both sides and the line and word diff. */
  fileDiff(request: FileDiffRequest): Promise<Outcome<FileDiffResult>>;
  /** The commits that changed a file (first parents from HEAD), streamed newest first; kept per HEAD and path. */
  fileHistory(
    jobId: JobId,
    path: string,
    onEvent: JobCallback<FileHistoryEntry>,
  ): Promise<Outcome<JobEnd<FileHistoryEntry, FileHistoryStats>>>;
  /** Blame of the file at HEAD (progress phase 'git'); the one result is the BlameResult; kept per HEAD and path. */
  blame(
    jobId: JobId,
    path: string,
    onEvent: JobCallback<BlameResult>,
  ): Promise<Outcome<JobEnd<BlameResult, BlameStats>>>;
  /** Navigation (search-based): a name's definitions ranked for the file it was clicked in, its references, a file's outline, workspace symbols. */
  definitions(request: NavRequest): Promise<Outcome<DefinitionsResult>>;
  /** References stream file by file (definition files are not sent first: the panel orders them). */
  references(
    jobId: JobId,
    request: NavRequest,
    onEvent: JobCallback<ReferenceFile>,
  ): Promise<Outcome<JobEnd<ReferenceFile, ReferencesStats>>>;
  outline(path: string): Promise<Outcome<OutlineNode[]>>;
  workspaceSymbols(query: string, limit: number): Promise<Outcome<WorkspaceSymbolHit[]>>;
}

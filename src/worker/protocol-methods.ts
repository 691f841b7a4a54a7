/**
 * The engine's method table: every method once, by service, with how it crosses the boundary
 * (re-exported by protocol.ts). The contracts are written here and nowhere else:
 *   - EngineCalls: request/response methods, `(args) => result`;
 *   - EngineJobs: long calls, their arguments, the items they stream and how they end;
 *   - ENGINE_METHODS: each method's service and kind, from which the engine's edge is derived
 *     (engine/api.ts wraps every handler by kind) and EngineApi, the remote surface Comlink
 *     exposes, is typed (a job is `(jobId, onEvent, ...args)`).
 */
import type { GrepFileResult, GrepRequest } from '../core/grep/types';
import type { Skipped } from '../core/walk/policy';
import type { PullFiles } from '../core/source/pulled-files';
import type {
  DefinitionsResult,
  EngineInfo,
  ExploreResult,
  FileBytes,
  FileContent,
  FileHighlight,
  IndexRequest,
  IndexStats,
  IndexStatus,
  MarkdownDocument,
  NavRequest,
  OpenOptions,
  OutlineNode,
  QuickOpenHit,
  ReconcileStats,
  ReferenceFile,
  ReferencesStats,
  RepoSpec,
  RepoStats,
  RootInfo,
  SearchEnd,
  SemanticStats,
  SemanticStatus,
  SyntaxWindow,
  TreeEntry,
  WorkspaceSymbolHit,
} from './protocol-types';
import type {
  BlameResult,
  BlameStats,
  CloneRequest,
  CommitChangesRequest,
  CommitChangesView,
  FileDiffRequest,
  FileDiffResult,
  FileGitStatus,
  FileHistoryEntry,
  FileHistoryStats,
  GitAuth,
  GitJobStats,
  HistoryJobPart,
  HistoryLogRequest,
  HistoryLogStats,
  HistorySearchStats,
  HistoryRequest,
  HistoryView,
  LibraryEntry,
  LibraryInfo,
} from './protocol-git';
import type { HistoryResult, QueryOptions, SymbolSearchResult } from '../core/query/results';
import type { JobCallback, JobEnd, JobId, Outcome } from './protocol-jobs';

/**
 * How a method crosses: `call` answers at once; `foreground` is one a person waits on (the
 * index build gives way while it runs); `job` streams under a job id and can be cancelled;
 * `foregroundJob` is a job a person waits on.
 */
export type MethodKind = 'call' | 'foreground' | 'job' | 'foregroundJob';

/** Every method, by service. */
export const ENGINE_METHODS = {
  repos: {
    ping: 'call',
    openRepo: 'job',
    reconcileRepo: 'job',
    closeRoot: 'call',
    roots: 'call',
    stagePaths: 'call',
    cancel: 'call',
    listDir: 'foreground',
    quickOpen: 'foreground',
    readFile: 'foreground',
    readBytes: 'foreground',
    readMarkdown: 'foreground',
    skipped: 'call',
  },
  search: { search: 'foregroundJob' },
  index: {
    indexRepo: 'job',
    indexStatus: 'call',
    enableSemantic: 'job',
    semanticStatus: 'call',
    resetSemanticModel: 'call',
  },
  tools: { callTool: 'call', explore: 'job' },
  viewer: { syntax: 'foreground' },
  nav: {
    definitions: 'foreground',
    references: 'foregroundJob',
    outline: 'foreground',
    workspaceSymbols: 'foreground',
    symbolSearch: 'foreground',
  },
  git: {
    cloneRepo: 'job',
    fetchRepo: 'job',
    deepenRepo: 'job',
    library: 'call',
    recentFolders: 'call',
    deleteRepo: 'call',
    history: 'foreground',
    historyLog: 'job',
    historySearch: 'job',
    commitChanges: 'foreground',
    fileGitStatus: 'call',
    fileDiff: 'foreground',
    fileHistory: 'job',
    blame: 'job',
  },
} as const satisfies Record<string, Record<string, MethodKind>>;

export type EngineService = keyof typeof ENGINE_METHODS;

/** Request/response methods. */
export interface EngineCalls {
  ping(): EngineInfo;
  /** Remove one root (by key); the others and their indexes stay. */
  closeRoot(key: string): boolean;
  roots(): RootInfo[];
  /** Send part of a snapshot's path list ahead of openRepo({kind:'files', stageId}); returns the staged count. */
  stagePaths(stageId: string, paths: string[]): number;
  cancel(jobId: JobId): boolean;
  listDir(path: string): TreeEntry[];
  /** Fuzzy file names (limit: default 50, at most 500). */
  quickOpen(query: string, limit?: number): QuickOpenHit[];
  readFile(path: string, highlight?: FileHighlight): FileContent;
  /** A file's bytes as they are (an image), text or binary; refused over `maxBytes` (at most READ_BYTES_MAX_BYTES, the default). */
  readBytes(path: string, maxBytes?: number): FileBytes;
  /** A Markdown file as a tree of plain data for the viewer to render as text-only markup (markdown-tree.ts). */
  readMarkdown(path: string): MarkdownDocument;
  /** What the walk and the index left out, a page at a time (default offset 0, limit 500). */
  skipped(offset?: number, limit?: number): { total: number; items: Skipped[] };
  indexStatus(): IndexStatus;
  semanticStatus(): SemanticStatus;
  /** The host's embedding model changed (one picked, or the built-in one put back): the loaded one is dropped, semantic search is off until enabled again. */
  resetSemanticModel(): SemanticStatus;
  /**
   * Run a tool on the open workspace: the contracts of core/tools (codebase_search, get_routes...)
   * and the engine's own (ranked_view, semantic_search, related_view, flag_inventory); args and result are plain data.
   */
  callTool(name: string, args: unknown): unknown;
  /**
   * The exact colouring of lines `fromLine`..`toLine` of a file, from its grammar's highlight
   * queries (core/highlight), or null where there is none (no grammar or query, too large):
   * the viewer then colours by language family.
   */
  syntax(path: string, fromLine: number, toLine: number): SyntaxWindow | null;
  definitions(request: NavRequest): DefinitionsResult;
  outline(path: string): OutlineNode[];
  workspaceSymbols(query: string, limit?: number): WorkspaceSymbolHit[];
  /** A `type:symbol` query of the query language (core/query), with the box's switches. */
  symbolSearch(query: string, options: QueryOptions): SymbolSearchResult;
  /** The one registry: clones and opened folders (folders with their handles), newest first. */
  library(): LibraryInfo;
  /** Recent: opened folders with their handles, most recently opened first (loads no git code). */
  recentFolders(): LibraryEntry[];
  /** Remove a library entry; a clone's stored files, a folder's handle and the stored index are freed. */
  deleteRepo(id: string): boolean;
  /** History of a root (a clone, or an opened folder that contains .git). */
  history(request?: HistoryRequest): HistoryView;
  /** One commit's changed files (read when it is expanded, then kept). */
  commitChanges(request: CommitChangesRequest): CommitChangesView;
  /** Whether the file's root has git data (blame, file history), and its HEAD. */
  fileGitStatus(path: string): FileGitStatus;
  /** A file's diff in a commit against its first parent, or of the working tree against HEAD. */
  fileDiff(request: FileDiffRequest): FileDiffResult;
}

/** A long call: its arguments, the items it streams, how it ends. */
interface JobSig<A extends unknown[], R, E extends JobEnd<R, never> | JobEnd<R>> {
  args: A;
  item: R;
  end: E;
}

/** Long calls (a job id and an event callback come first on the wire). */
export interface EngineJobs {
  /**
   * Open a repository as the workspace, or (open.add) as one more root. `pull` is required for a
   * `files` snapshot: the worker asks the main thread for bytes through it.
   */
  openRepo: JobSig<[spec: RepoSpec, pull?: PullFiles, open?: OpenOptions], never, JobEnd<never, RepoStats>>;
  /**
   * Read a root opened from its stored listing (stats.fromListing) again in the background, switch
   * it to what the folder holds and say what differs; progress is files checked of the listing's.
   */
  reconcileRepo: JobSig<[key: string], never, JobEnd<never, ReconcileStats>>;
  search: JobSig<[request: GrepRequest], GrepFileResult, SearchEnd>;
  /** Build or refresh the code index of one root or of all (each stored under its root's key). */
  indexRepo: JobSig<[request: IndexRequest], never, JobEnd<never, IndexStats>>;
  /** Load the embedding model and embed every open root's chunks; progress phases 'model' then 'embedding'. */
  enableSemantic: JobSig<[], never, JobEnd<never, SemanticStats>>;
  /** explore's report, each batch the report so far as an analyzer finishes. */
  explore: JobSig<[args: Record<string, unknown>], ExploreResult, JobEnd<ExploreResult>>;
  /** References stream file by file. */
  references: JobSig<[request: NavRequest], ReferenceFile, JobEnd<ReferenceFile, ReferencesStats>>;
  /** Clone into the library; nothing is registered unless it completes. */
  cloneRepo: JobSig<[request: CloneRequest], never, JobEnd<never, GitJobStats>>;
  /** Fetch + fast checkout of a cloned repository. */
  fetchRepo: JobSig<[id: string, auth?: GitAuth], never, JobEnd<never, GitJobStats>>;
  /** Fetch `by` more commits (default 50) of a shallow clone's history. */
  deepenRepo: JobSig<[id: string, by?: number, auth?: GitAuth], never, JobEnd<never, GitJobStats>>;
  /** History's log, streamed; paints from the stored log, then reads only what is new. */
  historyLog: JobSig<[request?: HistoryLogRequest], HistoryJobPart, JobEnd<HistoryJobPart, HistoryLogStats>>;
  /** A `type:commit` or `type:diff` query over the roots' logs, results streamed as found (core/query/results.ts). */
  historySearch: JobSig<
    [query: string, options: QueryOptions],
    HistoryResult,
    JobEnd<HistoryResult, HistorySearchStats>
  >;
  /** The commits that changed a file, newest first. */
  fileHistory: JobSig<[path: string], FileHistoryEntry, JobEnd<FileHistoryEntry, FileHistoryStats>>;
  /** Blame of the file at HEAD; the one result is the BlameResult. */
  blame: JobSig<[path: string], BlameResult, JobEnd<BlameResult, BlameStats>>;
}

type TableKeys = { [S in EngineService]: keyof (typeof ENGINE_METHODS)[S] }[EngineService];
type JobKeys = {
  [S in EngineService]: {
    [K in keyof (typeof ENGINE_METHODS)[S]]: (typeof ENGINE_METHODS)[S][K] extends 'job' | 'foregroundJob'
      ? K
      : never;
  }[keyof (typeof ENGINE_METHODS)[S]];
}[EngineService];
/** Compile-time: the table names every contract once, and a job is a job in both. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const tableMatches: [Same<TableKeys, keyof EngineCalls | keyof EngineJobs>, Same<JobKeys, keyof EngineJobs>] =
  [true, true];
void tableMatches;

/** The remote surface Comlink exposes: every method resolves with an Outcome. */
export type EngineApi = {
  [K in keyof EngineCalls]: (
    ...args: Parameters<EngineCalls[K]>
  ) => Promise<Outcome<Awaited<ReturnType<EngineCalls[K]>>>>;
} & {
  [K in keyof EngineJobs]: (
    jobId: JobId,
    onEvent: JobCallback<EngineJobs[K]['item']>,
    ...args: EngineJobs[K]['args']
  ) => Promise<Outcome<EngineJobs[K]['end']>>;
};

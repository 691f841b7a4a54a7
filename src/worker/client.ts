/**
 * The main-thread side of the worker boundary: turns Outcomes back into values or rebuilt
 * QuarryErrors, gives every long call a job id, streams batches to a callback, and owns
 * cancellation. A job that is still running `graceMs` after cancel() gets the worker
 * terminated and a fresh one started; every call still pending is rejected with a clear
 * error (the worker cannot answer them any more). The same client drives a Web Worker, the
 * main-thread fallback and a Node worker_threads Worker (tests, benchmarks) through an
 * EngineTransport.
 *
 * It lives in worker/ rather than ui/ because it has no React in it and Node benchmarks use it.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import type { GrepFileResult, GrepRequest } from '../core/grep/types';
import type { Skipped } from '../core/walk/policy';
import { snapshotPuller, type PullFiles } from '../adapters/browser/files';
import { STAGE_SLICE_PATHS } from './protocol';
import type {
  BlameResult,
  BlameStats,
  FileDiffRequest,
  FileDiffResult,
  FileGitStatus,
  FileHistoryEntry,
  FileHistoryStats,
  DefinitionsResult,
  NavRequest,
  OutlineNode,
  ReferenceFile,
  ReferencesStats,
  WorkspaceSymbolHit,
  CloneRequest,
  GitAuth,
  GitJobStats,
  HistoryRequest,
  HistoryView,
  HistoryJobPart,
  HistoryLogRequest,
  HistoryLogStats,
  CommitChangesRequest,
  CommitChangesView,
  LibraryEntry,
  LibraryInfo,
  EngineApi,
  ExploreResult,
  EngineInfo,
  FileBytes,
  FileContent,
  MarkdownDocument,
  FileHighlight,
  IndexRequest,
  IndexStats,
  IndexStatus,
  JobCallback,
  JobEnd,
  JobEvent,
  JobId,
  JobStats,
  OpenOptions,
  OpenSpec,
  Outcome,
  Progress,
  QuickOpenHit,
  RankedRequest,
  SemanticRequest,
  SemanticResult,
  SemanticStats,
  SemanticStatus,
  SyntaxWindow,
  RankedResult,
  RelatedResult,
  RepoStats,
  RootInfo,
  SearchEnd,
  TreeEntry,
} from './protocol';

export interface EngineTransport {
  api: EngineApi;
  /** Wrap a callback so it can cross the boundary (Comlink.proxy; identity on the main thread). */
  proxy<T extends object>(value: T): T;
  /** Mark a value's buffers as transferred when it crosses (Comlink.transfer; identity on the main thread). */
  transfer?<T>(value: T, transferables: Transferable[]): T;
  terminate(): void;
  host: EngineInfo['host'];
}

export type TransportFactory = () => EngineTransport | Promise<EngineTransport>;

export interface EngineClientOptions {
  /** How long a cancelled job may keep running before the worker is restarted. */
  graceMs?: number;
  /** Called after a restart, with the error pending calls were rejected with. */
  onRestart?: (reason: QuarryError) => void;
}

export const DEFAULT_CANCEL_GRACE_MS = 2000;
/**
 * Git jobs stop at the next network read or progress event, but a checkout that has started is
 * finished on purpose (a half-rewritten tree is worse): never restart the worker under one.
 */
const GIT_JOB_GRACE = { graceMs: 5 * 60_000 };

export interface Job<E> {
  id: JobId;
  done: Promise<E>;
  /** Ask the engine to stop; the job then ends normally with ending 'cancelled'. */
  cancel(): void;
}

interface Pending {
  reject(err: QuarryError): void;
}

export class EngineClient {
  private ready: Promise<EngineTransport>;
  private current: EngineTransport | null = null;
  private pending = new Set<Pending>();
  private running = new Map<JobId, { graceTimer: ReturnType<typeof setTimeout> | null; graceMs?: number }>();
  private seq = 0;
  private disposed = false;
  /** Incremented on every restart. */
  generation = 0;
  private restartListeners = new Set<(reason: QuarryError) => void>();

  /** Called after every restart (the new engine is empty: reopen what was open); returns an unsubscribe. */
  addRestartListener(listener: (reason: QuarryError) => void): () => void {
    this.restartListeners.add(listener);
    return () => void this.restartListeners.delete(listener);
  }

  constructor(
    private readonly factory: TransportFactory,
    private readonly options: EngineClientOptions = {},
  ) {
    this.ready = this.start();
  }

  private start(): Promise<EngineTransport> {
    return Promise.resolve()
      .then(() => this.factory())
      .then((t) => {
        this.current = t;
        return t;
      });
  }

  /** Where the engine runs, once started. */
  async host(): Promise<EngineInfo['host']> {
    return (await this.ready).host;
  }

  private call<T>(invoke: (api: EngineApi, t: EngineTransport) => Promise<Outcome<T>>): Promise<T> {
    if (this.disposed) return Promise.reject(new QuarryError('Cancelled', 'The engine was shut down'));
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { reject };
      this.pending.add(entry);
      this.ready
        .then((t) => invoke(t.api, t))
        .then(
          (result) => {
            if (!this.pending.delete(entry)) return; // already rejected by a restart
            if (result.ok) resolve(result.value);
            else reject(QuarryError.fromJSON(result.error));
          },
          (err) => {
            if (this.pending.delete(entry)) reject(toQuarryError(err));
          },
        );
    });
  }

  /** A long call under a fresh job id (protected: test clients add jobs of their own). */
  protected job<R, E extends JobEnd<R, JobStats>>(
    kind: string,
    invoke: (api: EngineApi, id: JobId, cb: JobCallback<R>, t: EngineTransport) => Promise<Outcome<E>>,
    handlers: { onBatch?: (items: R[]) => void; onProgress?: (p: Progress) => void },
    options: { graceMs?: number } = {},
  ): Job<E> {
    const id = `${kind}-${++this.seq}-${Date.now().toString(36)}`;
    let live = true;
    const onEvent = (event: JobEvent<R>) => {
      if (!live) return;
      if (event.type === 'batch') handlers.onBatch?.(event.data);
      else handlers.onProgress?.(event.data);
    };
    this.running.set(id, { graceTimer: null, graceMs: options.graceMs });
    const done = this.call<E>((api, t) => invoke(api, id, t.proxy(onEvent) as JobCallback<R>, t))
      .then((end) => {
        if (end.results.length) handlers.onBatch?.(end.results);
        return end;
      })
      .finally(() => {
        live = false;
        const r = this.running.get(id);
        if (r?.graceTimer) clearTimeout(r.graceTimer);
        this.running.delete(id);
      });
    return { id, done, cancel: () => this.cancel(id) };
  }

  /** Open a repository as the workspace, or with `{add: true}` as one more root. */
  openRepo(
    spec: OpenSpec,
    onProgress?: (p: Progress) => void,
    open: OpenOptions = {},
  ): Job<JobEnd<never, RepoStats>> {
    return this.job<never, JobEnd<never, RepoStats>>(
      'open',
      async (api, id, cb, t) => {
        if (spec.kind !== 'files') return api.openRepo(id, cb, spec, undefined, open);
        // A snapshot: only the paths cross; the worker pulls bytes through `pull`, which reads
        // the File objects here with streams and transfers the ArrayBuffers (never a File clone).
        const read = snapshotPuller(spec.files);
        const pull: PullFiles = async (paths, maxBytes) => {
          const files = await read(paths, maxBytes);
          const buffers = files.flatMap((f) => (f.bytes ? [f.bytes] : []));
          return t.transfer ? t.transfer(files, buffers) : files;
        };
        const paths = spec.files.map((f) => f.path);
        if (paths.length <= STAGE_SLICE_PATHS)
          return api.openRepo(id, cb, { kind: 'files', name: spec.name, paths }, t.proxy(pull), open);
        for (let i = 0; i < paths.length; i += STAGE_SLICE_PATHS) {
          const staged = await api.stagePaths(id, paths.slice(i, i + STAGE_SLICE_PATHS));
          if (!staged.ok) return staged;
        }
        return api.openRepo(
          id,
          cb,
          { kind: 'files', name: spec.name, paths: [], stageId: id },
          t.proxy(pull),
          open,
        );
      },
      { onProgress },
    );
  }

  search(request: GrepRequest, onBatch?: (files: GrepFileResult[]) => void): Job<SearchEnd> {
    return this.job<GrepFileResult, SearchEnd>('search', (api, id, cb) => api.search(id, cb, request), {
      onBatch,
    });
  }

  /** Remove one root of the workspace (by key); the others stay open with their indexes. */
  closeRoot(key: string): Promise<boolean> {
    return this.call((api) => api.closeRoot(key));
  }
  roots(): Promise<RootInfo[]> {
    return this.call((api) => api.roots());
  }

  /** Build or refresh the code index of one root (request.root) or every root; progress phases stream to `onProgress`. */
  indexRepo(request: IndexRequest, onProgress?: (p: Progress) => void): Job<JobEnd<never, IndexStats>> {
    return this.job<never, JobEnd<never, IndexStats>>(
      'index',
      (api, id, cb) => api.indexRepo(id, cb, request),
      { onProgress },
    );
  }
  indexStatus(): Promise<IndexStatus> {
    return this.call((api) => api.indexStatus());
  }
  /** Ranked mode: the engine's `ranked_view` tool (core's `ranked_search` ranking, in the view's shape). */
  rankedSearch(request: RankedRequest): Promise<RankedResult> {
    return this.callTool<RankedResult>('ranked_view', request);
  }
  /** Load the embedding model and embed the open roots' chunks; phases 'model' (bytes) then 'embedding' (views). */
  enableSemantic(onProgress?: (p: Progress) => void): Job<JobEnd<never, SemanticStats>> {
    return this.job<never, JobEnd<never, SemanticStats>>(
      'semantic',
      (api, id, cb) => api.enableSemantic(id, cb),
      { onProgress },
    );
  }
  semanticStatus(): Promise<SemanticStatus> {
    return this.call((api) => api.semanticStatus());
  }
  /** The Explore view's report: `onUpdate` gets the report so far each time an analyzer finishes. */
  explore(
    args: Record<string, unknown>,
    onUpdate?: (report: ExploreResult) => void,
  ): Job<JobEnd<ExploreResult>> {
    return this.job<ExploreResult, JobEnd<ExploreResult>>(
      'explore',
      (api, id, cb) => api.explore(id, cb, args),
      {
        onBatch: (items) => items.forEach((r) => onUpdate?.(r)),
      },
    );
  }
  /** Semantic mode (type 'semantic') and Ranked once the model is loaded (type 'hybrid'): the engine's `semantic_search` tool. */
  semanticSearch(request: SemanticRequest): Promise<SemanticResult> {
    return this.callTool<SemanticResult>('semantic_search', request);
  }
  /** The Related panel: the engine's `related_view` tool (core's `related_code` ranking, with find_related's argument rules). */
  related(path: string, line: number, limit = 20): Promise<RelatedResult> {
    return this.callTool<RelatedResult>('related_view', { path, line, limit });
  }

  /** Clone into the library; isomorphic-git's phases stream to `onProgress` (phase 'git', label = its phase). */
  cloneRepo(request: CloneRequest, onProgress?: (p: Progress) => void): Job<JobEnd<never, GitJobStats>> {
    return this.job<never, JobEnd<never, GitJobStats>>(
      'clone',
      (api, id, cb) => api.cloneRepo(id, cb, request),
      { onProgress },
      GIT_JOB_GRACE,
    );
  }
  /** Fetch updates for a cloned repository (fetch + fast checkout). */
  fetchRepo(
    libraryId: string,
    auth: GitAuth = {},
    onProgress?: (p: Progress) => void,
  ): Job<JobEnd<never, GitJobStats>> {
    return this.job<never, JobEnd<never, GitJobStats>>(
      'fetch',
      (api, id, cb) => api.fetchRepo(id, cb, libraryId, auth),
      { onProgress },
      GIT_JOB_GRACE,
    );
  }
  /** Fetch `by` more commits of a shallow clone's history. */
  deepenRepo(
    libraryId: string,
    by = 50,
    auth: GitAuth = {},
    onProgress?: (p: Progress) => void,
  ): Job<JobEnd<never, GitJobStats>> {
    return this.job<never, JobEnd<never, GitJobStats>>(
      'deepen',
      (api, id, cb) => api.deepenRepo(id, cb, libraryId, by, auth),
      { onProgress },
      GIT_JOB_GRACE,
    );
  }
  library(): Promise<LibraryInfo> {
    return this.call((api) => api.library());
  }
  /** Recent: opened folders with their handles, most recently opened first. */
  recentFolders(): Promise<LibraryEntry[]> {
    return this.call((api) => api.recentFolders());
  }
  deleteRepo(id: string): Promise<boolean> {
    return this.call((api) => api.deleteRepo(id));
  }
  history(request: HistoryRequest = {}): Promise<HistoryView> {
    return this.call((api) => api.history(request));
  }
  /** History's log, streamed: the stored log at once, then what is new; an opened folder's uncommitted changes follow. */
  historyLog(
    request: HistoryLogRequest = {},
    onPart?: (part: HistoryJobPart) => void,
    onProgress?: (p: Progress) => void,
  ): Job<JobEnd<HistoryJobPart, HistoryLogStats>> {
    return this.job<HistoryJobPart, JobEnd<HistoryJobPart, HistoryLogStats>>(
      'history',
      (api, id, cb) => api.historyLog(id, cb, request),
      {
        onBatch: (parts) => parts.forEach((p) => onPart?.(p)),
        onProgress,
      },
    );
  }
  /** One commit's changed files (History's expanded commit). */
  commitChanges(request: CommitChangesRequest): Promise<CommitChangesView> {
    return this.call((api) => api.commitChanges(request));
  }
  /** Whether a file's root has git data (blame and file history are offered), and its HEAD. */
  fileGitStatus(path: string): Promise<FileGitStatus> {
    return this.call((api) => api.fileGitStatus(path));
  }
  /** A file's diff in a commit (against its first parent) or of the working tree ('worktree', against HEAD). */
  fileDiff(request: FileDiffRequest): Promise<FileDiffResult> {
    return this.call((api) => api.fileDiff(request));
  }
  /** The commits that changed a file, newest first, streamed to `onBatch`; progress counts the commits read. */
  fileHistory(
    path: string,
    onBatch?: (entries: FileHistoryEntry[]) => void,
    onProgress?: (p: Progress) => void,
  ): Job<JobEnd<FileHistoryEntry, FileHistoryStats>> {
    return this.job<FileHistoryEntry, JobEnd<FileHistoryEntry, FileHistoryStats>>(
      'file-history',
      (api, id, cb) => api.fileHistory(id, cb, path),
      {
        onBatch,
        onProgress,
      },
    );
  }
  /** Blame of a file at HEAD; the job's one result is the BlameResult. */
  blame(path: string, onProgress?: (p: Progress) => void): Job<JobEnd<BlameResult, BlameStats>> {
    return this.job<BlameResult, JobEnd<BlameResult, BlameStats>>(
      'blame',
      (api, id, cb) => api.blame(id, cb, path),
      { onProgress },
    );
  }

  /**
   * Cancel is its own call. If the job has not ended `graceMs` later, the worker is
   * stuck: terminate it, start a new one, reject everything pending.
   */
  cancel(id: JobId): void {
    const job = this.running.get(id);
    if (!job) return;
    this.current?.api.cancel(id).catch(() => {});
    if (job.graceTimer) return;
    const graceMs = job.graceMs ?? this.options.graceMs ?? DEFAULT_CANCEL_GRACE_MS;
    job.graceTimer = setTimeout(() => {
      if (this.running.has(id)) {
        void this.restart(`job ${id} did not stop within ${graceMs} ms of being cancelled`);
      }
    }, graceMs);
  }

  /** Terminate the engine, reject every pending call, start a fresh engine. */
  async restart(why: string): Promise<void> {
    const err = new QuarryError(
      'EngineRestarted',
      `The search engine was restarted: ${why}. Pending requests were stopped; try again.`,
    );
    this.generation++;
    const old = this.current;
    this.current = null;
    try {
      old?.terminate();
    } catch {
      // a transport that cannot terminate (main thread) is simply dropped
    }
    for (const p of [...this.pending]) {
      this.pending.delete(p);
      p.reject(err);
    }
    for (const r of this.running.values()) if (r.graceTimer) clearTimeout(r.graceTimer);
    this.running.clear();
    if (this.disposed) return;
    this.ready = this.start();
    await this.ready.catch(() => {});
    this.options.onRestart?.(err);
    for (const l of [...this.restartListeners]) l(err);
  }

  ping(): Promise<EngineInfo> {
    return this.call((api) => api.ping());
  }
  listDir(path: string): Promise<TreeEntry[]> {
    return this.call((api) => api.listDir(path));
  }
  quickOpen(query: string, limit = 50): Promise<QuickOpenHit[]> {
    return this.call((api) => api.quickOpen(query, limit));
  }
  readFile(path: string, highlight?: FileHighlight): Promise<FileContent> {
    return this.call((api) => api.readFile(path, highlight));
  }
  /** A file's bytes (an image for the viewer); refused over `maxBytes`. */
  readBytes(path: string, maxBytes?: number): Promise<FileBytes> {
    return this.call((api) => api.readBytes(path, maxBytes));
  }
  /** A Markdown file as a tree to render (text only). */
  readMarkdown(path: string): Promise<MarkdownDocument> {
    return this.call((api) => api.readMarkdown(path));
  }
  definitions(request: NavRequest): Promise<DefinitionsResult> {
    return this.call((api) => api.definitions(request));
  }
  /** A name's references, file by file as the search finds them (`onBatch`); the end says how many. */
  references(
    request: NavRequest,
    onBatch?: (files: ReferenceFile[]) => void,
  ): Job<JobEnd<ReferenceFile, ReferencesStats>> {
    return this.job<ReferenceFile, JobEnd<ReferenceFile, ReferencesStats>>(
      'references',
      (api, id, cb) => api.references(id, cb, request),
      { onBatch },
    );
  }
  /** Lines `fromLine`..`toLine` of a file coloured from its grammar's highlight queries, or null (no grammar or query). */
  syntax(path: string, fromLine: number, toLine: number): Promise<SyntaxWindow | null> {
    return this.call((api) => api.syntax(path, fromLine, toLine));
  }
  outline(path: string): Promise<OutlineNode[]> {
    return this.call((api) => api.outline(path));
  }
  workspaceSymbols(query: string, limit = 50): Promise<WorkspaceSymbolHit[]> {
    return this.call((api) => api.workspaceSymbols(query, limit));
  }
  skipped(offset = 0, limit = 500): Promise<{ total: number; items: Skipped[] }> {
    return this.call((api) => api.skipped(offset, limit));
  }
  /** Run a tool (core's contracts or the engine's own) on the open workspace: plain data in and out. */
  callTool<T = unknown>(name: string, args: unknown = {}): Promise<T> {
    return this.call((api) => api.callTool(name, args)) as Promise<T>;
  }

  dispose(): void {
    this.disposed = true;
    void this.restart('the client was disposed');
  }
}

/** A transport that runs the engine on this thread (the fallback, and tests). */
export function inThreadTransport(api: EngineApi, host: EngineInfo['host'] = 'main-thread'): EngineTransport {
  return { api, proxy: (v) => v, terminate: () => {}, host };
}

/**
 * The engine's remote surface as a plain factory: the web worker exposes it with Comlink,
 * the main-thread fallback and unit tests call it directly. Every method catches at the
 * edge and resolves with an Outcome, so errors cross the boundary as {code, message, data}.
 *
 * A repository is read once into an in-memory snapshot (streamed, with progress and
 * cancel) and only swapped in when complete, so a cancelled or failed open never loses
 * the repository that was already loaded.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import { compileRequest, scanLines, searchWorkspace } from '../core/grep/search';
import type { GrepFileResult, GrepRequest, HitRange } from '../core/grep/types';
import { createBackgroundYielder, createYielder, elapsedSince, Foreground, now, type Yielder } from '../core/jobs/yielder';
import { MemorySource } from '../core/source/memory';
import type { FileSource } from '../core/source/types';
import { Workspace } from '../core/source/workspace';
import { decodeBytes } from '../core/walk/decode';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../core/walk/policy';
import { walkFiles, type WalkedFile } from '../core/walk/walk';
import { PulledSnapshotSource, type PullFiles } from '../adapters/browser/files';
import { DirectoryHandleSource } from '../adapters/browser/fs-access';
import { demoSource, type DemoFiles } from '../adapters/browser/demo';
import { Chunker } from '../core/chunk';
import type { GrammarLoader } from '../core/chunk/types';
import { relatedAtLine } from '../core/rank/related';
import { splitLinesForIndex } from '../core/rank/lines';
import { queryWords, rankForPeople } from '../core/rank/people';
import type { IndexStore } from '../core/rank/persist';
import { CodeIndexService } from '../core/rank/service';
import { NO_RELATED } from '../core/tools/find_related';
import { compilePathFilter } from '../core/walk/glob';
import { contentStamp } from '../adapters/browser/files';
import { fuzzyRank, preparePath, type PreparedPath } from './fuzzy';
import { flagInventory } from '../core/analyze/features';
import { sharedSourceParsers } from '../core/analyze/parsers';
import { callTool as callCoreTool } from '../core/tools';
import {
  BATCH_MAX_ITEMS,
  BATCH_MAX_MS,
  type EngineApi,
  type EngineInfo,
  libraryKey,
  type ChunkRef,
  type CloneRequest,
  type FileContent,
  type GitAuth,
  type GitJobStats,
  type HistoryRequest,
  type HistoryView,
  type LibraryInfo,
  type FileHighlight,
  type IndexRequest,
  type IndexStats,
  type IndexStatus,
  type JobCallback,
  type JobEnd,
  type JobEvent,
  type JobId,
  type Outcome,
  type Progress,
  type RepoSpec,
  type RankedRequest,
  type RankedResult,
  type RelatedResult,
  type RepoStats,
  type SearchEnd,
  type SnippetLine,
  type TreeEntry,
} from './protocol';

export interface EngineApiOptions {
  host?: EngineInfo['host'];
  /** Loads the bundled demo (a Vite virtual module in the app; injected in tests). */
  loadDemo?: () => Promise<DemoFiles>;
  /** Time budget between yields (ms). */
  yieldBudgetMs?: number;
  /** How long the index build keeps giving way after a search or file read ends (ms, default 250). */
  foregroundGraceMs?: number;
  /** Files read concurrently while opening (hides File System Access latency). */
  readConcurrency?: number;
  /** Progress events are sent at most this often (ms). */
  progressIntervalMs?: number;
  /**
   * Grammars for the code index (symbol chunks) and the analyzer tools (find_components,
   * feature_status); without it there is no code index and those tools answer EngineError.
   */
  grammarLoader?: GrammarLoader;
  /** Where code indexes are kept between sessions (IndexedDB in the browser). */
  indexStore?: IndexStore;
}

/** A file whose parse takes longer than this is skipped with a reason (pathological input). */
const MAX_PARSE_MS = 5000;
/** Ranked results returned to the UI. */
const RANKED_LIMIT_MAX = 200;
/** Snippet lines per Ranked hit (the chunk's first line and its first matching lines). */
const SNIPPET_MATCH_LINES = 3;
const SNIPPET_LINE_CHARS = 300;

/** Progress is for people: 20 updates a second is smooth and keeps the main thread idle. */
export const PROGRESS_INTERVAL_MS = 50;
/** Skipped entries returned with the open job's end; the rest are paged with skipped(). */
const SKIPPED_IN_END = 200;
/** Per-file hit lines returned to the viewer. */
const MAX_VIEWER_HIT_LINES = 100_000;

/** Where the open repository came from, for history and the library. */
type RepoOrigin =
  | { kind: 'git'; id: string }
  | { kind: 'handle'; handle: FileSystemDirectoryHandle; libraryId?: string }
  | { kind: 'other' };

/** The git adapter (isomorphic-git, lightning-fs) loads on first use: opening a folder never pays for it. */
const gitModule = () => import('../adapters/git');

/** git progress events are sent at most this often (isomorphic-git reports per object). */
const GIT_PROGRESS_MS = 100;

interface LoadedRepo {
  origin: RepoOrigin;
  stats: RepoStats;
  workspace: Workspace;
  source: FileSource;
  skipped: Skipped[];
  tree: Map<string, TreeEntry[]>;
  sortedDirs: Set<string>;
  quick: PreparedPath[];
  /** The code index of this snapshot (created by the first indexRepo call). */
  index: { service: CodeIndexService; key: string; ready: boolean; saveError?: string } | null;
  indexStatus: IndexStatus;
}

/** A store whose failed save is remembered instead of failing the build (the index still works this session). */
function forgivingStore(store: IndexStore, onError: (message: string) => void): IndexStore {
  return {
    load: (key) => store.load(key),
    save: async (key, data) => {
      try {
        await store.save(key, data);
      } catch (err) {
        onError(toQuarryError(err).message);
      }
    },
    remove: (key) => store.remove?.(key) ?? Promise.resolve(),
  };
}

/** Only a chunk's location crosses the boundary (index chunks carry more). */
function chunkRef(c: ChunkRef): ChunkRef {
  return { path: c.path, startLine: c.startLine, endLine: c.endLine, symbolName: c.symbolName, chunkType: c.chunkType };
}

/** Marks every token of `text` (the tokenizer's ASCII word characters) whose lowercase form is in `terms`. */
function markTerms(text: string, terms: Set<string>): HitRange[] {
  const ranges: HitRange[] = [];
  const re = /[A-Za-z0-9_]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length > 1 && terms.has(m[0].toLowerCase())) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

/** Collects items and flushes them every BATCH_MAX_ITEMS items or BATCH_MAX_MS, whichever first. */
export class Batcher<R> {
  private pending: R[] = [];
  private weight = 0;
  private firstAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  constructor(
    private readonly emit: (items: R[]) => void,
    private readonly weigh: (item: R) => number = () => 1,
    private readonly maxItems = BATCH_MAX_ITEMS,
    private readonly maxMs = BATCH_MAX_MS,
  ) {}

  push(item: R): void {
    if (!this.pending.length) {
      this.firstAt = now();
      this.timer = setTimeout(() => this.flush(), this.maxMs);
    }
    this.pending.push(item);
    this.weight += this.weigh(item);
    if (this.weight >= this.maxItems || now() - this.firstAt >= this.maxMs) this.flush();
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return;
    const items = this.pending;
    this.pending = [];
    this.weight = 0;
    this.emit(items);
  }

  /** Stop the timer and hand back what was never sent (it travels with the job's end). */
  drain(): R[] {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const items = this.pending;
    this.pending = [];
    this.weight = 0;
    return items;
  }
}

/** Sends events through the job callback without awaiting each; `settle()` awaits the last one. */
function eventChannel<R>(onEvent: JobCallback<R>) {
  let last: Promise<unknown> = Promise.resolve();
  return {
    send(event: JobEvent<R>) {
      try {
        const r = onEvent(event);
        if (r && typeof (r as Promise<void>).then === 'function') last = (r as Promise<void>).catch(() => {});
      } catch {
        // A callback that throws (or was released) must not break the job.
      }
    },
    /** Messages on one port arrive in order, so the last callback settling means all did. */
    settle: () => last,
  };
}

type EventChannel<R> = ReturnType<typeof eventChannel<R>>;

async function outcome<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    const e = toQuarryError(err);
    return { ok: false, error: { code: e.code, message: e.message, data: plainData(e.data) } };
  }
}

/** Error data must survive structured clone: keep only plain values. */
function plainData(data: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data ?? {}));
  } catch {
    return {};
  }
}

function sourceFor(
  spec: RepoSpec,
  loadDemo: (() => Promise<DemoFiles>) | undefined,
  staged: Map<string, string[]>,
  pull: PullFiles | undefined,
): Promise<FileSource> | FileSource {
  switch (spec.kind) {
    case 'demo':
      if (!loadDemo) throw new QuarryError('NotFound', 'The demo repository is not bundled with this build');
      return loadDemo().then(demoSource);
    case 'handle':
      return new DirectoryHandleSource(spec.handle, { name: spec.name || spec.handle.name });
    case 'files': {
      const paths = spec.stageId ? [...(staged.get(spec.stageId) ?? []), ...spec.paths] : spec.paths;
      if (spec.stageId) staged.delete(spec.stageId);
      if (!pull) throw new QuarryError('InvalidArgument', 'A folder snapshot needs a pull callback to read its files', { field: 'pull' });
      return new PulledSnapshotSource(paths, pull, { name: spec.name, maxFileBytes: DEFAULT_MAX_FILE_BYTES });
    }
    case 'memory':
      return new MemorySource(spec.files, { name: spec.name, absoluteRoot: `/${spec.name}` });
    case 'git':
      return gitModule().then(async (g) => {
        const record = await g.getRepo(String(spec.id));
        if (!record || record.source !== 'clone') {
          throw new QuarryError('NotFound', `"${spec.id}" is not in the repository library (it may have been deleted): clone it again`, { id: spec.id, reason: 'notInLibrary' });
        }
        return g.gitFileSource(record.id, { name: record.name });
      });
    default:
      throw new QuarryError('InvalidArgument', `Unknown repository kind "${(spec as { kind: string }).kind}"`, { field: 'kind' });
  }
}

function compareEntries(a: TreeEntry, b: TreeEntry): number {
  if (a.kind !== b.kind) return a.kind === 'directory' ? -1 : 1;
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function buildTree(files: string[], skipped: Skipped[]): Map<string, TreeEntry[]> {
  const tree = new Map<string, TreeEntry[]>([['', []]]);
  const ensureDir = (dir: string): void => {
    if (tree.has(dir)) return;
    const i = dir.lastIndexOf('/');
    const parent = i < 0 ? '' : dir.slice(0, i);
    ensureDir(parent);
    tree.set(dir, []);
    tree.get(parent)!.push({ name: dir.slice(i + 1), path: dir, kind: 'directory' });
  };
  const add = (path: string, entry: Omit<TreeEntry, 'name' | 'path'>) => {
    const i = path.lastIndexOf('/');
    const parent = i < 0 ? '' : path.slice(0, i);
    ensureDir(parent);
    tree.get(parent)!.push({ name: path.slice(i + 1), path, ...entry });
  };
  for (const f of files) add(f, { kind: 'file' });
  for (const s of skipped) {
    if (s.path === '') continue;
    if (s.directory && tree.has(s.path)) continue;
    add(s.path, { kind: s.directory ? 'directory' : 'file', skipped: s.reason });
  }
  return tree;
}

export function createEngineApi(options: EngineApiOptions = {}): EngineApi {
  const host = options.host ?? 'main-thread';
  const readConcurrency = options.readConcurrency ?? 8;
  const progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const jobs = new Map<JobId, AbortController>();
  let repo: LoadedRepo | null = null;
  const staged = new Map<string, string[]>();
  /** The last opened folder's library registration (runs after its open completes). */
  let registration: Promise<void> = Promise.resolve();

  const yielder = (): Yielder => createYielder(options.yieldBudgetMs);
  /** Calls a person waits on; the index build gives way to them (see Foreground). */
  const foreground = new Foreground(options.foregroundGraceMs);
  async function inForeground<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
    const end = foreground.begin();
    try {
      return await outcome(fn);
    } finally {
      end();
    }
  }

  function startJob(jobId: JobId): AbortController {
    if (typeof jobId !== 'string' || !jobId) throw new QuarryError('InvalidArgument', 'jobId must be a non-empty string', { field: 'jobId' });
    if (jobs.has(jobId)) throw new QuarryError('InvalidArgument', `Job "${jobId}" is already running`, { field: 'jobId', value: jobId });
    const controller = new AbortController();
    jobs.set(jobId, controller);
    return controller;
  }

  function requireRepo(): LoadedRepo {
    if (!repo) throw new QuarryError('NotFound', 'No repository is open: open a folder or the demo first');
    return repo;
  }

  async function openRepo(jobId: JobId, spec: RepoSpec, onEvent: JobCallback<never>, pull?: PullFiles): Promise<JobEnd<never, RepoStats>> {
    const controller = startJob(jobId);
    const signal = controller.signal;
    const events = eventChannel(onEvent);
    const t0 = now();
    const y = yielder();
    let lastProgress = 0;
    const progress = (p: Progress, force = false) => {
      const t = now();
      if (!force && t - lastProgress < progressIntervalMs) return;
      lastProgress = t;
      events.send({ type: 'progress', data: p });
    };
    const ending = (): JobEnd<never, RepoStats> => ({
      results: [],
      limitHit: false,
      skipped: [],
      stats: { elapsedMs: elapsedSince(t0), ending: 'cancelled', name: '', kind: spec.kind, files: 0, bytes: 0, skippedByReason: {} },
    });
    try {
      const raw = await sourceFor(spec, options.loadDemo, staged, pull);
      const skipped: Skipped[] = [];
      const found: WalkedFile[] = [];
      let foundBytes = 0;
      progress({ phase: 'listing', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 }, true);
      try {
        for await (const f of walkFiles(raw, { signal, onSkip: (s) => skipped.push(s) })) {
          found.push(f);
          foundBytes += f.size;
          progress({ phase: 'listing', files: found.length, totalFiles: 0, bytes: foundBytes, totalBytes: 0 });
          const w = y.maybeYield();
          if (w) await w;
          if (signal.aborted) break;
        }
      } catch (err) {
        if (toQuarryError(err).code !== 'Cancelled') throw err;
      }
      if (signal.aborted) return ending();

      // Read every file into the snapshot, a few at a time.
      const snapshot = new MemorySource({}, { name: raw.name, absoluteRoot: raw.absoluteRoot });
      const textFiles: string[] = [];
      let readFiles = 0;
      let readBytes = 0;
      let next = 0;
      const worker = async () => {
        while (next < found.length && !signal.aborted) {
          const f = found[next++];
          let bytes: Uint8Array;
          try {
            bytes = await raw.read(f.path);
          } catch (err) {
            skipped.push({ path: f.path, reason: 'unreadable', detail: err instanceof Error ? err.message : String(err) });
            readFiles++;
            continue;
          }
          readFiles++;
          readBytes += bytes.byteLength;
          if (decodeBytes(bytes).binary) skipped.push({ path: f.path, reason: 'binary' });
          else {
            // The demo and in-memory sources have no real modification times (a fresh Date.now()
            // per load): stamp them by content, so a reload finds the stored index current.
            snapshot.write(f.path, bytes, spec.kind === 'demo' || spec.kind === 'memory' ? contentStamp(bytes) : f.mtimeMs);
            textFiles.push(f.path);
          }
          progress({ phase: 'reading', files: readFiles, totalFiles: found.length, bytes: readBytes, totalBytes: foundBytes });
          const w = y.maybeYield();
          if (w) await w;
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, readConcurrency) }, worker));
      if (signal.aborted) return ending();
      progress({ phase: 'indexing', files: readFiles, totalFiles: found.length, bytes: readBytes, totalBytes: foundBytes }, true);

      textFiles.sort();
      skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const skippedByReason: Record<string, number> = {};
      for (const s of skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
      const stats: RepoStats = {
        elapsedMs: elapsedSince(t0),
        ending: 'complete',
        name: raw.name,
        kind: spec.kind,
        files: textFiles.length,
        bytes: readBytes,
        skippedByReason,
      };
      // Build aside, swap when complete.
      const origin: RepoOrigin =
        spec.kind === 'git' ? { kind: 'git', id: spec.id } : spec.kind === 'handle' ? { kind: 'handle', handle: spec.handle, libraryId: spec.libraryId } : { kind: 'other' };
      repo = {
        origin,
        stats,
        workspace: new Workspace([snapshot]),
        source: snapshot,
        skipped,
        tree: buildTree(textFiles, skipped),
        sortedDirs: new Set(),
        quick: textFiles.map(preparePath),
        index: null,
        indexStatus: { state: 'none', last: null },
      };
      // In the background: the open is done without loading the git adapter; library() waits for it.
      if (origin.kind === 'handle' && origin.libraryId) registration = registerOpenedFolder(origin.handle, origin.libraryId, stats).catch(() => undefined);
      return { results: [], limitHit: skipped.length > SKIPPED_IN_END, skipped: skipped.slice(0, SKIPPED_IN_END), stats };
    } finally {
      jobs.delete(jobId);
      await events.settle();
    }
  }

  /** An opened folder joins the library (with its branch when it holds .git); its files stay where they are. */
  async function registerOpenedFolder(handle: FileSystemDirectoryHandle, id: string, stats: RepoStats): Promise<void> {
    const g = await gitModule();
    let branch = '';
    let commit = '';
    if (await hasGitDir(handle)) ({ branch, commit } = await g.folderGitInfo(handle as unknown as Parameters<typeof g.folderGitInfo>[0]));
    await g.registerFolder({ id, name: stats.name, fileCount: stats.files, sizeBytes: stats.bytes, branch, commit });
  }

  async function hasGitDir(handle: FileSystemDirectoryHandle): Promise<boolean> {
    try {
      await handle.getDirectoryHandle('.git');
      return true;
    } catch {
      return false;
    }
  }

  /** The library id of the open repository, if it has an entry. */
  function libraryIdOf(current: LoadedRepo): string | undefined {
    return current.origin.kind === 'git' ? current.origin.id : current.origin.kind === 'handle' ? current.origin.libraryId : undefined;
  }

  function gitProgress(events: EventChannel<never>) {
    let last = 0;
    return (p: { phase: string; loaded: number; total: number }) => {
      const t = now();
      if (t - last < GIT_PROGRESS_MS) return;
      last = t;
      events.send({ type: 'progress', data: { phase: 'git', label: p.phase, files: p.loaded, totalFiles: p.total, bytes: 0, totalBytes: 0 } });
    };
  }

  /**
   * A clone or fetch as a job: isomorphic-git's progress streams as phase 'git' events; a cancel
   * ends the job normally (ending 'cancelled', nothing registered), any other failure is thrown.
   */
  async function gitJob(
    jobId: JobId,
    onEvent: JobCallback<never>,
    run: (g: Awaited<ReturnType<typeof gitModule>>, signal: AbortSignal, onProgress: ReturnType<typeof gitProgress>) => Promise<Partial<GitJobStats>>,
  ): Promise<JobEnd<never, GitJobStats>> {
    const controller = startJob(jobId);
    const events = eventChannel(onEvent);
    const t0 = now();
    const end = (ending: GitJobStats['ending'], stats: Partial<GitJobStats> = {}): JobEnd<never, GitJobStats> => ({
      results: [],
      limitHit: false,
      skipped: [],
      stats: { elapsedMs: elapsedSince(t0), ending, repo: null, ...stats },
    });
    try {
      return end('complete', await run(await gitModule(), controller.signal, gitProgress(events)));
    } catch (err) {
      if (toQuarryError(err).code === 'Cancelled' && controller.signal.aborted) return end('cancelled');
      throw err;
    } finally {
      jobs.delete(jobId);
      await events.settle();
    }
  }

  function authOf(auth: GitAuth | undefined): GitAuth {
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    return { token: str(auth?.token), username: str(auth?.username), corsProxy: str(auth?.corsProxy) };
  }

  function cloneJob(jobId: JobId, request: CloneRequest, onEvent: JobCallback<never>): Promise<JobEnd<never, GitJobStats>> {
    return gitJob(jobId, onEvent, async (g, signal, onProgress) => {
      const depth = request?.depth === undefined || request?.depth === null ? undefined : Number(request.depth);
      const ref = typeof request?.ref === 'string' && request.ref.trim() ? request.ref.trim() : undefined;
      const repo = await g.cloneRepo({ url: String(request?.url ?? '').trim(), ref, depth, ...authOf(request), signal, onProgress });
      return { repo };
    });
  }

  function fetchJob(jobId: JobId, id: string, auth: GitAuth, onEvent: JobCallback<never>): Promise<JobEnd<never, GitJobStats>> {
    return gitJob(jobId, onEvent, async (g, signal, onProgress) => {
      const r = await g.fetchUpdates(String(id), { ...authOf(auth), signal, onProgress });
      return { repo: r.record, changedPaths: r.changedPaths, removedPaths: r.removedPaths, previousCommit: r.previousCommit };
    });
  }

  function deepenJob(jobId: JobId, id: string, by: number, auth: GitAuth, onEvent: JobCallback<never>): Promise<JobEnd<never, GitJobStats>> {
    return gitJob(jobId, onEvent, async (g, signal, onProgress) => ({
      repo: await g.deepenHistory(String(id), { by: Math.floor(Number(by)), ...authOf(auth), signal, onProgress }),
    }));
  }

  async function library(): Promise<LibraryInfo> {
    await registration;
    const g = await gitModule();
    const [repos, storage] = await Promise.all([g.listRepos(), g.storageEstimate()]);
    return { repos, storage };
  }

  async function deleteLibraryEntry(id: string): Promise<boolean> {
    if (typeof id !== 'string' || !id) throw new QuarryError('InvalidArgument', 'id must be a non-empty string', { field: 'id' });
    const g = await gitModule();
    const record = await g.getRepo(id);
    if (!record) return false;
    await g.deleteRepo(id);
    // Its stored code index goes too (keys as the UI builds them: git:<id> for clones, the folder's own key otherwise).
    await options.indexStore?.remove?.(`index:${libraryKey(record)}`).catch(() => undefined);
    return true;
  }

  async function repoHistory(request: HistoryRequest): Promise<HistoryView> {
    const current = requireRepo();
    const limit = Math.max(1, Math.min(500, Math.floor(Number(request?.limit ?? 50)) || 50));
    const origin = current.origin;
    if (origin.kind === 'git') {
      const g = await gitModule();
      return { available: true, source: 'clone', libraryId: origin.id, ...(await g.repoHistory(origin.id, { depth: limit })) };
    }
    if (origin.kind === 'handle') {
      if (!(await hasGitDir(origin.handle))) return { available: false, reason: `${current.stats.name} has no .git folder, so it has no history to show.` };
      const g = await gitModule();
      const fs = g.fsAccessGitFs(origin.handle as unknown as Parameters<typeof g.fsAccessGitFs>[0]);
      return { available: true, source: 'folder', ...(await g.history(fs, '/', { depth: limit, includeUncommitted: true })) };
    }
    return {
      available: false,
      reason:
        current.stats.kind === 'files'
          ? 'A folder chosen as a snapshot has no readable git data. Open it with "Open folder" (File System Access) to see its history.'
          : `${current.stats.kind === 'demo' ? 'The demo' : current.stats.name} has no git history. Clone a repository to see its commits.`,
    };
  }

  async function search(jobId: JobId, request: GrepRequest, onEvent: JobCallback<GrepFileResult>): Promise<SearchEnd> {
    const controller = startJob(jobId);
    const events = eventChannel(onEvent);
    try {
      const current = requireRepo();
      const batcher = new Batcher<GrepFileResult>(
        (items) => events.send({ type: 'batch', data: items }),
        (r) => r.matches.length,
      );
      // Once this snapshot's index is complete, the trigram index narrows the files to read
      // (results are identical to the scan; until then the search scans).
      const prefilter = current.index?.ready ? current.index.service.prefilter() : undefined;
      const summary = await searchWorkspace(current.workspace, request, (r) => batcher.push(r), {
        signal: controller.signal,
        yielder: yielder(),
        prefilter,
      });
      const results = batcher.drain();
      return {
        results,
        limitHit: summary.limitHit,
        skipped: summary.skipped,
        stats: {
          elapsedMs: summary.elapsedMs,
          ending: summary.ending,
          total: summary.total,
          totalIsExact: summary.totalIsExact,
          delivered: summary.delivered,
          filesSearched: summary.filesSearched,
          filesMatched: summary.filesMatched,
          strategy: summary.strategy,
        },
      };
    } finally {
      jobs.delete(jobId);
      await events.settle();
    }
  }

  function listDir(path: string): TreeEntry[] {
    const current = requireRepo();
    const dir = path.replace(/^\/+|\/+$/g, '');
    const entries = current.tree.get(dir);
    if (!entries) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (!current.sortedDirs.has(dir)) {
      entries.sort(compareEntries);
      for (const e of entries) if (e.kind === 'directory') e.childCount = current.tree.get(e.path)?.length ?? 0;
      current.sortedDirs.add(dir);
    }
    return entries;
  }

  async function readFile(path: string, highlight?: FileHighlight): Promise<FileContent> {
    const current = requireRepo();
    if (typeof path !== 'string' || !path) throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
    const skip = current.skipped.find((s) => s.path === path);
    if (skip) {
      throw new QuarryError('Unreadable', `"${path}" was not loaded: ${skip.reason}${skip.detail ? ` (${skip.detail})` : ''}`, {
        path,
        reason: skip.reason,
      });
    }
    const stat = await current.source.stat(path);
    if (!stat || stat.kind !== 'file') throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    const bytes = await current.source.read(path);
    const decoded = decodeBytes(bytes);
    if (decoded.binary) throw new QuarryError('Unreadable', `"${path}" is a binary file`, { path, reason: 'binary' });
    const text = decoded.text;
    let lineCount = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineCount++;
    if (text.endsWith('\n')) lineCount--;
    const content: FileContent = { path, text, lineCount: Math.max(lineCount, 1), encoding: decoded.encoding, bytes: bytes.byteLength, hits: [] };
    if (highlight && highlight.pattern) {
      try {
        const { matcher } = compileRequest({ pattern: highlight.pattern, mode: highlight.mode, caseMode: highlight.caseMode, wholeWord: highlight.wholeWord });
        scanLines(text, matcher, (h) => {
          content.hits.push([h.line, h.ranges as HitRange[]]);
          return content.hits.length < MAX_VIEWER_HIT_LINES;
        });
      } catch (err) {
        const e = toQuarryError(err);
        content.highlightError = { code: e.code, message: e.message, data: plainData(e.data) };
      }
    }
    return content;
  }

  let chunker: Promise<Chunker> | null = null;
  const getChunker = (): Promise<Chunker> => {
    const loader = options.grammarLoader;
    if (!loader) return Promise.reject(new QuarryError('NotFound', 'This build has no grammar loader: the code index is unavailable'));
    chunker ??= Chunker.create(loader, { maxParseMs: MAX_PARSE_MS }).catch((err: unknown) => {
      chunker = null;
      throw err;
    });
    return chunker;
  };

  async function indexRepo(jobId: JobId, request: IndexRequest, onEvent: JobCallback<never>): Promise<JobEnd<never, IndexStats>> {
    const controller = startJob(jobId);
    const events = eventChannel(onEvent);
    const t0 = now();
    /** The snapshot this build is for (the open repository may change before it ends). */
    let target: LoadedRepo | null = null;
    try {
      const current = (target = requireRepo());
      const key = String(request?.key ?? '');
      if (!key) throw new QuarryError('InvalidArgument', 'key must be a non-empty string', { field: 'key' });
      if (!current.index || current.index.key !== key) {
        const holder: { service: CodeIndexService; key: string; ready: boolean; saveError?: string } = { service: null as unknown as CodeIndexService, key, ready: false };
        const store = options.indexStore ? forgivingStore(options.indexStore, (m) => (holder.saveError = m)) : undefined;
        holder.service = new CodeIndexService(
          current.workspace,
          async () => {
            events.send({ type: 'progress', data: { phase: 'grammars', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 } });
            return getChunker();
          },
          store,
          `index:${key}`,
        );
        current.index = holder;
      }
      const state = current.index;
      state.saveError = undefined;
      current.indexStatus = { ...current.indexStatus, state: 'building', error: undefined };
      let lastSent = 0;
      const stats = await state.service.refresh({
        signal: controller.signal,
        yielder: createBackgroundYielder(foreground, { yieldBudgetMs: options.yieldBudgetMs, signal: controller.signal }),
        force: !!request.force,
        onProgress: (p) => {
          const t = now();
          if (t - lastSent < progressIntervalMs && p.phase !== 'saving') return;
          lastSent = t;
          events.send({ type: 'progress', data: { phase: p.phase, files: p.loaded, totalFiles: p.total, bytes: 0, totalBytes: 0 } });
        },
      });
      state.ready = true;
      const end: IndexStats = {
        elapsedMs: elapsedSince(t0),
        ending: 'complete',
        refreshMode: stats.refreshMode,
        filesScanned: stats.filesScanned,
        chunksIndexed: stats.chunksIndexed,
        filesChanged: stats.filesChanged,
        filesRemoved: stats.filesRemoved,
        builtAt: Date.now(),
        ...(state.saveError ? { saveError: state.saveError } : {}),
      };
      current.indexStatus = { state: 'ready', last: end };
      const libraryId = libraryIdOf(current);
      if (libraryId) {
        await gitModule()
          .then(async (g) => ((await g.getRepo(libraryId)) ? g.updateRepo(libraryId, { lastIndexedAt: end.builtAt }) : undefined))
          .catch(() => undefined);
      }
      return { results: [], limitHit: stats.skipped.length > SKIPPED_IN_END, skipped: stats.skipped.slice(0, SKIPPED_IN_END), stats: end };
    } catch (err) {
      const e = toQuarryError(err);
      const current = target;
      if (e.code === 'Cancelled' || controller.signal.aborted) {
        if (current) current.indexStatus = { ...current.indexStatus, state: current.index?.ready ? 'ready' : 'none' };
        const last = current?.indexStatus.last;
        return {
          results: [],
          limitHit: false,
          skipped: [],
          stats: {
            elapsedMs: elapsedSince(t0),
            ending: 'cancelled',
            refreshMode: last?.refreshMode ?? 'full',
            filesScanned: 0,
            chunksIndexed: 0,
            filesChanged: 0,
            filesRemoved: 0,
            builtAt: last?.builtAt ?? 0,
          },
        };
      }
      if (current) current.indexStatus = { ...current.indexStatus, state: current.index?.ready ? 'ready' : 'failed', error: { code: e.code, message: e.message, data: plainData(e.data) } };
      throw e;
    } finally {
      jobs.delete(jobId);
      await events.settle();
    }
  }

  function readyIndex(current: LoadedRepo) {
    const state = current.index;
    if (!state || !state.ready || !state.service.index) {
      throw new QuarryError('NotFound', 'The code index is not ready yet: it is being built in the background', { reason: 'indexNotReady' });
    }
    return { service: state.service, index: state.service.index };
  }

  async function fileLines(current: LoadedRepo, path: string, cache: Map<string, string[] | null>): Promise<string[] | null> {
    if (cache.has(path)) return cache.get(path)!;
    let lines: string[] | null = null;
    try {
      const decoded = decodeBytes(await current.source.read(path));
      if (!decoded.binary) lines = splitLinesForIndex(decoded.text);
    } catch {
      lines = null;
    }
    cache.set(path, lines);
    return lines;
  }

  async function rankedSearch(request: RankedRequest): Promise<RankedResult> {
    const t0 = now();
    const current = requireRepo();
    const query = String(request?.query ?? '');
    const limit = Math.max(1, Math.min(RANKED_LIMIT_MAX, Math.floor(request.limit ?? 50)));
    const { words } = queryWords(query);
    if (!words.length) return { hits: [], words, elapsedMs: elapsedSince(t0) };
    const { index } = readyIndex(current);
    const pathTest = compilePathFilter({
      include: request.include,
      exclude: request.exclude,
      extensions: request.extensions,
      fields: { include: 'include', exclude: 'exclude', extensions: 'extensions' },
    });
    const hits = rankForPeople(index, query, limit, pathTest ? (c) => pathTest(c.path) : undefined);
    const cache = new Map<string, string[] | null>();
    const out: RankedResult['hits'] = [];
    for (const h of hits) {
      const c = h.chunk;
      const terms = new Set<string>();
      for (const comp of h.components) for (const v of comp.via) terms.add(v);
      const all = await fileLines(current, c.path, cache);
      const lines: Array<SnippetLine | null> = [];
      if (all) {
        const cut = (n: number): SnippetLine => {
          const text = (all[n - 1] ?? '').slice(0, SNIPPET_LINE_CHARS);
          return { line: n, text, ranges: markTerms(text, terms) };
        };
        lines.push(cut(c.startLine));
        let shown = 0;
        let prev = c.startLine;
        for (let n = c.startLine + 1; n <= Math.min(c.endLine, all.length) && shown < SNIPPET_MATCH_LINES; n++) {
          const line = cut(n);
          if (!line.ranges.length) continue;
          if (n > prev + 1) lines.push(null);
          lines.push(line);
          prev = n;
          shown++;
        }
      }
      out.push({
        ...chunkRef(c),
        score: h.score,
        exactSymbol: h.exactSymbol,
        components: h.components.map((x) => ({ ...x, via: [...x.via] })),
        lines,
      });
    }
    return { hits: out, words, elapsedMs: elapsedSince(t0) };
  }

  async function related(path: string, line: number, limit: number): Promise<RelatedResult> {
    const current = requireRepo();
    if (typeof path !== 'string' || !path) throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
    if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) {
      throw new QuarryError('InvalidArgument', 'line must be a positive integer', { field: 'line', value: line });
    }
    const { index } = readyIndex(current);
    const at = await relatedAtLine(index, path, line, () => fileLines(current, path, new Map()), Math.max(1, Math.floor(limit) || 1));
    if (!at) throw new QuarryError('EngineError', NO_RELATED, { path, line, reason: 'noChunk' });
    const { seed, related: found } = at;
    return {
      seed: chunkRef(seed),
      results: found.map((r) => ({
        ...chunkRef(r.chunk),
        score: r.score,
        sharedTerms: r.sharedTerms,
      })),
    };
  }

  const api: EngineApi = {
    ping: () => outcome(() => ({ host, repo: repo?.stats ?? null })),
    openRepo: (jobId, spec, onEvent, pull) => outcome(() => openRepo(jobId, spec, onEvent, pull)),
    search: (jobId, request, onEvent) => inForeground(() => search(jobId, request, onEvent)),
    cancel: (jobId) =>
      outcome(() => {
        const job = jobs.get(jobId);
        job?.abort();
        return !!job;
      }),
    stagePaths: (stageId, paths) =>
      outcome(() => {
        const list = staged.get(stageId) ?? [];
        for (const p of paths) list.push(String(p));
        staged.set(stageId, list);
        return list.length;
      }),
    listDir: (path) => inForeground(() => listDir(path)),
    quickOpen: (query, limit) => inForeground(() => fuzzyRank(requireRepo().quick, String(query ?? ''), Math.max(1, Math.min(limit, 500)))),
    readFile: (path, highlight) => inForeground(() => readFile(path, highlight)),
    indexRepo: (jobId, request, onEvent) => outcome(() => indexRepo(jobId, request, onEvent)),
    indexStatus: () => outcome(() => requireRepo().indexStatus),
    rankedSearch: (request) => inForeground(() => rankedSearch(request)),
    related: (path, line, limit) => inForeground(() => related(path, line, limit)),
    skipped: (offset, limit) =>
      outcome(() => {
        const all = requireRepo().skipped;
        return { total: all.length, items: all.slice(offset, offset + limit) };
      }),
    callTool: (name, args) =>
      inForeground(async () => {
        const current = requireRepo();
        const loader = options.grammarLoader;
        const parsers = loader ? () => sharedSourceParsers(loader) : undefined;
        // flag_inventory is a view helper, not a tool contract: the Features view lists every
        // flag before any feature name is typed (feature_status needs one).
        if (name === 'flag_inventory') {
          if (!parsers) throw new QuarryError('EngineError', 'flag_inventory needs the JavaScript/TypeScript parsers, and this host provides none');
          const r = await flagInventory(current.workspace, await parsers());
          return { ...r.inventory, filesScanned: r.filesScanned, skipped: r.skipped };
        }
        return callCoreTool(String(name), args, { workspace: current.workspace, parsers });
      }),
    cloneRepo: (jobId, request, onEvent) => outcome(() => cloneJob(jobId, request, onEvent)),
    fetchRepo: (jobId, id, auth, onEvent) => outcome(() => fetchJob(jobId, id, auth, onEvent)),
    deepenRepo: (jobId, id, by, auth, onEvent) => outcome(() => deepenJob(jobId, id, by, auth, onEvent)),
    library: () => outcome(library),
    deleteRepo: (id) => outcome(() => deleteLibraryEntry(id)),
    history: (request) => inForeground(() => repoHistory(request)),
    spin: (jobId, ms) =>
      outcome(() => {
        startJob(jobId);
        const t0 = now();
        const end = t0 + ms;
        while (now() < end) {
          // Deliberately ignores cancel: a stand-in for a job that never yields.
        }
        jobs.delete(jobId);
        return { results: [], limitHit: false, skipped: [], stats: { elapsedMs: elapsedSince(t0), ending: 'complete' as const } };
      }),
  };
  return api;
}

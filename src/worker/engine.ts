/**
 * The engine's remote surface, composed: the job edge (edge.ts) wraps every method; the open
 * workspace is a list of RepoSessions (roots.ts, session.ts); git and the library are the
 * GitService; tools are dispatched by engine-tools.ts. The web worker exposes this with
 * Comlink; the main-thread fallback and the tests call it directly.
 *
 * Where things happen, for a newcomer:
 *   a session opens ............ openRoot() below (read into a snapshot, then swapped in)
 *   a repository key is made ... repoKey() in session.ts (never by the UI)
 *   a tool is dispatched ....... dispatchTool() in engine-tools.ts
 */
import { QuarryError } from '../core/errors';
import type { HistoryPortResult } from '../core/tools/types';
import type { SearchPool } from '../core/grep/pool';
import { compileRequest, searchWorkspace } from '../core/grep/search';
import type { GrepFileResult, GrepRequest } from '../core/grep/types';
import { createYielder, elapsedSince, now } from '../core/jobs/yielder';
import { inThreadChunker } from '../core/chunk/any';
import type { FileChunker } from '../core/chunk/pool';
import { mergeCoverage } from '../core/rank/build';
import { MAX_PARSE_MS } from '../core/limits';
import type { GrammarLoader } from '../core/chunk/types';
import type { IndexStore } from '../core/rank/persist';
import { MemorySource } from '../core/source/memory';
import type { FileSource } from '../core/source/types';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../core/walk/policy';
import { PulledSnapshotSource, type PullFiles } from '../adapters/browser/files';
import { DirectoryHandleSource } from '../adapters/browser/fs-access';
import { demoSource, type DemoFiles } from '../adapters/browser/demo';
import { ServedSource } from '../adapters/browser/served-source';
import { Batcher, JobEdge, type JobScope } from './edge';
import { fileSlices, fileWeight } from './result-slices';
import { dispatchTool, exploreForView } from './engine-tools';
import { fuzzyRank } from './fuzzy';
import { NavService } from './nav';
import { GitService, type FolderHandles } from './git-service';
import { FileGitService } from './file-git';
import { HistoryService } from './history-job';
import { createRoots, noRepository, rootInfo, type Roots } from './roots';
import { readSnapshot } from './snapshot';
import { repoKey, RepoSession, SKIPPED_IN_END, type RepoOrigin, type SessionDeps } from './session';
import { SemanticService, type SemanticModelLoader } from './semantic';
import { READ_BYTES_MAX_BYTES } from './protocol';
import type { ReferenceFile } from '../core/nav/types';
import type {
  EngineApi,
  EngineInfo,
  IndexRequest,
  IndexStats,
  IndexStatus,
  JobEnd,
  OpenOptions,
  Progress,
  RepoSpec,
  RepoStats,
  SearchEnd,
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
  /** Where opened folders' handles are kept (default: IndexedDB, the Recent list). */
  folderHandles?: FolderHandles;
  /** The code index's text budget (default INDEX_MAX_TEXT_BYTES, src/core/limits.ts). */
  indexMaxTextBytes?: number;
  /**
   * What the index build parses with: a pool of parsing threads (the browser worker passes
   * one of Web Workers; `hold` is the engine's foreground wait, during which the pool sends its
   * threads no new files). Default: this thread, with `grammarLoader`.
   */
  parsePool?: (hold?: () => number) => FileChunker | null;
  /**
   * Threads text search runs on (results identical to this thread's alone): the browser worker
   * passes a pool of Web Workers, a Node host one of worker_threads. Made on the first search.
   */
  searchPool?: () => SearchPool | null;
  /** The embedding model for semantic search (the browser's embedding worker); without it Semantic is unavailable. */
  semanticModel?: SemanticModelLoader;
}

/** Progress is for people: 20 updates a second is smooth and keeps the main thread idle. */
export const PROGRESS_INTERVAL_MS = 50;

function throttledProgress(scope: JobScope<never>, intervalMs: number) {
  let last = 0;
  return (p: Progress, force = false) => {
    const t = now();
    if (!force && t - last < intervalMs) return;
    last = t;
    scope.events.send({ type: 'progress', data: p });
  };
}

const withPrefix = (prefix: string) => (s: Skipped) => (prefix ? { ...s, path: prefix + s.path } : s);

/** The index status of the whole workspace: building while any root builds, ready when all are. */
function workspaceIndexStatus(roots: Roots): IndexStatus {
  const all = roots.roots.map((s) => s.indexStatus);
  if (all.length === 1) return all[0];
  const state = all.some((s) => s.state === 'building')
    ? 'building'
    : all.some((s) => s.state === 'failed')
      ? 'failed'
      : all.every((s) => s.state === 'ready')
        ? 'ready'
        : 'none';
  const lasts = all.map((s) => s.last);
  const last = lasts.every((l) => l) ? mergeIndexStats(lasts as IndexStats[]) : null;
  return { state, last, error: all.find((s) => s.error)?.error };
}

function mergeIndexStats(all: IndexStats[]): IndexStats {
  const order = ['cache_hit', 'incremental', 'full'] as const;
  const cancelled = all.some((s) => s.ending === 'cancelled');
  return {
    elapsedMs: all.reduce((a, s) => a + s.elapsedMs, 0),
    ending: cancelled ? 'cancelled' : 'complete',
    refreshMode: order[Math.max(...all.map((s) => order.indexOf(s.refreshMode)))],
    filesScanned: all.reduce((a, s) => a + s.filesScanned, 0),
    chunksIndexed: all.reduce((a, s) => a + s.chunksIndexed, 0),
    filesChanged: all.reduce((a, s) => a + s.filesChanged, 0),
    filesRemoved: all.reduce((a, s) => a + s.filesRemoved, 0),
    builtAt: Math.max(...all.map((s) => s.builtAt)),
    ...(all.find((s) => s.saveError) ? { saveError: all.find((s) => s.saveError)!.saveError } : {}),
    ...(all.every((s) => s.coverage) ? { coverage: mergeCoverage(all.map((s) => s.coverage!)) } : {}),
  };
}

export function createEngineApi(options: EngineApiOptions = {}): EngineApi {
  const host = options.host ?? 'main-thread';
  const progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const edge = new JobEdge({ foregroundGraceMs: options.foregroundGraceMs });
  const git = new GitService(options.indexStore, options.folderHandles);
  const fileGit = new FileGitService(git);
  const histories = new HistoryService(git, {
    store: options.indexStore,
    foreground: edge.foreground,
    yieldBudgetMs: options.yieldBudgetMs,
  });
  /** The root a history request names (default: the first). */
  const historyRoot = (root: unknown) => {
    if (root !== undefined && typeof root !== 'string')
      throw new QuarryError('InvalidArgument', 'root must be a repository key', {
        field: 'root',
        value: root,
      });
    const session = root ? (roots.find(root) ?? notOpen(root)) : roots.roots[0];
    if (!session) throw noRepository();
    return session;
  };
  const roots = createRoots();
  const semantic = new SemanticService({
    loadModel: options.semanticModel,
    store: options.indexStore,
    foreground: edge.foreground,
    yieldBudgetMs: options.yieldBudgetMs,
  });
  const staged = new Map<string, string[]>();

  let chunker: Promise<FileChunker> | null = null;
  let searchPool: SearchPool | null | undefined;
  /** The search threads, started by the first search that needs them (none: this thread). */
  const searchThreads = () =>
    (searchPool === undefined ? (searchPool = options.searchPool?.() ?? null) : searchPool) ?? undefined;
  const getChunker = (): Promise<FileChunker> => {
    const loader = options.grammarLoader;
    if (!loader)
      return Promise.reject(
        new QuarryError('NotFound', 'This build has no grammar loader: the code index is unavailable'),
      );
    chunker ??= (async () =>
      options.parsePool?.(() => edge.foreground.waitMs()) ??
      (await inThreadChunker(loader, { maxParseMs: MAX_PARSE_MS })))().catch((err: unknown) => {
      chunker = null;
      throw err;
    });
    return chunker;
  };
  const sessionDeps: SessionDeps = {
    getChunker,
    indexStore: options.indexStore,
    indexMaxTextBytes: options.indexMaxTextBytes,
    foreground: edge.foreground,
    yieldBudgetMs: options.yieldBudgetMs,
    progressIntervalMs,
    onIndexed: async (session, at) => {
      if (session.libraryId) await git.markIndexed(session.libraryId, at);
    },
  };

  /** Where a spec's files come from, the session's origin and its key. */
  async function resolve(
    spec: RepoSpec,
    pull: PullFiles | undefined,
  ): Promise<{ raw: FileSource; origin: RepoOrigin; key: string }> {
    switch (spec?.kind) {
      case 'demo':
        if (!options.loadDemo)
          throw new QuarryError('NotFound', 'The demo repository is not bundled with this build');
        return { raw: demoSource(await options.loadDemo()), origin: { kind: 'other' }, key: repoKey(spec) };
      case 'handle': {
        const id = await git.folderId(spec.handle);
        return {
          raw: new DirectoryHandleSource(spec.handle, { name: spec.name || spec.handle.name }),
          origin: { kind: 'handle', handle: spec.handle, libraryId: id ?? undefined },
          key: repoKey(spec, id ?? undefined),
        };
      }
      case 'files': {
        const paths = spec.stageId ? [...(staged.get(spec.stageId) ?? []), ...spec.paths] : spec.paths;
        if (spec.stageId) staged.delete(spec.stageId);
        if (!pull)
          throw new QuarryError(
            'InvalidArgument',
            'A folder snapshot needs a pull callback to read its files',
            { field: 'pull' },
          );
        return {
          raw: new PulledSnapshotSource(paths, pull, {
            name: spec.name,
            maxFileBytes: DEFAULT_MAX_FILE_BYTES,
          }),
          origin: { kind: 'other' },
          key: repoKey(spec),
        };
      }
      case 'memory':
        return {
          raw: new MemorySource(spec.files, { name: spec.name, absoluteRoot: `/${spec.name}` }),
          origin: { kind: 'other' },
          key: repoKey(spec),
        };
      case 'git':
        return {
          raw: await git.cloneSource(spec.id, spec.name),
          origin: { kind: 'git', id: spec.id },
          key: repoKey(spec),
        };
      case 'served':
        return { raw: new ServedSource(spec.name), origin: { kind: 'other' }, key: repoKey(spec) };
      default:
        throw new QuarryError(
          'InvalidArgument',
          `Unknown repository kind "${(spec as { kind?: string })?.kind}"`,
          { field: 'kind' },
        );
    }
  }

  /**
   * Open a root: read it into a snapshot aside, then swap it in (replacing the workspace, or
   * added to it with `add`). A cancelled or failed open keeps what was open.
   */
  async function openRoot(
    scope: JobScope<never>,
    spec: RepoSpec,
    pull: PullFiles | undefined,
    open: OpenOptions,
  ): Promise<JobEnd<never, RepoStats>> {
    const t0 = now();
    const { raw, origin, key } = await resolve(spec, pull);
    const snap = await readSnapshot(raw, spec.kind, {
      signal: scope.signal,
      onProgress: throttledProgress(scope, progressIntervalMs),
      yieldBudgetMs: options.yieldBudgetMs,
      readConcurrency: options.readConcurrency,
    });
    if (!snap) {
      const stats: RepoStats = {
        elapsedMs: elapsedSince(t0),
        ending: 'cancelled',
        name: '',
        kind: spec.kind,
        files: 0,
        bytes: 0,
        skippedByReason: {},
        key,
        root: '',
      };
      return { results: [], limitHit: false, skipped: [], stats };
    }
    const session = RepoSession.fromSnapshot(key, origin, snap, sessionDeps);
    if (open.add) roots.add(session);
    else roots.replaceAll(session);
    // In the background: the open is done without loading the git adapter; library() waits for it.
    if (origin.kind === 'handle' && origin.libraryId)
      git.registerFolder(
        origin.handle,
        origin.libraryId,
        snap.stats.name,
        snap.stats.files,
        snap.stats.bytes,
      );
    const prefix = roots.prefixOf(session);
    return {
      results: [],
      limitHit: snap.skipped.length > SKIPPED_IN_END,
      skipped: snap.skipped.slice(0, SKIPPED_IN_END).map(withPrefix(prefix)),
      stats: { ...snap.stats, key, root: prefix.replace(/\/$/, '') || snap.stats.name },
    };
  }

  /** Text search over every root in order, one global cap; each root narrows with its own trigram index once built. */
  async function search(scope: JobScope<GrepFileResult>, request: GrepRequest): Promise<SearchEnd> {
    if (!roots.size) throw noRepository();
    const t0 = now();
    const { maxResults, countLimit } = compileRequest(request); // bad input fails before any file is read
    const batcher = new Batcher<GrepFileResult>(
      (items) => scope.events.send({ type: 'batch', data: items }),
      fileWeight,
    );
    let targets = roots.roots.map((session) => ({
      session,
      prefix: roots.prefixOf(session),
      directory: request.directory,
    }));
    if (roots.multiRoot && request.directory) {
      const r = roots.route(request.directory, 'directory');
      targets = [{ session: r.root, prefix: r.prefix, directory: r.rel }];
    }
    const stats = {
      total: 0,
      delivered: 0,
      filesSearched: 0,
      filesMatched: 0,
      totalIsExact: true,
      limitHit: false,
    };
    const skipped: Skipped[] = [];
    let ending: SearchEnd['stats']['ending'] = 'complete';
    const strategies = new Set<string>();
    for (const { session, prefix, directory } of targets) {
      const remainingCount = countLimit === Infinity ? undefined : Math.max(0, countLimit - stats.total);
      if (stats.delivered >= maxResults && remainingCount !== undefined && remainingCount <= 0) {
        stats.totalIsExact = false; // more roots were not looked at
        break;
      }
      const summary = await searchWorkspace(
        session.workspace,
        {
          ...request,
          directory,
          maxResults: Math.max(0, maxResults - stats.delivered),
          countLimit: remainingCount,
        },
        (r) => {
          const file = prefix
            ? { path: prefix + r.path, matches: r.matches.map((m) => ({ ...m, path: prefix + m.path })) }
            : r;
          // a file with many hits, or hits on long lines, goes in slices: no one message the page takes long to receive
          for (const slice of fileSlices(file)) batcher.push(slice);
        },
        {
          signal: scope.signal,
          yielder: createYielder(options.yieldBudgetMs),
          prefilter: session.prefilter(),
          pool: searchThreads(),
        },
      );
      stats.total += summary.total;
      stats.delivered += summary.delivered;
      stats.filesSearched += summary.filesSearched;
      stats.filesMatched += summary.filesMatched;
      stats.totalIsExact &&= summary.totalIsExact;
      stats.limitHit ||= summary.limitHit;
      skipped.push(...summary.skipped.map(withPrefix(prefix)));
      strategies.add(summary.strategy);
      ending = summary.ending;
      if (summary.ending !== 'complete') break;
    }
    return {
      results: batcher.drain(),
      limitHit: stats.limitHit,
      skipped,
      stats: {
        elapsedMs: elapsedSince(t0),
        ending,
        total: stats.total,
        totalIsExact: stats.totalIsExact,
        delivered: stats.delivered,
        filesSearched: stats.filesSearched,
        filesMatched: stats.filesMatched,
        strategy: [...strategies].join('+'),
      },
    };
  }

  /** Build or refresh the code index of one root (by key) or of every root, one after the other. */
  async function indexRoots(
    scope: JobScope<never>,
    request: IndexRequest,
  ): Promise<JobEnd<never, IndexStats>> {
    if (!roots.size) throw noRepository();
    const root = request?.root;
    if (root !== undefined && typeof root !== 'string')
      throw new QuarryError('InvalidArgument', 'root must be a repository key', {
        field: 'root',
        value: root,
      });
    const targets = root ? [roots.find(root) ?? notOpen(root)] : [...roots.roots];
    const ends: JobEnd<never, IndexStats>[] = [];
    for (const session of targets) {
      // a root closed (removed, or replaced by a reopen) meanwhile is no longer this job's
      if (!roots.roots.includes(session)) continue;
      const prefix = roots.prefixOf(session);
      const end = await session.buildIndex({
        signal: scope.signal,
        force: !!request?.force,
        onProgress: (p) => scope.events.send({ type: 'progress', data: p }),
      });
      if (end.stats.ending !== 'complete' && !roots.roots.includes(session)) continue;
      ends.push({ ...end, skipped: end.skipped.map(withPrefix(prefix)) });
      if (scope.signal.aborted) break;
    }
    if (!ends.length) {
      const stats: IndexStats = {
        elapsedMs: 0,
        ending: 'cancelled',
        refreshMode: 'full',
        filesScanned: 0,
        chunksIndexed: 0,
        filesChanged: 0,
        filesRemoved: 0,
        builtAt: 0,
      };
      return { results: [], limitHit: false, skipped: [], stats };
    }
    if (ends.length === 1) return ends[0];
    return {
      results: [],
      limitHit: ends.some((e) => e.limitHit),
      skipped: ends.flatMap((e) => e.skipped).slice(0, SKIPPED_IN_END),
      stats: mergeIndexStats(ends.map((e) => e.stats)),
    };
  }

  const notOpen = (key: string): never => {
    throw new QuarryError('NotFound', `No open root has the key "${key}"`, {
      field: 'root',
      value: key,
      reason: 'noSuchRoot',
    });
  };

  /** explore's git agent: a root's history, paths root-relative. */
  const rootHistory = async (rootIndex: number, limit: number): Promise<HistoryPortResult> => {
    const session = roots.roots[rootIndex];
    if (!session) throw noRepository();
    const h = await git.history(session, limit);
    return h.available
      ? {
          available: true,
          branch: h.branch ?? null,
          head: h.head ?? null,
          shallow: !!h.shallow,
          commits: h.commits ?? [],
          uncommitted: h.uncommitted,
        }
      : { available: false, reason: h.reason ?? 'No git history.' };
  };
  const nav = new NavService(roots, getChunker);
  const api: EngineApi = {
    ping: () => edge.call(() => ({ host, repo: roots.roots[0]?.stats ?? null, roots: rootInfo(roots) })),
    openRepo: (jobId, spec, onEvent, pull, open) =>
      edge.job(jobId, onEvent, (scope) => openRoot(scope, spec, pull, open ?? {})),
    closeRoot: (key) => edge.call(() => roots.remove(String(key))),
    roots: () => edge.call(() => rootInfo(roots)),
    search: (jobId, request, onEvent) =>
      edge.job(jobId, onEvent, (scope) => search(scope, request), { foreground: true }),
    cancel: (jobId) => edge.call(() => edge.cancel(jobId)),
    stagePaths: (stageId, paths) =>
      edge.call(() => {
        const list = staged.get(stageId) ?? [];
        for (const p of paths) list.push(String(p));
        staged.set(stageId, list);
        return list.length;
      }),
    listDir: (path) =>
      edge.foregroundCall(() => {
        if (roots.multiRoot && !String(path ?? '').replace(/^\/+|\/+$/g, '')) {
          // The workspace's top level: one directory per root.
          const names = roots.names();
          return roots.roots.map((s, i) => ({
            name: names[i],
            path: names[i],
            kind: 'directory' as const,
            childCount: s.listDir('').length,
            root: s.key,
          }));
        }
        const { root: session, rel, prefix } = roots.route(String(path ?? ''), 'path');
        const entries = session.listDir(rel);
        return prefix ? entries.map((e) => ({ ...e, path: prefix + e.path })) : entries;
      }),
    quickOpen: (query, limit) =>
      edge.foregroundCall(() => {
        if (!roots.size) throw noRepository();
        const max = Math.max(1, Math.min(limit, 500));
        if (!roots.multiRoot) return fuzzyRank(roots.roots[0].quick, String(query ?? ''), max);
        const hits = roots.roots.flatMap((s) => {
          const prefix = roots.prefixOf(s);
          // positions index into the path the UI shows, so they shift by the prefix
          return fuzzyRank(s.quick, String(query ?? ''), max).map((h) => ({
            ...h,
            path: prefix + h.path,
            positions: h.positions.map((p) => p + prefix.length),
          }));
        });
        return hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, max);
      }),
    readFile: (path, highlight) =>
      edge.foregroundCall(async () => {
        if (typeof path !== 'string' || !path)
          throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
        const { root: session, rel, prefix } = roots.route(path);
        const content = await session.readFile(rel, highlight);
        return prefix ? { ...content, path: prefix + content.path } : content;
      }),
    readBytes: (path, maxBytes) =>
      edge.foregroundCall(async () => {
        if (typeof path !== 'string' || !path)
          throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
        if (
          maxBytes !== undefined &&
          !(typeof maxBytes === 'number' && Number.isFinite(maxBytes) && maxBytes > 0)
        )
          throw new QuarryError(
            'InvalidArgument',
            `maxBytes must be a positive number, not ${String(maxBytes)}`,
            { field: 'maxBytes' },
          );
        const { root: session, rel } = roots.route(path);
        const bytes = await session.readBytes(
          rel,
          Math.min(maxBytes ?? READ_BYTES_MAX_BYTES, READ_BYTES_MAX_BYTES),
        );
        return { path, bytes };
      }),
    readMarkdown: (path) =>
      edge.foregroundCall(async () => {
        if (typeof path !== 'string' || !path)
          throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
        const { root: session, rel, prefix } = roots.route(path);
        const content = await session.readFile(rel);
        // the lexer is loaded on the first Markdown file, not with the worker
        const { markdownDocument } = await import('./markdown-tree');
        return markdownDocument(content.text, content.bytes, path, prefix);
      }),
    indexRepo: (jobId, request, onEvent) => edge.job(jobId, onEvent, (scope) => indexRoots(scope, request)),
    indexStatus: () =>
      edge.call(() => {
        if (!roots.size) throw noRepository();
        return workspaceIndexStatus(roots);
      }),
    enableSemantic: (jobId, onEvent) =>
      edge.job(jobId, onEvent, (scope) => {
        if (!roots.size) throw noRepository();
        return semantic.enable(roots, scope.signal, throttledProgress(scope, progressIntervalMs));
      }),
    semanticStatus: () => edge.call(() => semantic.status(roots)),
    skipped: (offset, limit) =>
      edge.call(() => {
        if (!roots.size) throw noRepository();
        // the walk's skips, then what the index keeps out of the ranked index (text search still has those)
        const all = roots.roots.flatMap((s) =>
          [...s.skipped, ...s.indexSkipped].map(withPrefix(roots.prefixOf(s))),
        );
        return { total: all.length, items: all.slice(offset, offset + limit) };
      }),
    callTool: (name, args) =>
      edge.call(async () => {
        if (!roots.size) throw noRepository();
        // A person waits on the answer, so the index build gives way while the tool runs; but while
        // the tool itself waits for that build, the build must not give way to it.
        let end = edge.foreground.begin();
        const background = async <T>(fn: () => Promise<T>): Promise<T> => {
          end();
          try {
            return await fn();
          } finally {
            end = edge.foreground.begin();
          }
        };
        try {
          return await dispatchTool(roots, String(name), args, {
            grammarLoader: options.grammarLoader,
            background,
            semantic,
            history: rootHistory,
          });
        } finally {
          end();
        }
      }),
    explore: (jobId, args, onEvent) =>
      edge.job(jobId, onEvent, async (scope) => {
        if (!roots.size) throw noRepository();
        const t0 = now();
        const dispatch = {
          grammarLoader: options.grammarLoader,
          semantic,
          signal: scope.signal,
          history: rootHistory,
        };
        try {
          const report = await exploreForView(roots, args, dispatch, (r) =>
            scope.events.send({ type: 'batch', data: [r] }),
          );
          return {
            results: [report],
            limitHit: false,
            skipped: [],
            stats: { elapsedMs: elapsedSince(t0), ending: 'complete' as const },
          };
        } catch (err) {
          if (!scope.signal.aborted) throw err;
          return {
            results: [],
            limitHit: false,
            skipped: [],
            stats: { elapsedMs: elapsedSince(t0), ending: 'cancelled' as const },
          };
        }
      }),
    definitions: (request) => edge.foregroundCall(() => nav.definitions(request)),
    references: (jobId, request, onEvent) =>
      edge.job(
        jobId,
        onEvent,
        async (scope) => {
          const t0 = now();
          const batcher = new Batcher<ReferenceFile>(
            (items) => scope.events.send({ type: 'batch', data: items }),
            (f) => f.lines.length,
          );
          const r = await nav.references(request, { signal: scope.signal, onFile: (f) => batcher.push(f) });
          const ending = scope.signal.aborted ? ('cancelled' as const) : ('complete' as const);
          return {
            results: batcher.drain(),
            limitHit: r.limitHit,
            skipped: [],
            stats: { elapsedMs: elapsedSince(t0), ending, total: r.total, limitHit: r.limitHit },
          };
        },
        { foreground: true },
      ),
    outline: (path) => edge.foregroundCall(() => nav.outline(path)),
    workspaceSymbols: (query, limit) => edge.foregroundCall(() => nav.workspaceSymbols(query, limit)),
    cloneRepo: (jobId, request, onEvent) => edge.job(jobId, onEvent, (scope) => git.clone(scope, request)),
    fetchRepo: (jobId, id, auth, onEvent) => edge.job(jobId, onEvent, (scope) => git.fetch(scope, id, auth)),
    deepenRepo: (jobId, id, by, auth, onEvent) =>
      edge.job(jobId, onEvent, (scope) => git.deepen(scope, id, by, auth)),
    library: () => edge.call(() => git.library()),
    recentFolders: () => edge.call(() => git.recentFolders()),
    deleteRepo: (id) => edge.call(() => git.delete(id)),
    fileGitStatus: (path) =>
      edge.call(() => {
        const { root: session } = roots.route(String(path ?? ''));
        return fileGit.status(session);
      }),
    fileDiff: (request) =>
      edge.foregroundCall(() => {
        const { root: session, rel, prefix } = roots.route(request?.path, 'path');
        return fileGit.diff(session, rel, prefix, request?.commit);
      }),
    fileHistory: (jobId, path, onEvent) =>
      edge.job(jobId, onEvent, (scope) => {
        const { root: session, rel } = roots.route(path);
        return fileGit.history(scope, session, rel);
      }),
    blame: (jobId, path, onEvent) =>
      edge.job(jobId, onEvent, (scope) => {
        const { root: session, rel, prefix } = roots.route(path);
        return fileGit.blame(scope, session, rel, prefix);
      }),
    history: (request) =>
      edge.foregroundCall(() => {
        const limit = Math.max(1, Math.min(500, Math.floor(Number(request?.limit ?? 50)) || 50));
        const session = request?.root ? (roots.find(request.root) ?? notOpen(request.root)) : roots.roots[0];
        if (!session) throw noRepository();
        return git.history(session, limit, roots.prefixOf(session));
      }),
    historyLog: (jobId, request, onEvent) =>
      edge.job(jobId, onEvent, (scope) => {
        const session = historyRoot(request?.root);
        return histories.log(scope, session, roots.prefixOf(session));
      }),
    commitChanges: (request) =>
      edge.foregroundCall(() => {
        const session = historyRoot(request?.root);
        return histories.changes(session, roots.prefixOf(session), request?.oid);
      }),
  };
  return api;
}

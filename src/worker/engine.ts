/**
 * The engine's remote surface, composed from the method table (protocol-methods.ts): each
 * service of engine/ gives its handlers over one shared context (engine/context.ts), and
 * engine/api.ts wraps every handler in the job edge by its kind. The open workspace is core's
 * RepoWorkspace of RepoSessions (roots.ts, session.ts); git and the library are the GitService;
 * tools are dispatched by engine-tools.ts. The web worker exposes this with Comlink; the
 * main-thread fallback and the tests call it directly.
 *
 * Where things happen, for a newcomer:
 *   a session opens ............ openRoot() in engine/repos.ts (read into a snapshot, then swapped in)
 *   a repository key is made ... repoKey() in session.ts (never by the UI)
 *   a tool is dispatched ....... dispatchTool() in engine-tools.ts
 */
import { QuarryError } from '../core/errors';
import type { SearchPool } from '../core/grep/pool';
import { inThreadChunker } from '../core/chunk/any';
import type { FileChunker } from '../core/chunk/pool';
import { MAX_PARSE_MS } from '../core/limits';
import type { GrammarLoader } from '../core/chunk/types';
import type { IndexStore } from '../core/rank/persist';
import type { DemoFiles } from '../adapters/browser/demo';
import { JobEdge } from './edge';
import { NavService } from './nav';
import { GitService, type FolderHandles } from './git-service';
import { FileGitService } from './file-git';
import { HistoryService } from './history-job';
import { createRoots } from './roots';
import { SemanticService, type SemanticModelLoader } from './semantic';
import type { EngineApi, EngineInfo } from './protocol';
import { deriveApi } from './engine/api';
import type { EngineContext } from './engine/context';
import { indexHandlers } from './engine/indexing';
import { gitHandlers, navHandlers } from './engine/nav-git';
import { repoHandlers } from './engine/repos';
import { searchHandlers } from './engine/search';
import { toolHandlers } from './engine/tools';

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

export function createEngineApi(options: EngineApiOptions = {}): EngineApi {
  const progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const edge = new JobEdge({ foregroundGraceMs: options.foregroundGraceMs });
  const git = new GitService(options.indexStore, options.folderHandles);
  const roots = createRoots();
  let chunker: Promise<FileChunker> | null = null;
  let searchPool: SearchPool | null | undefined;
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
  const ctx: EngineContext = {
    options,
    edge,
    roots,
    git,
    fileGit: new FileGitService(git),
    histories: new HistoryService(git, {
      store: options.indexStore,
      foreground: edge.foreground,
      yieldBudgetMs: options.yieldBudgetMs,
    }),
    semantic: new SemanticService({
      loadModel: options.semanticModel,
      store: options.indexStore,
      foreground: edge.foreground,
      yieldBudgetMs: options.yieldBudgetMs,
    }),
    nav: new NavService(roots, getChunker),
    getChunker,
    searchThreads: () =>
      (searchPool === undefined ? (searchPool = options.searchPool?.() ?? null) : searchPool) ?? undefined,
    progressIntervalMs,
    sessionDeps: {
      getChunker,
      indexStore: options.indexStore,
      indexMaxTextBytes: options.indexMaxTextBytes,
      foreground: edge.foreground,
      yieldBudgetMs: options.yieldBudgetMs,
      progressIntervalMs,
      onIndexed: async (session, at) => {
        if (session.libraryId) await git.markIndexed(session.libraryId, at);
      },
    },
  };
  return deriveApi(edge, {
    ...repoHandlers(ctx),
    ...searchHandlers(ctx),
    ...indexHandlers(ctx),
    ...toolHandlers(ctx),
    ...navHandlers(ctx),
    ...gitHandlers(ctx),
  });
}

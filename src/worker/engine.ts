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
import { JobEdge } from './edge';
import { NavService } from './nav';
import { GitService } from './git-service';
import { FileGitService } from './file-git';
import { HistoryService } from './history-job';
import { createRoots } from './roots';
import { SemanticService } from './semantic';
import type { EngineApi } from './protocol';
import { deriveApi } from './engine/api';
import type { EngineContext } from './engine/context';
import type { EngineApiOptions } from './engine/options';
import { indexHandlers } from './engine/indexing';
import { gitHandlers, navHandlers } from './engine/nav-git';
import { repoHandlers } from './engine/repos';
import { searchHandlers } from './engine/search';
import { toolHandlers } from './engine/tools';
import { viewerHandlers } from './engine/viewer';

export type { EngineApiOptions } from './engine/options';

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
      builtIn: options.semanticBuiltIn,
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
      holdContents: options.holdContents,
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
    ...viewerHandlers(ctx),
    ...navHandlers(ctx),
    ...gitHandlers(ctx),
  });
}

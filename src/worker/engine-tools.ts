/**
 * Tool dispatch for the app: core's one callTool over every tool the app serves (ALL_TOOLS: the
 * contracts of core/tools, and the view tools of core/tools/views behind Ranked mode, Semantic
 * mode, the Related panel and the Features view), over a ToolContext made of the open sessions.
 * The CLI's `quarry call` serves the same tools over the same kind of workspace, so the views'
 * answers are the CLI's answers for the same folder. This module only adapts the engine to the
 * context: the sessions as WorkspaceRoots (a wait for an index build outside the caller's
 * foreground), the parsers, the semantic service, the history.
 */
import { sharedSourceParsers } from '../core/analyze/parsers';
import type { GrammarLoader } from '../core/chunk/types';
import { ALL_TOOLS, callTool, toolFields } from '../core/tools';
import type { SemanticPort, ToolContext } from '../core/tools/types';
import type { WorkspaceRoot } from '../core/workspace/root';
import { exploreTool, parseExploreArgs } from '../core/tools/explore';
import { runExplore } from '../core/explore/run';
import type { ExploreResult } from '../core/explore/types';
import { rejectUnknownFields } from '../core/tools/validate';
import type { SemanticService } from './semantic';
import type { Roots } from './roots';

export interface DispatchOptions {
  grammarLoader?: GrammarLoader;
  signal?: AbortSignal;
  /** Runs a wait (for an index build) outside the caller's foreground, so the build does not give way to it. */
  background?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The engine's semantic search (model and vectors); without it semantic_search and semantic_code_search answer EngineError. */
  semantic?: SemanticService;
  /** A root's git history (explore's git agent), paths root-relative. */
  history?: ToolContext['history'];
}

/**
 * The engine's SemanticService as core's port: every root's complete index (NotFound 'indexNotReady'
 * before any model work), then the vectors. The tool waits for that sync, so the sync runs outside
 * the tool's foreground (`background`): inside it, its background yielder gave way to the very
 * call waiting for it, up to MAX_BACKGROUND_WAIT_MS a yield (a first semantic_search over two small
 * roots took ~9 s, nearly all of it asleep).
 */
export function semanticPort(
  roots: Roots,
  semantic: SemanticService,
  background: <T>(fn: () => Promise<T>) => Promise<T>,
): SemanticPort {
  // the tool's budget (semantic_search: a first answer from what is embedded so far) reaches the service
  return (signal, options) => {
    for (const session of roots.roots) session.readyIndex();
    return background(() => semantic.sync(roots, { signal, ...options }));
  };
}

/** What core's tools get in the app: the workspace, the parsers, the rankings, the history. */
function toolContext(roots: Roots, options: DispatchOptions): ToolContext {
  const { grammarLoader, signal } = options;
  const background = options.background ?? (<T>(fn: () => Promise<T>) => fn());
  const parsers = grammarLoader ? () => sharedSourceParsers(grammarLoader) : undefined;
  return {
    workspace: roots.files(),
    // every session as a WorkspaceRoot; a wait for a seed-004 index runs outside the caller's foreground
    roots: roots.toolRoots((session): WorkspaceRoot => ({
      key: session.key,
      source: session.source,
      state: session.state,
      get codeIndexReady() {
        return session.codeIndexReady;
      },
      seedIndex: (s) => background(() => session.seedIndex(s)),
      codeIndex: () => session.codeIndex(),
      lines: (path) => session.lines(path),
      close: () => session.close(),
    })),
    parsers,
    signal,
    ...(options.history ? { history: options.history } : {}),
    ...(options.semantic ? { semantic: semanticPort(roots, options.semantic, background) } : {}),
  };
}

/** The Explore view: explore's report streamed, the report so far sent each time an analyzer finishes. */
export function exploreForView(
  roots: Roots,
  args: unknown,
  options: DispatchOptions,
  onUpdate: (report: ExploreResult) => void,
): Promise<ExploreResult> {
  rejectUnknownFields(args, toolFields(exploreTool));
  return runExplore(toolContext(roots, options), parseExploreArgs(args), { onUpdate });
}

/** Every tool the app serves, by name and with core's strict checks: contracts and view tools alike. */
export function dispatchTool(
  roots: Roots,
  name: string,
  args: unknown,
  options: DispatchOptions = {},
): Promise<unknown> {
  return callTool(name, args, toolContext(roots, options), ALL_TOOLS);
}

/**
 * Tool dispatch for the app: the contract tools of core/tools, plus the engine's own tools
 * behind the app's views — `ranked_view` (Ranked mode), `semantic_search` (Semantic mode, and
 * Ranked's hybrid once the model is loaded), `related_view` (the Related panel) and
 * `flag_inventory` (the Features view). All go through one entry, `callTool`,
 * with strict argument checks; the Related panel takes find_related's own argument rules and
 * errors, so the app and an agent get the same answer to the same bad input. The views answer
 * in the UI's shapes (snippet lines with marked ranges, score components); core's
 * `ranked_search` and `related_code` contracts rank the same way for programs, from the same
 * sessions' indexes (toolContext's codeIndexes).
 */
import { flagInventory } from '../core/analyze/features';
import { sharedSourceParsers } from '../core/analyze/parsers';
import type { GrammarLoader } from '../core/chunk/types';
import { QuarryError } from '../core/errors';
import type { HitRange } from '../core/grep/types';
import { elapsedSince, now } from '../core/jobs/yielder';
import { queryWords } from '../core/rank/ranked';
import { relatedAtLine } from '../core/rank/related';
import { markTerms } from '../core/rank/mark-terms';
import { callTool as callCoreTool, toolFields, TOOLS } from '../core/tools';
import { checkRelatedLine, findRelated, NO_RELATED, parseFindRelatedArgs } from '../core/tools/find-related';
import type { ToolContext } from '../core/tools/types';
import { rankAcrossRoots } from '../core/workspace/ranked';
import type { WorkspaceRoot } from '../core/workspace/root';
import { exploreTool, parseExploreArgs } from '../core/tools/explore';
import { runExplore } from '../core/explore/run';
import type { ExploreResult } from '../core/explore/types';
import {
  ensureObject,
  optionalEnum,
  optionalInt,
  rejectUnknownFields,
  requiredString,
} from '../core/tools/validate';
import { compilePathFilter } from '../core/walk/glob';
import type {
  ChunkRef,
  RankedHitView,
  RankedResult,
  RelatedResult,
  SemanticHitView,
  SemanticResult,
  SnippetLine,
} from './protocol';
import { semanticSearch, type SemanticType } from '../core/semantic/search';
import type { SemanticService } from './semantic';
import type { RepoSession } from './session';
import type { Roots } from './roots';

/** Ranked results returned to the UI. */
const RANKED_LIMIT_MAX = 200;
/** Snippet lines per Ranked hit (the chunk's first line and its first matching lines). */
const SNIPPET_MATCH_LINES = 3;
const SNIPPET_LINE_CHARS = 300;

/** The engine's own tools (not contracts of a seed): names the app's views call. */
export const ENGINE_TOOLS = ['ranked_view', 'semantic_search', 'related_view', 'flag_inventory'] as const;

/** The fields each engine tool reads; any other is refused, as core's callTool refuses it for the contracts. */
const ENGINE_TOOL_FIELDS: Record<(typeof ENGINE_TOOLS)[number], readonly string[]> = {
  ranked_view: ['query', 'limit', 'include', 'exclude', 'extensions'], // RankedRequest
  semantic_search: ['query', 'type', 'limit', 'include', 'exclude', 'extensions'], // SemanticRequest
  related_view: toolFields(findRelated), // find_related's rules
  flag_inventory: [],
};

/** Only a chunk's location crosses the boundary (index chunks carry more). */
function chunkRef(c: ChunkRef, prefix: string): ChunkRef {
  return {
    path: prefix + c.path,
    startLine: c.startLine,
    endLine: c.endLine,
    symbolName: c.symbolName,
    chunkType: c.chunkType,
  };
}

function optionalStrings(args: Record<string, unknown>, field: string): string[] | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new QuarryError('InvalidArgument', `${field} must be an array of strings`, { field, value: v });
  return v as string[];
}

/** The arguments Ranked and Semantic mode share: the query, a limit, the path filters. */
function listArgs(args: Record<string, unknown>) {
  return {
    query: requiredString(args, 'query', { allowEmpty: true }),
    limit: optionalInt(args, 'limit', 50, 1, RANKED_LIMIT_MAX),
    pathTest: compilePathFilter({
      include: optionalStrings(args, 'include'),
      exclude: optionalStrings(args, 'exclude'),
      extensions: optionalStrings(args, 'extensions'),
      fields: { include: 'include', exclude: 'exclude', extensions: 'extensions' },
    }),
  };
}

/** Ranked mode: chunks ranked for people over every root's index, with snippets and score components. */
async function rankedView(roots: Roots, raw: unknown): Promise<RankedResult> {
  const t0 = now();
  const { query, limit, pathTest } = listArgs(ensureObject(raw));
  const { words } = queryWords(query);
  if (!words.length) return { hits: [], words, elapsedMs: elapsedSince(t0) };
  // Rank within each root whose index is complete, merged by score (core/workspace/ranked.ts, as
  // ranked_search does); with none ready, the first root says why.
  const ready = roots.roots.filter((s) => s.indexReady);
  const parts = (ready.length ? ready : roots.roots.slice(0, 1)).map((session) => ({
    prefix: roots.prefixOf(session),
    index: session.readyIndex().index,
    session,
  }));
  // filters read paths within each root, as Text search and the CLI's tools do with several roots
  const merged = rankAcrossRoots(parts, query, limit, pathTest ? (_, c) => pathTest(c.path) : undefined).map(
    ({ hit, part }) => ({ h: hit, session: part.session, prefix: part.prefix }),
  );
  const caches = new Map<unknown, Map<string, string[] | null>>();
  const hits: RankedHitView[] = [];
  for (const { h, session, prefix } of merged) {
    const terms = new Set<string>();
    for (const comp of h.components) for (const v of comp.via) terms.add(v);
    const lines = await snippetLines(session, h.chunk, terms, caches);
    hits.push({
      ...chunkRef(h.chunk, prefix),
      score: h.score,
      exactSymbol: h.exactSymbol,
      prior: h.prior,
      discounts: [...h.discounts],
      components: h.components.map((x) => ({ ...x, via: [...x.via] })),
      lines,
    });
  }
  return { hits, words, elapsedMs: elapsedSince(t0) };
}

/** Words of a question marked in no snippet. */
const QUESTION_WORDS = new Set(
  'the and for into from with that this what where when which who how why does did are was were has have had can could should would will not but all any our your their its his her them they there here then than also just only over under about after before while each every some such very more most other out off upon via per get set use'.split(
    ' ',
  ),
);

/** A hit's snippet: the chunk's first line and its first lines with a term, each with the terms marked. */
async function snippetLines(
  session: RepoSession,
  c: ChunkRef,
  terms: ReadonlySet<string>,
  caches: Map<unknown, Map<string, string[] | null>>,
): Promise<Array<SnippetLine | null>> {
  if (!caches.has(session)) caches.set(session, new Map());
  const all = await session.fileLines(c.path, caches.get(session));
  const lines: Array<SnippetLine | null> = [];
  if (!all) return lines;
  const cut = (n: number): SnippetLine => {
    const text = (all[n - 1] ?? '').slice(0, SNIPPET_LINE_CHARS);
    return { line: n, text, ranges: markTerms(text, terms) as HitRange[] };
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
  return lines;
}

/**
 * Semantic mode: semantic_code_search's engine over every root (the vectors brought level with
 * the index first), with the UI's path filters, snippets and each hit's why. The words marked
 * in a snippet are the lexical terms that matched, else the query's own words.
 */
async function semanticSearchTool(
  roots: Roots,
  raw: unknown,
  semantic: SemanticService,
  signal?: AbortSignal,
): Promise<SemanticResult> {
  const t0 = now();
  const args = ensureObject(raw);
  const { query, limit, pathTest } = listArgs(args);
  const type = optionalEnum<SemanticType>(args, 'type', ['semantic', 'hybrid'], 'hybrid');
  const { words } = queryWords(query);
  if (!query.trim()) return { hits: [], type, words, elapsedMs: elapsedSince(t0) };
  for (const s of roots.roots) s.readyIndex(); // NotFound 'indexNotReady' before any model work
  const { model, roots: semanticRoots } = await semantic.sync(roots, { signal });
  // a question's little words ("where do we...") are not what a hit is about: not marked
  const questionWords = words.filter((w) => w.length > 2 && !QUESTION_WORDS.has(w));
  const results = await semanticSearch(semanticRoots, model, {
    query,
    type,
    limit,
    ...(pathTest ? { pathTest } : {}),
  });
  const caches = new Map<unknown, Map<string, string[] | null>>();
  const hits: SemanticHitView[] = [];
  for (const r of results) {
    const { root: session, rel, prefix } = roots.route(r.path, 'path');
    const ref: ChunkRef = {
      path: rel,
      startLine: r.startLine,
      endLine: r.endLine,
      symbolName: r.symbol,
      chunkType: r.chunkType as ChunkRef['chunkType'],
    };
    const lines = await snippetLines(
      session,
      ref,
      new Set(r.why.terms.length ? r.why.terms : questionWords),
      caches,
    );
    hits.push({ ...chunkRef(ref, prefix), score: r.score, why: r.why, lines });
  }
  return { hits, type, words, elapsedMs: elapsedSince(t0) };
}

/**
 * The Related panel: chunks related to the one containing path:line, ranked for people
 * (core/rank/related-people.ts: size-normalised similarity, siblings first, each hit with its
 * reasons), with find_related's argument rules and errors.
 */
async function relatedView(roots: Roots, raw: unknown): Promise<RelatedResult> {
  const args = parseFindRelatedArgs(raw);
  // `root` (a root's name or key) makes `path` relative to that root, as in find_related
  const named =
    args.root === undefined
      ? undefined
      : (roots.named(args.root) ?? roots.roots.find((s) => s.name === args.root));
  if (args.root !== undefined && !named)
    throw new QuarryError('InvalidArgument', `root is not an open repository: ${args.root}`, {
      field: 'root',
      value: args.root,
    });
  let routed: ReturnType<Roots['route']>;
  try {
    routed = roots.route(named ? roots.prefixOf(named) + args.path : args.path, 'path');
  } catch (err) {
    // a path in no open root has no chunk: find_related's answer
    if (err instanceof QuarryError && err.reason === 'noSuchRoot')
      throw new QuarryError('EngineError', NO_RELATED, {
        path: args.path,
        line: args.line,
        reason: 'noChunk',
      });
    throw err;
  }
  const { root: session, rel, prefix } = routed;
  const { index } = session.readyIndex();
  checkRelatedLine(args.line);
  const at = await relatedAtLine(index, rel, args.line, () => session.fileLines(rel), args.limit);
  if (!at)
    throw new QuarryError('EngineError', NO_RELATED, { path: args.path, line: args.line, reason: 'noChunk' });
  return {
    seed: chunkRef(at.seed, prefix),
    results: at.related.map((r) => ({
      ...chunkRef(r.chunk, prefix),
      score: r.score,
      sharedTerms: r.sharedTerms,
      reasons: r.reasons,
    })),
  };
}

/** Every tool the app can call, by name: core's contracts and the engine's own. */
export function toolNames(): string[] {
  return [...TOOLS.map((t) => t.name), ...ENGINE_TOOLS];
}

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
    ...(options.semantic
      ? {
          semantic: (s?: AbortSignal) => {
            for (const session of roots.roots) session.readyIndex();
            return options.semantic!.sync(roots, { signal: s });
          },
        }
      : {}),
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

export async function dispatchTool(
  roots: Roots,
  name: string,
  args: unknown,
  options: DispatchOptions = {},
): Promise<unknown> {
  const { grammarLoader, signal } = options;
  const parsers = grammarLoader ? () => sharedSourceParsers(grammarLoader) : undefined;
  // the contracts are checked by core's callTool below, the engine's own tools here, with the same check
  if (Object.hasOwn(ENGINE_TOOL_FIELDS, name))
    rejectUnknownFields(args, ENGINE_TOOL_FIELDS[name as keyof typeof ENGINE_TOOL_FIELDS]);
  switch (name) {
    case 'ranked_view':
      return rankedView(roots, args);
    case 'semantic_search':
      if (!options.semantic)
        throw new QuarryError(
          'EngineError',
          'semantic search needs the embedding model, and this host provides none',
        );
      return semanticSearchTool(roots, args, options.semantic, signal);
    case 'related_view':
      return relatedView(roots, args);
    case 'flag_inventory': {
      // A view helper, not a contract: the Features view lists every flag before a feature name is typed.
      ensureObject(args);
      if (!parsers)
        throw new QuarryError(
          'EngineError',
          'flag_inventory needs the JavaScript/TypeScript parsers, and this host provides none',
        );
      const r = await flagInventory(roots.files(), await parsers());
      return { ...r.inventory, filesScanned: r.filesScanned, skipped: r.skipped };
    }
  }
  const ctx = toolContext(roots, options);
  if (!TOOLS.some((t) => t.name === name)) {
    throw new QuarryError('InvalidArgument', `Unknown tool "${name}". Tools: ${toolNames().join(', ')}`, {
      field: 'tool',
      value: name,
    });
  }
  return callCoreTool(name, args, ctx);
}

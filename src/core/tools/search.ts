/**
 * search: the app's search box for programs (issue 35). One query in the query language
 * (core/query: terms, "phrases", /regex/, file:, -file:, lang:, case:, root:, type:, select:,
 * count:, author:, before:, after:, AND / OR / NOT) answered with typed results per `type:`:
 *   file (default) ... matching lines, or with select:file the files and their counts
 *   symbol ........... definitions from the symbol table, ranked as Go to Symbol ranks them
 *   commit ........... commits whose message (and author, dates) match, hits marked
 *   diff ............. commits whose added or removed lines match (git log -G's choice)
 */
import { QuarryError } from '../errors';
import { DEFAULT_MAX_RESULTS } from '../grep/compile-request';
import { searchWorkspace } from '../grep/search';
import type { GrepFileResult } from '../grep/types';
import { SymbolTable } from '../nav/symbol-table';
import { parseQuery } from '../query/parse';
import { planQuery, type QueryPlan } from '../query/plan';
import { PATTERN_CHECK, planPathTest } from '../query/plan-engine';
import type { HistoryResult, HistorySearchSummary, SymbolResult } from '../query/results';
import { searchSymbols, type SymbolSource } from '../query/symbols';
import { ensureCodeIndexes } from './index-context';
import { truncateLine, type Tool, type ToolContext } from './types';
import { ensureObject, optionalInt, optionalString } from './validate';

export const SEARCH_LIMIT_DEFAULT = 50;
export const SEARCH_LIMIT_MAX = 1000;

export interface SearchArgs {
  query: string;
  limit: number;
  mode: 'literal' | 'regex';
  caseSensitive: boolean;
}

export type SearchToolResult =
  | {
      type: 'file';
      results: { path: string; line: number; text: string; ranges: [number, number][] }[];
      total: number;
      complete: boolean;
    }
  | {
      type: 'file';
      select: 'file';
      results: { path: string; matches: number }[];
      total: number;
      complete: boolean;
    }
  | { type: 'symbol'; results: SymbolResult[]; total: number }
  | ({ type: 'commit' | 'diff'; results: HistoryResult[] } & Omit<HistorySearchSummary, 'oldest'> & {
        oldest: string | null;
      });

export function parseSearchArgs(raw: unknown): SearchArgs {
  const args = ensureObject(raw);
  if (typeof args.query !== 'string')
    throw new QuarryError('InvalidArgument', 'query must be a string', { field: 'query' });
  const mode = optionalString(args, 'mode') ?? 'literal';
  if (mode !== 'literal' && mode !== 'regex')
    throw new QuarryError('InvalidArgument', "mode must be 'literal' or 'regex'", {
      field: 'mode',
      value: mode,
    });
  const caseSensitive = args.case_sensitive ?? false;
  if (typeof caseSensitive !== 'boolean')
    throw new QuarryError('InvalidArgument', 'case_sensitive must be a boolean', { field: 'case_sensitive' });
  return {
    query: args.query,
    limit: optionalInt(args, 'limit', SEARCH_LIMIT_DEFAULT, 1, SEARCH_LIMIT_MAX),
    mode,
    caseSensitive,
  };
}

function planFor(args: SearchArgs, ctx: ToolContext): QueryPlan {
  const names = ctx.roots && ctx.roots.length > 1 ? ctx.roots.map((r) => r.name) : [];
  const plan = planQuery(parseQuery(args.query, { mode: args.mode }), {
    caseSensitive: args.caseSensitive,
    roots: names,
    defaultCount: args.limit,
    check: PATTERN_CHECK,
  });
  return { ...plan, count: Math.min(plan.count, SEARCH_LIMIT_MAX) };
}

async function fileSearch(
  plan: Extract<QueryPlan, { type: 'file' }>,
  ctx: ToolContext,
): Promise<SearchToolResult> {
  if (!plan.request)
    throw new QuarryError('InvalidQuery', 'type:file needs a pattern to search for', { field: 'query' });
  const files: GrepFileResult[] = [];
  // root: names some of several roots: each of them is searched on its own (its name as the
  // directory), the caps shared in order as the app's search shares them; the others are not read
  const names = ctx.roots && ctx.roots.length > 1 && plan.roots ? plan.roots : [undefined];
  // select:file: the limit counts files (as Sourcegraph's count: does for selected results), and
  // each file's lines are all counted; the search stops at the file past the limit
  const fileLimit = plan.select === 'file' ? plan.count : Infinity;
  const maxResults =
    plan.select === 'file' ? DEFAULT_MAX_RESULTS : (plan.request.maxResults ?? DEFAULT_MAX_RESULTS);
  const countLimit = plan.select ? Infinity : 10_000;
  let moreFiles = false;
  let total = 0;
  let complete = true;
  for (const name of names) {
    const delivered = files.reduce((n, f) => n + f.matches.length, 0);
    if ((delivered >= maxResults && total >= countLimit) || moreFiles) {
      complete = false; // roots left unread
      break;
    }
    const summary = await searchWorkspace(
      ctx.workspace,
      {
        ...plan.request,
        roots: undefined,
        directory: name ?? plan.request.directory,
        maxLineChars: 500,
        maxResults: Math.max(0, maxResults - delivered),
        countLimit: countLimit === Infinity ? undefined : Math.max(0, countLimit - total),
      },
      (f) => {
        if (files.length >= fileLimit) return !(moreFiles = true);
        files.push(f);
      },
      { signal: ctx.signal, pool: ctx.searchPool },
    );
    total += summary.total;
    complete &&= summary.ending === 'complete' && summary.totalIsExact && !moreFiles;
  }
  if (plan.select === 'file')
    return {
      type: 'file',
      select: 'file',
      results: files.map((f) => ({ path: f.path, matches: f.matches.length })),
      total: files.length,
      complete,
    };
  const results = files.flatMap((f) =>
    f.matches.map((m) => ({ path: m.path, line: m.line, text: truncateLine(m.text), ranges: m.ranges })),
  );
  return { type: 'file', results, total, complete };
}

async function symbolSearch(
  plan: Extract<QueryPlan, { type: 'symbol' }>,
  ctx: ToolContext,
): Promise<SearchToolResult> {
  const parts = await ensureCodeIndexes(ctx, 'search');
  const names = ctx.roots!.map((r) => r.name);
  const sources: SymbolSource[] = parts
    .filter((_, i) => !plan.roots || plan.roots.includes(names[i]))
    .map((part) => {
      const table = new SymbolTable();
      for (let id = 0; id < part.index.idSpan; id++) {
        const c = part.index.chunkById(id);
        if (c) table.add(c);
      }
      return { prefix: part.prefix, table };
    });
  const all = searchSymbols(sources, plan.name, {
    pathTest: planPathTest(plan),
    caseMode: plan.caseMode,
    limit: Infinity,
  });
  const results = all.slice(0, plan.count).map(({ chunk, path, positions }) => ({
    name: chunk.symbolName,
    kind: chunk.chunkType,
    path,
    line: chunk.startLine,
    endLine: chunk.endLine,
    positions,
  }));
  return { type: 'symbol', results, total: all.length };
}

async function historySearch(
  plan: Extract<QueryPlan, { type: 'commit' | 'diff' }>,
  ctx: ToolContext,
): Promise<SearchToolResult> {
  if (!ctx.historySearch)
    throw new QuarryError(
      'EngineError',
      `type:${plan.type} needs the repository's git history, and this host reads none`,
      {},
    );
  const roots = ctx.roots ?? [];
  const targets = roots.length
    ? roots.map((r, i) => ({ r, i })).filter(({ r }) => !plan.roots || plan.roots.includes(r.name))
    : [{ r: null, i: 0 }];
  const results: HistoryResult[] = [];
  const total: HistorySearchSummary = {
    searched: 0,
    total: 0,
    matched: 0,
    shallow: false,
    oldest: null,
    limitHit: false,
  };
  for (const { r, i } of targets) {
    const s = await ctx.historySearch(plan, i, r?.prefix ?? '', (x) => results.push(x), ctx.signal);
    total.searched += s.searched;
    total.total += s.total;
    total.matched += s.matched;
    total.shallow ||= s.shallow;
    total.limitHit ||= s.limitHit;
    if (s.oldest !== null) total.oldest = total.oldest === null ? s.oldest : Math.min(total.oldest, s.oldest);
  }
  return {
    type: plan.type,
    results,
    ...total,
    oldest: total.oldest === null ? null : new Date(total.oldest).toISOString(),
  };
}

export const searchTool: Tool<SearchToolResult> = {
  name: 'search',
  description:
    'Search the repository with one query, as in the app\'s search box (Sourcegraph / GitHub code search syntax): words or "a phrase" (literal), /regex/, AND, OR, NOT and parentheses; filters file:PATTERN (a regex on the path, or a glob with * ? [ {), -file:, lang:LANGUAGE, case:yes, root:NAME, count:N|all, select:file (files and their counts; count: and limit then count files); type:symbol for definitions by name, type:commit for commit messages (author:, before:, after: dates as 2024-05-01 or 2w), type:diff for lines commits added or removed. Results are typed by `type`.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description:
          "A query, e.g. 'lang:typescript file:^src/ parseConfig', 'type:commit author:ann fix', 'type:diff /TODO\\(/'",
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        default: SEARCH_LIMIT_DEFAULT,
        description: 'Results at most, unless the query says count:',
      },
      mode: {
        type: 'string',
        enum: ['literal', 'regex'],
        default: 'literal',
        description: 'How bare words are read',
      },
      case_sensitive: {
        type: 'boolean',
        default: false,
        description: "Match case (the query's case:yes|no overrides)",
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const plan = planFor(parseSearchArgs(raw), ctx);
    switch (plan.type) {
      case 'file':
        return fileSearch(plan, ctx);
      case 'symbol':
        return symbolSearch(plan, ctx);
      default:
        return historySearch(plan, ctx);
    }
  },
};

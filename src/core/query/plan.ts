/**
 * A parsed query (parse.ts) as the work it asks for: a text search request with its path rules
 * and boolean expression (type:file), a symbol lookup, or a search of the history (type:commit,
 * type:diff). Everything that can be wrong with a query's values that the parser cannot know
 * (a language, a root's name, a pattern the regex engine refuses) fails here, with the same
 * error shape as the parser's.
 */
import { QuarryError } from '../errors';
import type { CaseMode } from '../grep/regex';
import type { GrepRequest, PathRule } from '../grep/types';
import { LANGUAGES, type LanguageInfo } from '../source/languages';
import { alternationOf } from './alternation';
import type { ParsedQuery, QueryExpr, QueryFilter, QueryType } from './types';

export interface PlanContext {
  /** The box's Match case when the query has no `case:`. */
  caseSensitive: boolean;
  wholeWord?: boolean;
  /** The open roots' names when there are several (`root:` is checked against them). */
  roots?: readonly string[];
  /** Results wanted when the query has no `count:` (the app's and the tools' own default). */
  defaultCount: number;
  /** Now, for relative dates (`after:2w`); ms since the epoch. */
  now?: number;
  /**
   * Compiles a pattern as the search will run it (throws the engine's error). The engine and the
   * tools pass plan-engine.ts's PATTERN_CHECK; the page passes none (it plans without the regex
   * engine, and the search reports a pattern it cannot run).
   */
  check?: PatternCheck;
}

export type PatternCheck = (pattern: string, mode: 'literal' | 'regex', caseSensitive: boolean) => void;

/** One pattern of a history or symbol search. */
export interface LeafPattern {
  pattern: string;
  mode: 'literal' | 'regex';
}

interface PlanBase {
  /** Root names the search is limited to (null: every root). */
  roots: string[] | null;
  pathRules: PathRule[];
  extensions: string[];
  caseMode: CaseMode;
  /** count:N, or the default; Infinity for count:all. */
  count: number;
}

export type QueryPlan =
  | (PlanBase & { type: 'file'; request: GrepRequest | null; select: 'file' | null })
  | (PlanBase & { type: 'symbol'; name: LeafPattern | null })
  | (PlanBase & {
      type: 'commit';
      message: QueryExpr | null;
      author: string | null;
      before: number | null;
      after: number | null;
    })
  | (PlanBase & {
      type: 'diff';
      /** select:file: each commit's files and their counts of matching lines, no lines. */
      select: 'file' | null;
      pattern: QueryExpr;
      author: string | null;
      before: number | null;
      after: number | null;
    });

const GLOB_CHARS = /[*?[{]/;

/** Edit distance with adjacent transpositions (optimal string alignment), for suggestions. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The closest of `names` to `word` within 2 edits (and under half its length), or null. */
export function nearest(word: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(word, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return bestD <= 2 && bestD < Math.max(2, word.length / 2) ? best : null;
}

function queryError(message: string, suggestion?: string): QuarryError {
  return new QuarryError('InvalidQuery', message, { field: 'query', ...(suggestion ? { suggestion } : {}) });
}

/** The languages a `lang:` value names: an id, a name ("c++"), a name's family ("typescript" is TypeScript and TypeScript React), or an extension. */
export function languagesNamed(value: string): LanguageInfo[] {
  const v = value.toLowerCase();
  const out: LanguageInfo[] = [];
  for (const [id, info] of Object.entries(LANGUAGES) as [string, LanguageInfo][]) {
    const name = info.name.toLowerCase();
    if (id === v || name === v || name.startsWith(v + ' ') || info.extensions.includes(v.replace(/^\./, '')))
      out.push(info);
  }
  return out;
}

function languageExtensions(value: string): string[] {
  const found = languagesNamed(value);
  if (!found.length) {
    const names = [...new Set(Object.entries(LANGUAGES).flatMap(([id, i]) => [id, i.name.toLowerCase()]))];
    const near = nearest(value.toLowerCase(), names);
    throw queryError(
      `unknown language \`${value}\`${near ? ` — did you mean \`${near}\`?` : ''}`,
      near ? `lang:${near}` : undefined,
    );
  }
  return [...new Set(found.flatMap((i) => i.extensions))];
}

const DAY = 86_400_000;
const UNIT: Record<string, number> = { d: DAY, w: 7 * DAY, m: 30 * DAY, y: 365 * DAY };

/** `2024-05-01`, `2024-05-01T10:00`, or `3d` / `2w` / `6m` / `1y` ago; ms since the epoch. */
export function dateValue(field: string, value: string, now = Date.now()): number {
  const rel = /^(\d+)([dwmy])$/i.exec(value);
  if (rel) return now - Number(rel[1]) * UNIT[rel[2].toLowerCase()];
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const t = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    if (!Number.isNaN(t)) return t;
  }
  throw queryError(`${field}: needs a date such as 2024-05-01 or 2w (two weeks ago), got \`${value}\``);
}

function pathRule(f: QueryFilter, caseSensitive: boolean, check: PatternCheck | undefined): PathRule {
  const glob = GLOB_CHARS.test(f.value);
  if (!glob) checkPattern(check, f.value, 'regex', caseSensitive, `file:${f.value}`);
  return { pattern: f.value, glob, negated: f.negated, caseSensitive };
}

function checkPattern(
  check: PatternCheck | undefined,
  pattern: string,
  mode: 'literal' | 'regex',
  caseSensitive: boolean,
  what: string,
): void {
  if (!check) return;
  try {
    check(pattern, mode, caseSensitive);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw queryError(`\`${what}\` is not a pattern the search can run: ${detail}`);
  }
}

/** Every pattern of an expression, checked (the NOTed ones too). */
function checkExpr(check: PatternCheck | undefined, e: QueryExpr, caseSensitive: boolean): void {
  if (!check) return;
  if (e.kind === 'term') checkPattern(check, e.value, 'literal', caseSensitive, e.value);
  else if (e.kind === 'regex') checkPattern(check, e.pattern, 'regex', caseSensitive, `/${e.pattern}/`);
  else if (e.kind === 'not') checkExpr(check, e.item, caseSensitive);
  else for (const x of e.items) checkExpr(check, x, caseSensitive);
}

function single<T extends string>(filters: QueryFilter[], field: QueryFilter['field']): T | null {
  const all = filters.filter((f) => f.field === field);
  if (all.length > 1) throw queryError(`\`${field}:\` is given ${all.length} times; give it once`);
  if (all[0]?.negated) throw queryError(`\`${field}:\` cannot be negated`);
  return (all[0]?.value as T | undefined) ?? null;
}

function rootsOf(filters: QueryFilter[], roots: readonly string[] | undefined): string[] | null {
  const asked = filters.filter((f) => f.field === 'root');
  if (!asked.length) return null;
  const names = roots ?? [];
  let chosen = asked.some((f) => !f.negated) ? [] : [...names];
  for (const f of asked) {
    if (!names.includes(f.value)) {
      const near = nearest(f.value, names);
      throw queryError(
        names.length
          ? `no open root is called \`${f.value}\`${near ? ` — did you mean \`${near}\`?` : ` (open: ${names.join(', ')})`}`
          : `root:${f.value} — only one root is open`,
        near ? `root:${near}` : undefined,
      );
    }
    if (f.negated) chosen = chosen.filter((n) => n !== f.value);
    else if (!chosen.includes(f.value)) chosen.push(f.value);
  }
  return chosen;
}

function countOf(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  return value === 'all' ? Infinity : Number(value);
}

function leafOf(expr: QueryExpr | null, type: QueryType): LeafPattern | null {
  if (!expr) return null;
  if (expr.kind === 'term') return { pattern: expr.value, mode: 'literal' };
  if (expr.kind === 'regex') return { pattern: expr.pattern, mode: 'regex' };
  throw queryError(`type:${type} takes one pattern, not AND, OR or NOT`);
}

function base(q: ParsedQuery, ctx: PlanContext): PlanBase {
  const caseValue = single<'yes' | 'no'>(q.filters, 'case');
  const caseSensitive = caseValue ? caseValue === 'yes' : ctx.caseSensitive;
  const pathRules = q.filters
    .filter((f) => f.field === 'file')
    .map((f) => pathRule(f, caseSensitive, ctx.check));
  const langs = q.filters.filter((f) => f.field === 'lang');
  const extensions = [
    ...new Set(langs.filter((f) => !f.negated).flatMap((f) => languageExtensions(f.value))),
  ];
  for (const f of langs.filter((l) => l.negated)) {
    const exts = languageExtensions(f.value).map((e) => e.replace(/[.+]/g, '\\$&'));
    pathRules.push({
      pattern: `\\.(?:${exts.join('|')})$`,
      glob: false,
      negated: true,
      caseSensitive: false,
    });
  }
  return {
    roots: rootsOf(q.filters, ctx.roots),
    pathRules,
    extensions,
    caseMode: caseSensitive ? 'sensitive' : 'insensitive',
    count: countOf(single(q.filters, 'count'), ctx.defaultCount),
  };
}

function fileRequest(q: ParsedQuery, b: PlanBase, ctx: PlanContext): GrepRequest | null {
  const expr = q.expr;
  if (!expr) return null;
  const request: GrepRequest = {
    pattern: '',
    mode: 'literal',
    caseMode: b.caseMode,
    wholeWord: ctx.wholeWord,
    pathRules: b.pathRules.length ? b.pathRules : undefined,
    extensions: b.extensions.length ? b.extensions : undefined,
    maxResults: b.count === Infinity ? undefined : b.count,
    ...(b.roots ? { roots: b.roots } : {}),
  };
  checkExpr(ctx.check, expr, b.caseMode === 'sensitive');
  if (expr.kind === 'term' || expr.kind === 'regex') {
    request.pattern = expr.kind === 'term' ? expr.value : expr.pattern;
    request.mode = expr.kind === 'term' ? 'literal' : 'regex';
    return request;
  }
  if (!hasShownPattern(expr, true))
    throw queryError('NOT needs something to search for beside it, as in `foo NOT bar`');
  return { ...request, pattern: alternationOf(expr), mode: 'regex', fileExpr: expr };
}

/** What a parsed query asks for; throws QuarryError('InvalidQuery') for values that cannot run. */
export function planQuery(q: ParsedQuery, ctx: PlanContext): QueryPlan {
  const type = single<QueryType>(q.filters, 'type') ?? 'file';
  const b = base(q, ctx);
  const author = single(q.filters, 'author');
  const beforeValue = single(q.filters, 'before');
  const afterValue = single(q.filters, 'after');
  const history = type === 'commit' || type === 'diff';
  if (!history && (author !== null || beforeValue !== null || afterValue !== null))
    throw queryError(
      'author:, before: and after: search the history: add type:commit or type:diff',
      'type:commit',
    );
  const select = single<'file'>(q.filters, 'select');
  if (select && type !== 'file' && type !== 'diff')
    throw queryError(`select:file lists files; it does not apply to type:${type}`);
  const before = beforeValue === null ? null : dateValue('before', beforeValue, ctx.now);
  const after = afterValue === null ? null : dateValue('after', afterValue, ctx.now);
  if (author !== null) checkPattern(ctx.check, author, 'regex', false, `author:${author}`);
  switch (type) {
    case 'file':
      return { ...b, type, request: fileRequest(q, b, ctx), select };
    case 'symbol': {
      const name = leafOf(q.expr, type);
      if (name) checkPattern(ctx.check, name.pattern, name.mode, b.caseMode === 'sensitive', name.pattern);
      return { ...b, type, name };
    }
    case 'commit':
      if (b.pathRules.length || b.extensions.length)
        throw queryError(
          'file: and lang: narrow files: use them with type:diff (lines commits changed) or type:file',
          'type:diff',
        );
      if (q.expr) checkShown(ctx.check, q.expr, b.caseMode);
      return { ...b, type, message: q.expr, author, before, after };
    case 'diff':
      if (!q.expr)
        throw queryError(
          'type:diff needs a pattern to find in the added and removed lines',
          'type:diff /pattern/',
        );
      checkShown(ctx.check, q.expr, b.caseMode);
      return { ...b, type, pattern: q.expr, author, before, after, select };
  }
}

/** Whether some pattern is under an even number of NOTs (something to show). */
function hasShownPattern(e: QueryExpr, positive: boolean): boolean {
  if (e.kind === 'term' || e.kind === 'regex') return positive;
  if (e.kind === 'not') return hasShownPattern(e.item, !positive);
  return e.items.some((x) => hasShownPattern(x, positive));
}

function checkShown(check: PatternCheck | undefined, e: QueryExpr, caseMode: CaseMode): void {
  checkExpr(check, e, caseMode === 'sensitive');
  if (!hasShownPattern(e, true))
    throw queryError('NOT needs something to search for beside it, as in `foo NOT bar`');
}

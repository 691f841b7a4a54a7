/**
 * The search box's query (issue 35) as the panel needs it: parsed and planned with the box's
 * switches (core/query), or the problem to show under the box: its message, the span of the
 * query at fault (the parser's column; for the planner's errors, which have none, the filter
 * or text the message names), and the fixes a button can apply (a near filter name or value,
 * a filter to add, a word to quote). Plain TS, tested in Node.
 */
import { QuarryError } from '../../core/errors';
import { filterFieldOf } from '../../core/query/filters';
import { parseQuery } from '../../core/query/parse';
import { planQuery, type QueryPlan } from '../../core/query/plan';
import { tokenizeQuery } from '../../core/query/tokenize';
import type { FilterField, ParsedQuery, QueryMode, QueryToken } from '../../core/query/types';

export interface QueryContext {
  mode: QueryMode;
  caseSensitive: boolean;
  wholeWord: boolean;
  /** The open roots' names when several are open ([] for one); null while not known yet. */
  roots: readonly string[] | null;
  /** Results wanted when the query has no `count:`. */
  defaultCount: number;
}

export interface Span {
  start: number;
  end: number;
}

/** A button under the error: the whole query as it would read, and where the caret goes. */
export interface QueryFix {
  label: string;
  text: string;
  caret: number;
}

export interface QueryProblem {
  message: string;
  /** 1-based UTF-16 column, when the error has one (the planner's are located from the message). */
  column: number | null;
  /** The piece of the query at fault. */
  span: Span | null;
  fixes: QueryFix[];
  /** The error's suggestion when no button applies it (an example, a rule). */
  hint: string | null;
}

export type QueryAnalysis =
  | { kind: 'empty' }
  /** The query names a root and the roots are not known yet. */
  | { kind: 'pending' }
  | { kind: 'error'; problem: QueryProblem }
  | { kind: 'ok'; parsed: ParsedQuery; plan: QueryPlan };

/** A filter as written: its whole span (with a `-`), its value's span, and its field. */
export interface WrittenFilter {
  start: number;
  valueStart: number;
  end: number;
  field: FilterField | undefined;
  negated: boolean;
  value: string;
}

/** The filters of `text` as written (from the tokenizer, so a bad value is one too). */
export function writtenFilters(text: string, tokens: QueryToken[] = tokenizeQuery(text)): WrittenFilter[] {
  const out: WrittenFilter[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'filter') return;
    const next = tokens[i + 1];
    const end =
      next && next.start === t.end && (next.kind === 'value' || next.kind === 'error') ? next.end : t.end;
    const key = text.slice(t.start, t.end);
    const negated = key.startsWith('-');
    out.push({
      start: t.start,
      valueStart: t.end,
      end,
      field: filterFieldOf(key.replace(/^-/, '').replace(/:$/, '')),
      negated,
      value: text.slice(t.end, end),
    });
  });
  return out;
}

function replaceSpan(text: string, span: Span, by: string): { text: string; caret: number } {
  return { text: text.slice(0, span.start) + by + text.slice(span.end), caret: span.start + by.length };
}

/** `text` with ` piece` added at the end. */
function appendPiece(text: string, piece: string): { text: string; caret: number } {
  const head = text.replace(/\s+$/, '');
  const next = head ? `${head} ${piece}` : piece;
  return { text: next, caret: next.length };
}

/** The token holding the 0-based offset `at` (or starting there). */
function tokenAt(tokens: QueryToken[], at: number): QueryToken | undefined {
  return tokens.find((t) => t.start <= at && at < t.end) ?? tokens.find((t) => t.start >= at);
}

const TICKED = /`([^`]+)`/g;

/**
 * Where a planner error points (it has no column): the filter or text the message names in
 * backticks (`lang:pyhton`, `pyhton`, `count:`), or the filter it names bare (`author:`).
 */
export function locateMessage(text: string, message: string, filters = writtenFilters(text)): Span | null {
  const pieces = [...message.matchAll(TICKED)].map((m) => m[1]);
  for (const piece of pieces) {
    const m = /^-?([A-Za-z]+):(.*)$/s.exec(piece);
    const field = m ? filterFieldOf(m[1]) : undefined;
    const hit = field
      ? filters.find((f) => f.field === field && (!m![2] || f.value.toLowerCase() === m![2].toLowerCase()))
      : filters.find((f) => f.value.toLowerCase() === piece.toLowerCase());
    if (hit) return { start: hit.start, end: hit.end };
    const at = text.indexOf(piece);
    if (at >= 0) return { start: at, end: at + piece.length };
  }
  for (const m of message.matchAll(/(?:^|[\s,])([a-z]+):/g)) {
    const field = filterFieldOf(m[1]);
    const hit = field && filters.find((f) => f.field === field);
    if (hit) return { start: hit.start, end: hit.end };
  }
  return null;
}

const UNKNOWN_FILTER = /unknown filter `([A-Za-z]+):`.*did you mean `([A-Za-z]+):`/;
const QUOTE_IT = /quote it(?: to search for the (?:word|text))?: (".*")$/;

/** The fixes a suggestion (and the message) allow, as whole queries. */
function fixesFor(
  text: string,
  message: string,
  suggestion: string | undefined,
  span: Span | null,
  filters: WrittenFilter[],
): QueryFix[] {
  const fixes: QueryFix[] = [];
  const add = (label: string, r: { text: string; caret: number }) => {
    if (r.text !== text && !fixes.some((f) => f.text === r.text)) fixes.push({ label, ...r });
  };
  const unknown = UNKNOWN_FILTER.exec(message);
  if (unknown && span) {
    const keyAt = text.indexOf(`${unknown[1]}:`, span.start);
    if (keyAt >= 0)
      add(
        `Use ${unknown[2]}:`,
        replaceSpan(text, { start: keyAt, end: keyAt + unknown[1].length }, unknown[2]),
      );
  }
  if (!suggestion) return fixes;
  const meant = /^did you mean `([a-z]+):([^`]*)`\?$/.exec(suggestion);
  const filterText = meant
    ? `${meant[1]}:${meant[2]}`
    : /^-?[a-z]+:[^\s`]+$/.test(suggestion)
      ? suggestion
      : null;
  if (filterText) {
    const field = filterFieldOf(filterText.slice(0, filterText.indexOf(':')).replace(/^-/, ''));
    const value = filterText.slice(filterText.indexOf(':') + 1);
    const at =
      (span && filters.find((f) => f.start === span.start && f.field === field)) ??
      (span && filters.find((f) => f.start <= span.start && span.start < f.end && f.field === field)) ??
      filters.find((f) => f.field === field);
    if (at) add(`Use ${filterText}`, replaceSpan(text, { start: at.valueStart, end: at.end }, value));
    else add(`Add ${filterText}`, appendPiece(text, filterText));
  }
  const quote = QUOTE_IT.exec(suggestion);
  if (quote && span) add(`Search ${quote[1]} as text`, replaceSpan(text, span, quote[1]));
  if (/^add `\)`/.test(suggestion)) add('Add )', appendPiece(text, ')'));
  return fixes;
}

/** The problem to show for an InvalidQuery error of `text`. */
export function queryProblem(text: string, err: QuarryError, mode: QueryMode): QueryProblem {
  const tokens = tokenizeQuery(text, { mode });
  const filters = writtenFilters(text, tokens);
  const column = typeof err.data.column === 'number' ? err.data.column : null;
  const suggestion = typeof err.data.suggestion === 'string' ? err.data.suggestion : undefined;
  const at = column === null ? undefined : tokenAt(tokens, column - 1);
  const span: Span | null =
    column === null
      ? locateMessage(text, err.message, filters)
      : at
        ? { start: at.start, end: at.end }
        : { start: text.length, end: text.length };
  const fixes = fixesFor(text, err.message, suggestion, span, filters);
  return {
    message: err.message,
    column: column ?? (span ? span.start + 1 : null),
    span,
    fixes,
    hint: suggestion && fixes.length === 0 ? suggestion : null,
  };
}

/** The query with the box's switches: what to run, or what is wrong with it. */
export function analyzeQuery(text: string, ctx: QueryContext): QueryAnalysis {
  if (!text.trim()) return { kind: 'empty' };
  try {
    const parsed = parseQuery(text, { mode: ctx.mode });
    if (ctx.roots === null && parsed.filters.some((f) => f.field === 'root')) return { kind: 'pending' };
    const plan = planQuery(parsed, {
      caseSensitive: ctx.caseSensitive,
      wholeWord: ctx.wholeWord,
      roots: ctx.roots ?? [],
      defaultCount: ctx.defaultCount,
    });
    return { kind: 'ok', parsed, plan };
  } catch (err) {
    if (err instanceof QuarryError && err.code === 'InvalidQuery')
      return { kind: 'error', problem: queryProblem(text, err, ctx.mode) };
    // a path rule's glob the walker refuses, and the like: shown as they are
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'error', problem: { message, column: null, span: null, fixes: [], hint: null } };
  }
}

/**
 * The query as coloured runs for the box's overlay: the tokenizer's tokens (filter keys, values,
 * operators, parentheses, quoted phrases, regexes, terms, errors) with the whitespace between
 * them, so that the runs spell the text exactly, character for character.
 */
import { tokenizeQuery } from '../../core/query/tokenize';
import type { QueryMode, QueryToken } from '../../core/query/types';
import type { Span } from './query-analysis';

export type QuerySpanKind = QueryToken['kind'] | 'space';

export interface QuerySpan {
  start: number;
  end: number;
  kind: QuerySpanKind;
}

/**
 * Runs covering all of `text` in order. `problem`: a span the planner refused (it has no column
 * of its own): its tokens are errors too. `completingAt`: the caret while completion offers
 * values there: a filter with no value yet (`lang:`) reads as the filter it is becoming.
 */
export function querySpans(
  text: string,
  mode: QueryMode,
  problem: Span | null = null,
  completingAt: number | null = null,
): QuerySpan[] {
  const out: QuerySpan[] = [];
  let at = 0;
  for (const t of tokenizeQuery(text, { mode })) {
    if (t.start > at) out.push({ start: at, end: t.start, kind: 'space' });
    const typing =
      t.kind === 'error' && completingAt !== null && t.start <= completingAt && completingAt <= t.end;
    const bad =
      (problem !== null && t.start < problem.end && problem.start < t.end) || (t.kind === 'error' && !typing);
    // a negated filter's `-` reads as the operator it is
    const minus = t.kind === 'filter' && text[t.start] === '-' && !bad;
    if (minus) out.push({ start: t.start, end: t.start + 1, kind: 'operator' });
    out.push({
      start: minus ? t.start + 1 : t.start,
      end: t.end,
      kind: bad ? 'error' : typing ? 'filter' : t.kind,
    });
    at = t.end;
  }
  if (at < text.length) out.push({ start: at, end: text.length, kind: 'space' });
  return out;
}

/** Whether the query holds a filter (Ranked, Semantic and Hybrid read their words as they are: they say so). */
export function hasFilter(text: string): boolean {
  return tokenizeQuery(text).some((t) => t.kind === 'filter');
}

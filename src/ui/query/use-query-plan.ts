/**
 * The search panel's query (issue 35): `view.q` parsed and planned with the box's switches
 * (Text and Regex modes; Ranked, Semantic and Hybrid read their words as they are), and the
 * old links' include / exclude / ext turned into filters of the query once, on load (the
 * address is rewritten in place: a shared link then carries the whole query in `q`).
 */
import { useEffect, useMemo } from 'react';
import type { FileHighlight } from '../../worker/protocol';
import { alternationOf } from '../../core/query/alternation';
import { parseQuery } from '../../core/query/parse';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { withLegacyFilters } from './legacy-filters';
import { analyzeQuery, type QueryAnalysis } from './query-analysis';

const NOTHING: QueryAnalysis = { kind: 'empty' };
const PENDING: QueryAnalysis = { kind: 'pending' };

export function useQueryAnalysis(
  view: ViewState,
  update: UpdateView,
  ranked: boolean,
  rootNames: readonly string[] | null,
  defaultCount: number,
): QueryAnalysis {
  const { q, mode, caseSensitive, wholeWord, include, exclude, ext } = view;
  const legacy = !ranked && !!(include || exclude || ext);
  useEffect(() => {
    if (legacy) update({ q: withLegacyFilters(q, include, exclude, ext), include: '', exclude: '', ext: '' });
  }, [legacy, q, include, exclude, ext, update]);
  return useMemo(
    () =>
      ranked
        ? NOTHING
        : legacy
          ? PENDING
          : analyzeQuery(q, {
              mode: mode === 'regex' ? 'regex' : 'literal',
              caseSensitive,
              wholeWord,
              roots: rootNames,
              defaultCount,
            }),
    [ranked, legacy, q, mode, caseSensitive, wholeWord, rootNames, defaultCount],
  );
}

/**
 * What the viewer marks in a file opened from the results: in Text and Regex the query's patterns
 * (not its filters), with its `case:`; null when there is nothing to mark or the query does not parse.
 */
export function queryHighlight(view: ViewState): FileHighlight | null {
  if (!view.q || view.mode === 'ranked') return null;
  // Semantic and Hybrid read the words as they are (as before the query language)
  if (view.mode !== 'text' && view.mode !== 'regex')
    return {
      pattern: view.q,
      mode: 'literal',
      caseMode: view.caseSensitive ? 'sensitive' : 'insensitive',
      wholeWord: view.wholeWord,
    };
  try {
    const parsed = parseQuery(view.q, { mode: view.mode === 'regex' ? 'regex' : 'literal' });
    const type = parsed.filters.find((f) => f.field === 'type')?.value ?? 'file';
    const expr = parsed.expr;
    if (!expr || (type !== 'file' && type !== 'diff')) return null;
    const caseValue = parsed.filters.find((f) => f.field === 'case')?.value;
    const caseMode = (caseValue ? caseValue === 'yes' : view.caseSensitive) ? 'sensitive' : 'insensitive';
    const base = { caseMode, wholeWord: view.wholeWord } as const;
    if (expr.kind === 'term') return { pattern: expr.value, mode: 'literal', ...base };
    if (expr.kind === 'regex') return { pattern: expr.pattern, mode: 'regex', ...base };
    return { pattern: alternationOf(expr), mode: 'regex', ...base };
  } catch {
    return null;
  }
}

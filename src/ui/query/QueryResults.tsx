/**
 * The results of a query that is not a text search (issue 35): `type:symbol` lists symbols,
 * `type:commit` and `type:diff` search the history. The engine parses the same query text with
 * the same switches (the address's `q` is the whole query, so a shared link reproduces them).
 */
import { useMemo, type KeyboardEvent, type RefObject } from 'react';
import type { QueryOptions } from '../../core/query/results';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { HistoryResults } from './HistoryResults';
import { SymbolResults, type SymbolRequest } from './SymbolResults';

/** Symbols listed when the query has no `count:`. */
const SYMBOL_LIMIT = 100;
/** Commits listed when the query has no `count:`. */
const HISTORY_LIMIT = 100;

export function QueryResults({
  type,
  view,
  update,
  repoKey,
  indexReady,
  indexVersion,
  keys: { listRef, onKeyDown },
}: {
  type: 'symbol' | 'commit' | 'diff';
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  indexReady: boolean;
  indexVersion: number;
  /** The list's keys (list-keys.ts). */
  keys: { listRef: RefObject<HTMLDivElement | null>; onKeyDown: (e: KeyboardEvent) => void };
}) {
  const { q, mode, caseSensitive, wholeWord } = view;
  const options = useMemo<QueryOptions>(
    () => ({ mode: mode === 'regex' ? 'regex' : 'literal', caseSensitive, wholeWord }),
    [mode, caseSensitive, wholeWord],
  );
  const symbolRequest = useMemo<SymbolRequest | 'waiting'>(
    () => (indexReady ? { query: q, options: { ...options, limit: SYMBOL_LIMIT }, indexVersion } : 'waiting'),
    [q, options, indexReady, indexVersion],
  );
  const historyRequest = useMemo(
    () => ({ query: q, options: { ...options, limit: HISTORY_LIMIT } }),
    [q, options],
  );
  if (type === 'symbol')
    return <SymbolResults request={symbolRequest} update={update} listRef={listRef} onKeyDown={onKeyDown} />;
  return (
    <HistoryResults
      request={historyRequest}
      kind={type}
      repoKey={repoKey}
      update={update}
      listRef={listRef}
      onKeyDown={onKeyDown}
    />
  );
}

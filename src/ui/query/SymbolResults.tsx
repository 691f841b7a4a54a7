/**
 * `type:symbol` results (issue 35): the symbols whose names match, best first, each with the
 * matched characters marked, its kind and its place; Enter or a click opens the file at the
 * line. The symbol table is the code index's: until it is built the list says it is waiting.
 */
import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import { toQuarryError } from '../../core/errors';
import type { QueryOptions, SymbolSearchResult } from '../../core/query/results';
import { useEngine } from '../engine';
import { plural } from '../format';
import type { HitStatus } from '../HitResults';
import { SymbolKind } from '../nav/SymbolKind';
import { Highlighted } from '../PickerDialog';
import { SearchStatus } from '../SearchStatus';
import { FileIcon } from '../shell/FileIcon';
import type { UpdateView } from '../use-view-state';
import { VisibleText } from '../VisibleText';
import '../nav/nav.css';

export interface SymbolRequest {
  query: string;
  options: QueryOptions;
  /** a rebuilt index searches again */
  indexVersion: number;
}

export function symbolSummary(status: HitStatus<SymbolSearchResult>): string {
  switch (status.state) {
    case 'idle':
    case 'error':
      return '';
    case 'waiting':
      return 'Waiting for the code index… symbols are listed when it is ready.';
    case 'running':
      return 'Searching symbols…';
    case 'done': {
      const { results, total } = status.result;
      if (!results.length) return 'No symbol matches.';
      return results.length < total
        ? `Showing ${plural(results.length, 'symbol')} of ${total.toLocaleString('en-US')}; add count:all for every one.`
        : `${plural(results.length, 'symbol')}`;
    }
  }
}

export function SymbolResults({
  request,
  update,
  listRef,
  onKeyDown,
}: {
  request: SymbolRequest | 'waiting';
  update: UpdateView;
  listRef: RefObject<HTMLDivElement | null>;
  onKeyDown: (e: KeyboardEvent) => void;
}) {
  const engine = useEngine();
  const [status, setStatus] = useState<HitStatus<SymbolSearchResult>>({ state: 'idle' });
  useEffect(() => {
    if (request === 'waiting') {
      setStatus({ state: 'waiting' });
      return;
    }
    let live = true;
    setStatus((s) => (s.state === 'done' ? s : { state: 'running' }));
    engine.symbolSearch(request.query, request.options).then(
      (result) => live && setStatus({ state: 'done', result }),
      (err) => live && setStatus({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
    };
  }, [engine, request]);

  const results = status.state === 'done' ? status.result.results : [];
  return (
    <>
      <SearchStatus
        summary={symbolSummary(status)}
        running={status.state === 'running'}
        error={status.state === 'error' ? status.error : null}
      />
      <div
        ref={listRef}
        className="results-scroll ranked-scroll"
        data-testid="search-results"
        onKeyDown={onKeyDown}
      >
        {results.length > 0 && (
          <ol className="ranked-list" aria-label="Symbols">
            {results.map((s, i) => (
              <li
                key={`${s.path}:${s.line}:${s.name}`}
                className="ranked-item qs-item"
                data-testid="symbol-result"
                data-path={s.path}
                data-line={s.line}
              >
                <button
                  type="button"
                  className="ranked-open"
                  tabIndex={i === 0 ? 0 : -1}
                  data-qnav
                  onClick={() =>
                    update({ file: s.path, line: s.line, diff: '', blame: false }, { push: true })
                  }
                >
                  <SymbolKind kind={s.kind} />
                  <span className="ranked-symbol">
                    <Highlighted path={s.name} positions={s.positions} />
                  </span>
                  <span className="ranked-type">{s.kind}</span>
                  <span className="ranked-loc">
                    <FileIcon path={s.path} />
                    <VisibleText text={s.path} />:{s.line}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

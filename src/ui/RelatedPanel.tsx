/**
 * "Related code" beside the file viewer: chunks related to the current line's symbol (the
 * innermost containing it), ranked for people (siblings first: same class, file, folder, kind,
 * similar names; big containers last), each saying why and linking into the viewer. Preamble
 * lines (before the first symbol) have no chunk: the panel says so, in find_related's own words.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { QuarryError, toQuarryError } from '../core/errors';
import type { RelatedResult } from '../worker/protocol';
import { useEngine } from './engine';
import { visibleText } from './visible-text';
import { VisibleText } from './VisibleText';

const RELATED_LIMIT = 15;

type State =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; result: RelatedResult }
  | { state: 'error'; error: QuarryError };

export function RelatedPanel({
  path,
  line,
  indexReady,
  indexVersion,
  onOpen,
  headerAction,
}: {
  /** A control at the end of the panel's title row (the collapse button). */
  headerAction?: ReactNode;
  path: string;
  line: number;
  indexReady: boolean;
  indexVersion: number;
  onOpen: (path: string, line: number) => void;
}) {
  const engine = useEngine();
  const [s, setS] = useState<State>({ state: 'idle' });

  useEffect(() => {
    if (!line || !indexReady) {
      setS({ state: 'idle' });
      return;
    }
    let current = true;
    setS({ state: 'loading' });
    engine.callTool('related_view', { path, line, limit: RELATED_LIMIT }).then(
      (result) => current && setS({ state: 'done', result }),
      (err) => current && setS({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
    };
  }, [engine, path, line, indexReady, indexVersion]);

  return (
    <aside className="related" aria-label="Related code" data-testid="related-panel">
      <div className="related-head">
        <h2 className="related-title">Related code</h2>
        {headerAction}
      </div>
      {!indexReady ? (
        <p className="panel-note">Waiting for the code index…</p>
      ) : !line ? (
        <p className="panel-note">
          Click a line number to see the code most like the symbol around it, its siblings first.
        </p>
      ) : s.state === 'loading' ? (
        <p className="panel-note">Finding related chunks…</p>
      ) : s.state === 'error' ? (
        <p className="panel-note" data-testid="related-empty">
          <VisibleText text={s.error.message} multiline />
          {s.error.code === 'EngineError' ? ` (line ${line} is outside every symbol).` : ''}
        </p>
      ) : s.state === 'done' ? (
        <>
          <p className="related-seed">
            For{' '}
            <strong>
              {s.result.seed.symbolName ? (
                <VisibleText text={s.result.seed.symbolName} />
              ) : (
                s.result.seed.chunkType
              )}
            </strong>{' '}
            (lines {s.result.seed.startLine}–{s.result.seed.endLine})
          </p>
          <ul className="related-list">
            {s.result.results.map((r) => (
              <li key={`${r.path}:${r.startLine}`}>
                <button
                  type="button"
                  className="related-item"
                  data-testid="related-item"
                  onClick={() => onOpen(r.path, r.startLine)}
                  title={`Shared words: ${visibleText(r.sharedTerms.slice(0, 20).join(', '))}`}
                >
                  <span className="related-symbol">
                    {r.symbolName ? <VisibleText text={r.symbolName} /> : '(anonymous)'}
                  </span>{' '}
                  <span className="ranked-type">{r.chunkType}</span>
                  <span className="related-loc">
                    <VisibleText text={r.path} />:{r.startLine}–{r.endLine}
                  </span>
                  <span className="related-score">score {r.score.toFixed(3)}</span>
                  {r.reasons.length ? (
                    <span className="related-why" data-testid="related-why">
                      {r.reasons.join(' · ')}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </aside>
  );
}

/**
 * The one list of chunk hits Ranked, Semantic and Hybrid modes show: it runs the mode's search
 * when the request changes (keeping the last results on screen while the next one runs), says
 * how it went in the status line, and lists the hits, each with its symbol, kind and place
 * (opens it), its score, its snippet with the matched words in <mark>, and a "why" toggle whose
 * panel the mode draws (kept open across refreshes).
 */
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { toQuarryError, type QuarryError } from '../core/errors';
import type { EngineClient } from '../worker/client';
import type { ChunkRef, RankedHitView } from '../worker/protocol';
import { CodeText } from './CodeText';
import { useEngine } from './engine';
import { languageOf } from './highlight';
import { SearchStatus } from './SearchStatus';
import { FileIcon } from './shell/FileIcon';
import type { UpdateView } from './use-view-state';
import { VisibleText } from './VisibleText';

/** A hit as the list shows it: a chunk with its snippet lines (null: a gap). */
export type ListedHit = ChunkRef & { lines: RankedHitView['lines'] };

export type HitStatus<R> =
  | { state: 'idle' }
  | { state: 'waiting' }
  | { state: 'running' }
  | { state: 'done'; result: R }
  | { state: 'error'; error: QuarryError };

export interface HitResultsProps<Q, H extends ListedHit, R extends { hits: readonly H[] }> {
  /** What to search for (a new value searches again), null for nothing, 'waiting' while the index builds. */
  request: Q | null | 'waiting';
  /** The search (stable: a new function searches again). */
  search: (engine: EngineClient, request: Q) => Promise<R>;
  /** The status line for a status ('' beside an error); text, or text with a small label (the model that answered). */
  summary: (status: HitStatus<R>) => ReactNode;
  /** The list's accessible name. */
  label: string;
  /** Each hit's test id, and the prefix of its why panel's id (`${whyIdPrefix}${rank}`). */
  hitTestId: string;
  whyIdPrefix: string;
  score: (hit: H) => number;
  scoreTitle: (hit: H) => string;
  whyLabel: (hit: H) => string;
  /** The why panel of an open hit, with the id its toggle controls. */
  why: (hit: H, whyId: string) => ReactNode;
  update: UpdateView;
}

export function HitResults<Q, H extends ListedHit, R extends { hits: readonly H[] }>(
  props: HitResultsProps<Q, H, R>,
) {
  const { request, search, update } = props;
  const engine = useEngine();
  const [status, setStatus] = useState<HitStatus<R>>({ state: 'idle' });

  useEffect(() => {
    if (request === null) {
      setStatus({ state: 'idle' });
      return;
    }
    if (request === 'waiting') {
      setStatus({ state: 'waiting' });
      return;
    }
    let current = true;
    setStatus((s) => (s.state === 'done' ? s : { state: 'running' }));
    search(engine, request).then(
      (result) => current && setStatus({ state: 'done', result }),
      (err) => current && setStatus({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
    };
  }, [engine, request, search]);

  return (
    <>
      <SearchStatus
        summary={props.summary(status)}
        running={status.state === 'running'}
        error={status.state === 'error' ? status.error : null}
      />
      <div className="results-scroll ranked-scroll" data-testid="search-results">
        {status.state === 'done' && status.result.hits.length > 0 && (
          <HitList
            hits={status.result.hits}
            label={props.label}
            item={(hit, rank, why, onWhy) => {
              const whyId = `${props.whyIdPrefix}${rank}`;
              return (
                <li
                  className="ranked-item"
                  data-testid={props.hitTestId}
                  data-path={hit.path}
                  data-line={hit.startLine}
                >
                  <HitHead
                    hit={hit}
                    score={props.score(hit)}
                    scoreTitle={props.scoreTitle(hit)}
                    whyId={whyId}
                    why={why}
                    onWhy={onWhy}
                    whyLabel={props.whyLabel(hit)}
                    onOpen={() => update({ file: hit.path, line: hit.startLine }, { push: true })}
                  />
                  <SnippetBlock lines={hit.lines} lang={languageOf(hit.path)} />
                  {why && props.why(hit, whyId)}
                </li>
              );
            }}
          />
        )}
      </div>
    </>
  );
}

/** Hits as a list, each with a "why" that opens and closes (kept open across refreshes). */
function HitList<H extends { path: string; startLine: number }>({
  hits,
  label,
  item,
}: {
  hits: readonly H[];
  label: string;
  item: (hit: H, rank: number, why: boolean, onWhy: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <ol className="ranked-list" aria-label={label}>
      {hits.map((hit, i) => {
        const id = `${hit.path}:${hit.startLine}`;
        return <Fragment key={id}>{item(hit, i + 1, open.has(id), () => toggle(id))}</Fragment>;
      })}
    </ol>
  );
}

/** A hit's first line: its symbol, kind and place (opens it), its score, and the why toggle. */
function HitHead(props: {
  hit: ChunkRef;
  score: number;
  scoreTitle: string;
  whyId: string;
  why: boolean;
  onWhy: () => void;
  whyLabel: string;
  onOpen: () => void;
}) {
  const { hit } = props;
  return (
    <div className="ranked-head">
      <button type="button" className="ranked-open" onClick={props.onOpen} data-testid="ranked-open">
        <span className="ranked-symbol">
          {hit.symbolName ? <VisibleText text={hit.symbolName} /> : '(anonymous)'}
        </span>
        <span className="ranked-type">{hit.chunkType}</span>
        <span className="ranked-loc">
          <FileIcon path={hit.path} />
          <VisibleText text={hit.path} />:{hit.startLine}–{hit.endLine}
        </span>
      </button>
      <span className="ranked-score" title={props.scoreTitle}>
        {props.score.toFixed(2)}
      </span>
      <button
        type="button"
        className="toggle ranked-why"
        aria-expanded={props.why}
        aria-controls={props.whyId}
        aria-label={props.whyLabel}
        onClick={props.onWhy}
      >
        why
      </button>
    </div>
  );
}

/** A hit's snippet lines (null: a gap), matched words in <mark>. */
function SnippetBlock({
  lines,
  lang,
}: {
  lines: RankedHitView['lines'];
  lang: ReturnType<typeof languageOf>;
}) {
  return (
    <div className="ranked-snippet">
      {lines.map((l, j) =>
        l ? (
          <div key={j} className="result-line context">
            <span className="result-ln">{l.line}</span>
            <span className="result-text">
              <CodeText text={l.text} lang={lang} hits={l.ranges} />
            </span>
          </div>
        ) : (
          <div key={j} className="result-gap" aria-hidden="true" />
        ),
      )}
    </div>
  );
}

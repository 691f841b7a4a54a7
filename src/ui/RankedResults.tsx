/**
 * Ranked mode: chunks from the code index ranked for people ("user by id" finds getUserById),
 * each with its path, lines, symbol and type, a snippet with the matched words in <mark>, and
 * a "why" toggle listing the score's components (word, via terms, tf, df, idf, bm25, boost).
 */
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { QuarryError, toQuarryError } from '../core/errors';
import { SearchStatus } from './SearchStatus';
import type { ChunkRef, RankedHitView, RankedResult } from '../worker/protocol';
import { CodeText } from './CodeText';
import { useEngine } from './engine';
import { visibleText } from './visible-text';
import { VisibleText } from './VisibleText';
import { plural } from './format';
import { languageOf } from './highlight';
import { splitList, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { FileIcon } from './shell/FileIcon';

/** Ranked hits shown (the engine caps at 200). */
export const RANKED_LIMIT = 50;

type Status =
  | { state: 'idle' }
  | { state: 'waiting' }
  | { state: 'running' }
  | { state: 'done'; result: RankedResult }
  | { state: 'error'; error: QuarryError };

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

export function RankedResults({
  view,
  update,
  indexReady,
  indexVersion,
}: {
  view: ViewState;
  update: UpdateView;
  indexReady: boolean;
  indexVersion: number;
}) {
  const engine = useEngine();
  const [status, setStatus] = useState<Status>({ state: 'idle' });

  useEffect(() => {
    if (!view.q.trim()) {
      setStatus({ state: 'idle' });
      return;
    }
    if (!indexReady) {
      setStatus({ state: 'waiting' });
      return;
    }
    let current = true;
    setStatus((s) => (s.state === 'done' ? s : { state: 'running' }));
    engine
      .rankedSearch({
        query: view.q,
        limit: RANKED_LIMIT,
        include: splitList(view.include),
        exclude: splitList(view.exclude),
        extensions: splitList(view.ext),
      })
      .then(
        (result) => current && setStatus({ state: 'done', result }),
        (err) => current && setStatus({ state: 'error', error: toQuarryError(err) }),
      );
    return () => {
      current = false;
    };
  }, [engine, view.q, view.include, view.exclude, view.ext, indexReady, indexVersion]);

  const summary =
    status.state === 'idle'
      ? 'Type words or an identifier: Ranked finds the functions, classes and sections that match best.'
      : status.state === 'waiting'
        ? 'Waiting for the code index… Ranked results appear when it is ready (Text and Regex work now).'
        : status.state === 'running'
          ? 'Searching…'
          : status.state === 'error'
            ? ''
            : status.result.hits.length
              ? `${plural(status.result.hits.length, 'ranked chunk')}${status.result.hits.length >= RANKED_LIMIT ? ` (top ${RANKED_LIMIT})` : ''} (${Math.round(status.result.elapsedMs)} ms)`
              : `No indexed chunk matches ${status.result.words.length ? status.result.words.join(' ') : 'that query'}.`;

  return (
    <>
      <SearchStatus
        summary={summary}
        running={status.state === 'running'}
        error={status.state === 'error' ? status.error : null}
      />
      <div className="results-scroll ranked-scroll" data-testid="search-results">
        {status.state === 'done' && status.result.hits.length > 0 && (
          <HitList
            hits={status.result.hits}
            label="Ranked results"
            item={(hit, rank, why, onWhy) => (
              <RankedItem
                hit={hit}
                rank={rank}
                why={why}
                onWhy={onWhy}
                onOpen={() => update({ file: hit.path, line: hit.startLine }, { push: true })}
              />
            )}
          />
        )}
      </div>
    </>
  );
}

/** Ranked or semantic hits as a list, each with a "why" that opens and closes (kept open across refreshes). */
export function HitList<H extends { path: string; startLine: number }>({
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
export function HitHead(props: {
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
export function SnippetBlock({
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

function RankedItem({
  hit,
  rank,
  why,
  onWhy,
  onOpen,
}: {
  hit: RankedHitView;
  rank: number;
  why: boolean;
  onWhy: () => void;
  onOpen: () => void;
}) {
  const lang = languageOf(hit.path);
  const whyId = `why-${rank}`;
  return (
    <li className="ranked-item" data-testid="ranked-hit" data-path={hit.path} data-line={hit.startLine}>
      <HitHead
        hit={hit}
        score={hit.score}
        scoreTitle="Score"
        whyId={whyId}
        why={why}
        onWhy={onWhy}
        whyLabel={`Why ${visibleText(hit.symbolName) || 'this chunk'} scored ${hit.score.toFixed(2)}`}
        onOpen={onOpen}
      />
      <SnippetBlock lines={hit.lines} lang={lang} />
      {why && (
        // focusable: a wide table scrolls sideways, and a keyboard must reach it
        <div
          id={whyId}
          className="ranked-why-panel"
          data-testid="score-components"
          tabIndex={0}
          role="region"
          aria-label="Score components"
        >
          <table>
            <caption>
              Score {fmt(hit.score)} = sum over query words of bm25 + symbol boost
              {hit.exactSymbol ? ', ×3 for the exact identifier' : ''}
              {hit.discounts.length ? `, ×${fmt(hit.prior)} as ${hit.discounts.join(', ')}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">word</th>
                <th scope="col">via terms</th>
                <th scope="col">tf</th>
                <th scope="col" title="Chunks holding the word, each counted by its prior">
                  df
                </th>
                <th scope="col">idf</th>
                <th scope="col">bm25</th>
                <th scope="col">symbol boost</th>
              </tr>
            </thead>
            <tbody>
              {hit.components.map((c) => (
                <tr key={c.word}>
                  <td>{c.word}</td>
                  <td>{c.via.join(', ')}</td>
                  <td>{fmt(c.termFrequency)}</td>
                  <td>{fmt(c.documentFrequency)}</td>
                  <td>{fmt(c.idf)}</td>
                  <td>{fmt(c.bm25)}</td>
                  <td>{fmt(c.symbolBoost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}

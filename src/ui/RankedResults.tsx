/**
 * Ranked mode: chunks from the code index ranked for people ("user by id" finds getUserById),
 * each with its path, lines, symbol and type, a snippet with the matched words in <mark>, and
 * a "why" toggle listing the score's components (word, via terms, tf, df, idf, bm25, boost).
 * The list is HitResults (shared with Semantic and Hybrid); the request and the why are Ranked's.
 */
import { useMemo } from 'react';
import type { EngineClient } from '../worker/client';
import type { RankedHitView, RankedResult } from '../worker/protocol';
import { plural } from './format';
import { HitResults, type HitStatus } from './HitResults';
import { splitList, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { visibleText } from './visible-text';

/** Ranked hits shown (the engine caps at 200). */
export const RANKED_LIMIT = 50;

interface RankedQuery {
  query: string;
  include: string[];
  exclude: string[];
  extensions: string[];
  /** a rebuilt index searches again */
  indexVersion: number;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

const search = (engine: EngineClient, r: RankedQuery) =>
  engine.callTool('ranked_view', {
    query: r.query,
    limit: RANKED_LIMIT,
    include: r.include,
    exclude: r.exclude,
    extensions: r.extensions,
  });

const summary = (status: HitStatus<RankedResult>) =>
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
  const request = useMemo<RankedQuery | null | 'waiting'>(
    () =>
      !view.q.trim()
        ? null
        : !indexReady
          ? 'waiting'
          : {
              query: view.q,
              include: splitList(view.include),
              exclude: splitList(view.exclude),
              extensions: splitList(view.ext),
              indexVersion,
            },
    [view.q, view.include, view.exclude, view.ext, indexReady, indexVersion],
  );
  return (
    <HitResults<RankedQuery, RankedHitView, RankedResult>
      request={request}
      search={search}
      summary={summary}
      label="Ranked results"
      hitTestId="ranked-hit"
      whyIdPrefix="why-"
      score={(hit) => hit.score}
      scoreTitle={() => 'Score'}
      whyLabel={(hit) => `Why ${visibleText(hit.symbolName) || 'this chunk'} scored ${hit.score.toFixed(2)}`}
      why={(hit, whyId) => <RankedWhy hit={hit} whyId={whyId} />}
      update={update}
    />
  );
}

/** The score's components of a Ranked hit, as a table. */
function RankedWhy({ hit, whyId }: { hit: RankedHitView; whyId: string }) {
  return (
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
  );
}

/**
 * Semantic mode (type 'semantic': the vectors alone) and Hybrid mode (type 'hybrid': fused with
 * the Ranked list; Ranked itself stays lexical, since hybrid scored below it on the labelled
 * set). Before the model is loaded it explains what enabling does and offers it; a query typed
 * in either mode enables it (the first semantic search),
 * with the model's download and the embedding as a progress bar with Cancel; once the model is
 * loaded the question is asked while the embedding goes on (the engine answers from the chunks
 * embedded so far and says how many: "Searched 2,100 of 5,979 chunks — still embedding"), and
 * asked again when the embedding ends (or with "Search again"). The file open when a question is
 * asked goes with it (`near`): its chunks and its folders' are embedded first. Each hit shows
 * its snippet with the matched words marked and a "why": similarity, lexical terms, the ranks
 * it had in each list, exact identifier. The status line names the model that answered; before a
 * question, the model in use and "Use my own model…" are shown (EmbedModelPicker.tsx).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toQuarryError } from '../core/errors';
import type { EngineClient } from '../worker/client';
import type { SemanticHitView, SemanticResult } from '../worker/protocol';
import { formatCount, plural } from './format';
import { HitResults, type HitStatus } from './HitResults';
import { SearchStatus } from './SearchStatus';
import { splitList, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import type { SemanticState } from './use-semantic';
import { visibleText } from './visible-text';
import { EmbedModelPicker, modelLabel } from './EmbedModelPicker';

export const SEMANTIC_LIMIT = 50;
const MB = (n: number) => (n / 1e6).toFixed(1);

interface SemanticQuery {
  query: string;
  type: 'semantic' | 'hybrid';
  include: string[];
  exclude: string[];
  extensions: string[];
  /** a rebuilt index searches again */
  indexVersion: number;
  /** asked while the embedding runs: asked again when it ends */
  complete: boolean;
  /** "Search again" */
  again: number;
}

const search = (engine: EngineClient, r: SemanticQuery, near: string) =>
  engine.callTool('semantic_search', {
    query: r.query,
    type: r.type,
    limit: SEMANTIC_LIMIT,
    include: r.include,
    exclude: r.exclude,
    extensions: r.extensions,
    ...(near ? { near } : {}),
  });

/** The search, with the file open as it starts: not part of the request, so opening a hit does not search again. */
function useSearchNear(file: string) {
  const openFile = useRef(file);
  useEffect(() => {
    openFile.current = file;
  }, [file]);
  return useCallback((engine: EngineClient, r: SemanticQuery) => search(engine, r, openFile.current), []);
}

export function SemanticResults({
  view,
  update,
  indexReady,
  indexVersion,
  type,
  semantic,
}: {
  view: ViewState;
  update: UpdateView;
  indexReady: boolean;
  indexVersion: number;
  type: 'semantic' | 'hybrid';
  semantic: SemanticState;
}) {
  const query = view.q.trim();
  const { ready, running, enable, error: enableError } = semantic;
  const state = semantic.status?.state;
  // the model is loaded and the chunks are being embedded: the engine answers from those embedded so far
  const early = !ready && running && semantic.progress?.phase === 'embedding';
  const [again, setAgain] = useState(0);

  // the first semantic search loads the model (a failed load waits for the button: no retry loop)
  useEffect(() => {
    if (query && indexReady && !ready && !running && !enableError && (state === 'off' || state === undefined))
      enable();
  }, [query, indexReady, ready, running, enableError, state, enable]);

  const request = useMemo<SemanticQuery | null>(
    () =>
      !query || !(ready || early) || !indexReady
        ? null
        : {
            query: view.q,
            type,
            include: splitList(view.include),
            exclude: splitList(view.exclude),
            extensions: splitList(view.ext),
            indexVersion,
            complete: ready,
            again,
          },
    [
      query,
      view.q,
      view.include,
      view.exclude,
      view.ext,
      type,
      ready,
      early,
      indexReady,
      indexVersion,
      again,
    ],
  );

  const searchNear = useSearchNear(view.file);

  if (state === 'unavailable') {
    return (
      <SearchStatus
        summary="Semantic search is not available in this build (it has no embedding model)."
        running={false}
        error={null}
      />
    );
  }
  if (!indexReady) {
    return (
      <SearchStatus
        summary="Waiting for the code index… semantic search starts when it is ready (Text and Regex work now)."
        running={false}
        error={null}
      />
    );
  }
  if (!ready && !early) return <EnableCard semantic={semantic} />;

  const summary = (status: HitStatus<SemanticResult>) =>
    semanticSummary(status, type, () => setAgain((n) => n + 1));
  const results = (
    <HitResults<SemanticQuery, SemanticHitView, SemanticResult>
      request={request}
      search={searchNear}
      summary={summary}
      label={type === 'hybrid' ? 'Hybrid results' : 'Semantic results'}
      hitTestId="semantic-hit"
      whyIdPrefix="semantic-why-"
      score={(hit) => hit.why.similarity ?? hit.score}
      scoreTitle={(hit) => (hit.why.similarity !== undefined ? 'Similarity' : 'Score')}
      whyLabel={(hit) => `Why ${visibleText(hit.symbolName) || 'this chunk'} matched`}
      why={(hit, whyId) => (
        <div id={whyId} className="ranked-why-panel" data-testid="semantic-why">
          {whyText(hit).map((t) => (
            <p key={t}>{t}</p>
          ))}
        </div>
      )}
      update={update}
    />
  );
  // with no question yet: which model answers, and the way to change it
  return early ? (
    <>
      <EnableCard semantic={semantic} />
      {results}
    </>
  ) : query ? (
    results
  ) : (
    <>
      {results}
      <EmbedModelPicker semantic={semantic} />
    </>
  );
}

/** The status line: the count and time, the model that answered, and how much was searched while embedding goes on. */
function semanticSummary(
  status: HitStatus<SemanticResult>,
  type: 'semantic' | 'hybrid',
  searchAgain: () => void,
): ReactNode {
  if (status.state === 'idle')
    return 'Ask in words what the code does, e.g. “where do we refresh an expired session”.';
  if (status.state === 'running') return 'Searching…';
  if (status.state === 'error' || status.state === 'waiting') return '';
  const { result } = status;
  return (
    <>
      {result.hits.length
        ? `${plural(result.hits.length, type === 'hybrid' ? 'hybrid result' : 'semantic result')} (${Math.round(result.elapsedMs)} ms)`
        : 'No chunk matches that question.'}
      {result.model && <ModelTag id={result.model} device={result.device} />}
      {result.searched !== undefined && result.of !== undefined && (
        <span className="semantic-coverage" data-testid="semantic-coverage">
          {' '}
          Searched {formatCount(result.searched)} of {formatCount(result.of)} chunks — still embedding{' '}
          <button type="button" onClick={searchAgain}>
            Search again
          </button>
        </span>
      )}
    </>
  );
}

/** Which model answered, and where it ran when it says: a small label, its full id in the title. */
function ModelTag({ id, device }: { id: string; device?: string }) {
  return (
    <span
      className="semantic-model"
      data-testid="semantic-model"
      data-model={id}
      data-device={device}
      title={`Answered by the model ${id}${device ? `, run on ${device}` : ''}`}
    >
      {modelLabel(id)}
      {device ? ` · ${device}` : ''}
    </span>
  );
}

function EnableCard({ semantic }: { semantic: SemanticState }) {
  const { progress, running, error, status } = semantic;
  const failed = error ?? (status?.state === 'failed' && status.error ? toQuarryError(status.error) : null);
  if (running) {
    const model = !progress || progress.phase === 'model';
    const pct = model
      ? progress?.totalBytes
        ? (progress.bytes / progress.totalBytes) * 100
        : undefined
      : progress.totalFiles
        ? (progress.files / progress.totalFiles) * 100
        : undefined;
    const text = model
      ? progress?.totalBytes
        ? `Loading the model · ${MB(progress.bytes)} of ${MB(progress.totalBytes)} MB`
        : 'Loading the model'
      : `Embedding chunks · ${formatCount(progress.files)} of ${formatCount(progress.totalFiles)}`;
    return (
      <div className="semantic-card" data-testid="semantic-progress">
        <div
          className="progress"
          role="progressbar"
          aria-label={`Enabling semantic search: ${text}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct === undefined ? undefined : Math.round(pct)}
        >
          <div
            className={`progress-fill${pct === undefined ? ' indeterminate' : ''}`}
            style={{ transform: pct === undefined ? undefined : `scaleX(${pct / 100})` }}
          />
        </div>
        <div className="git-progress-line">
          <span>{text}</span>
          <button type="button" onClick={semantic.cancel} aria-label="Cancel enabling semantic search">
            Cancel
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="semantic-card empty-hint" data-testid="semantic-enable">
      <p>
        Semantic search finds code by meaning: ask “where do we refresh an expired session” and it finds{' '}
        <code>renewToken</code>. A sentence model runs in this tab; nothing leaves the machine.
      </p>
      <p>
        Enabling loads the model once (kept for offline use) and embeds this repository’s{' '}
        {formatCount(status?.chunks ?? 0)} chunks (kept with its index).
      </p>
      <EmbedModelPicker semantic={semantic} />
      {failed && (
        <p className="inline-error" role="alert" data-testid="semantic-error">
          {failed.message}
        </p>
      )}
      <button
        type="button"
        className="primary"
        onClick={semantic.enable}
        data-testid="semantic-enable-button"
      >
        {failed ? 'Try again' : 'Enable semantic search'}
      </button>
    </div>
  );
}

function whyText(hit: SemanticHitView): string[] {
  const w = hit.why;
  const out: string[] = [];
  if (w.exactIdentifier) out.push('Exact identifier: its name is spelt in the query.');
  if (w.similarity !== undefined)
    out.push(
      `Similarity ${w.similarity.toFixed(3)} to the question${w.semanticRank ? ` (vector rank ${w.semanticRank})` : ''}.`,
    );
  if (w.lexicalRank !== undefined)
    out.push(
      `Ranked (lexical) rank ${w.lexicalRank}${w.terms.length ? `, matching ${w.terms.join(', ')}` : ''}.`,
    );
  return out;
}

/**
 * The open file with blame (the address's `blame`): each line's last commit in a gutter, shown
 * once per run of lines from the same commit (short oid, author, relative date; a bar whose
 * strength says how recent). The commit's button opens that commit's diff of this file. Blame
 * runs in the worker as a job with progress and Cancel; a second open of the same file at the
 * same HEAD comes from the engine's memory at once.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import { displayLine, splitLines } from '../../core/diff/lines';
import type { BlameResult } from '../../worker/protocol';
import { CodeText } from '../CodeText';
import { useEngine } from '../engine';
import { formatCount, plural } from '../format';
import { GitProgressBar, ProgressStore } from '../git/GitProgress';
import { languageOf } from '../highlight';
import type { UpdateView } from '../use-view-state';
import { lazyMeasureOptions } from '../virtual';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { fullDate, relativeTime, shortOid } from './git-format';
import './diff.css';

const ROW_HEIGHT = 20;

type State =
  | { state: 'running'; progress: ProgressStore; cancel: () => void }
  | { state: 'ready'; result: BlameResult }
  | { state: 'cancelled' }
  | { state: 'error'; error: QuarryError };

interface LineInfo {
  commit: number;
  /** First line of a run of lines from one commit (the gutter shows the commit there). */
  first: boolean;
  /** Runs alternate shading. */
  odd: boolean;
}

function lineInfos(result: BlameResult): LineInfo[] {
  const out: LineInfo[] = new Array(result.lineCount);
  let group = -1;
  let prev = -1;
  for (const run of result.runs) {
    for (let i = 0; i < run.count; i++) {
      const first = run.commit !== prev;
      if (first) group++;
      prev = run.commit;
      out[run.start + i] = { commit: run.commit, first, odd: group % 2 === 1 };
    }
  }
  return out;
}

/** The file's blame from the engine (computed again when `attempt` changes), and the job's state. */
function useBlame(path: string, repoKey: string, attempt: number): State | null {
  const engine = useEngine();
  const [state, setState] = useState<State | null>(null);

  useEffect(() => {
    const progress = new ProgressStore();
    const job = engine.blame(path).onProgress((p) => progress.set(p));
    let live = true;
    setState({ state: 'running', progress, cancel: job.cancel });
    job.done.then(
      (end) =>
        live &&
        setState(
          end.stats.ending === 'cancelled' || !end.results[0]
            ? { state: 'cancelled' }
            : { state: 'ready', result: end.results[0] },
        ),
      (err) => live && setState({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
      job.cancel(); // a no-op once it has ended
    };
  }, [engine, path, repoKey, attempt]);
  return state;
}

/** A blamed line's gutter: its commit's age, and at the start of a run the commit, author and date. */
function BlameGutter({
  commit: c,
  first,
  recency,
  onOpen,
}: {
  commit: BlameResult['commits'][number];
  first: boolean;
  /** 0..1: how recent the commit is among the blame's. */
  recency: number;
  /** Show the commit's diff of this file. */
  onOpen: () => void;
}) {
  const mark = c.boundary ? '^' : '';
  return (
    <span className="blame-gutter">
      <span className="blame-age" style={{ opacity: 0.15 + 0.85 * recency }} aria-hidden="true" />
      {first && (
        <>
          <button
            type="button"
            className="blame-commit"
            title={`${c.summary}\n${c.author}, ${fullDate(c.date)}\nOpen this commit's change to the file`}
            aria-label={`Commit ${shortOid(c.oid)} by ${c.author}: ${c.summary}. Show its diff of this file`}
            onClick={onOpen}
          >
            {mark}
            {shortOid(c.oid)}
          </button>
          <span className="blame-author">{c.author}</span>
          <time className="blame-date" title={fullDate(c.date)}>
            {relativeTime(c.date)}
          </time>
        </>
      )}
    </span>
  );
}

/** A blame that was cancelled or failed: compute it again, or show the file. */
function BlameStopped({
  error,
  onRetry,
  onClose,
}: {
  error: QuarryError | null;
  onRetry: () => void;
  onClose: () => void;
}) {
  return error === null ? (
    <div className="git-note" role="status">
      <p>Blame was cancelled.</p>
      <p>
        <button type="button" onClick={onRetry}>
          Compute it again
        </button>{' '}
        <button type="button" onClick={onClose}>
          Show the file
        </button>
      </p>
    </div>
  ) : (
    <div className="git-note" role="alert">
      <p>
        <strong>Cannot blame this file.</strong> <VisibleText text={error.message} multiline />
      </p>
      <p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>{' '}
        <button type="button" onClick={onClose}>
          Show the file
        </button>
      </p>
    </div>
  );
}

/** Each commit's recency, 0..1 between the oldest and newest commit in the blame. */
function commitRecency(result: BlameResult): number[] {
  const dates = result.commits.map((c) => c.date);
  const lo = Math.min(...dates);
  const span = Math.max(...dates) - lo || 1;
  return dates.map((d) => (d - lo) / span);
}

/** The blame's bar: the file, what the blame is of, Close blame and the viewer's tools. */
function BlameBar({
  path,
  result,
  onClose,
  toolbar,
}: {
  path: string;
  result: BlameResult | null;
  onClose: () => void;
  toolbar?: ReactNode;
}) {
  return (
    <header className="viewer-bar">
      <h2 className="viewer-path" title={visibleText(path)}>
        <VisibleText text={path} />
      </h2>
      {result && (
        <p className="git-bar-info" data-testid="blame-info">
          <span className="mono">blame at HEAD {shortOid(result.head)}</span>
          <span>
            {plural(result.lineCount, 'line')} from {plural(result.commits.length, 'commit')}
          </span>
          {result.shallow && <span>a shallow clone: lines marked ^ may be older</span>}
        </p>
      )}
      <button type="button" onClick={onClose} title="Show the file without blame">
        Close blame
      </button>
      {toolbar}
    </header>
  );
}

export function BlameView({
  path,
  line,
  repoKey,
  update,
  toolbar,
}: {
  path: string;
  line: number;
  repoKey: string;
  update: UpdateView;
  toolbar?: ReactNode;
}) {
  const [attempt, setAttempt] = useState(0);
  const state = useBlame(path, repoKey, attempt);
  const scrollRef = useRef<HTMLDivElement>(null);

  const result = state?.state === 'ready' ? state.result : null;
  const lines = useMemo(() => (result ? splitLines(result.text).lines.map(displayLine) : []), [result]);
  const infos = useMemo(() => (result ? lineInfos(result) : []), [result]);
  // recency 0..1 between the oldest and newest commit in the blame
  const recency = useMemo(() => (result ? commitRecency(result) : []), [result]);

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    ...lazyMeasureOptions(),
  });
  useEffect(() => {
    if (result && line > 0) virtualizer.scrollToIndex(Math.min(line, lines.length) - 1, { align: 'center' });
  }, [result, line, lines.length, virtualizer]);

  const lang = languageOf(path);
  const width = String(lines.length).length;
  const close = () => update({ blame: false }, { push: true });
  return (
    <section
      className="viewer blame-view"
      role="region"
      aria-label={`Blame of ${visibleText(path)}`}
      data-testid="blame-view"
    >
      <BlameBar path={path} result={result} onClose={close} toolbar={toolbar} />
      {state?.state === 'running' && (
        <div className="git-progress-wrap">
          <GitProgressBar
            verb="Computing blame"
            store={state.progress}
            onCancel={state.cancel}
            testId="blame-progress"
          />
        </div>
      )}
      {(state?.state === 'cancelled' || state?.state === 'error') && (
        <BlameStopped
          error={state.state === 'error' ? state.error : null}
          onRetry={() => setAttempt((a) => a + 1)}
          onClose={close}
        />
      )}
      {result && (
        <div
          ref={scrollRef}
          className="viewer-scroll"
          tabIndex={0}
          aria-label={`Blamed lines of ${visibleText(path)}`}
          data-testid="blame-lines"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const n = item.index + 1;
              const info = infos[item.index];
              const c = result.commits[info.commit];
              return (
                <div
                  key={item.index}
                  className={`blame-row${info.first ? ' run-start' : ''}${info.odd ? ' odd' : ''}${n === line ? ' current' : ''}`}
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                  data-testid="blame-line"
                  data-line={n}
                  data-commit={c.oid}
                >
                  <BlameGutter
                    commit={c}
                    first={info.first}
                    recency={recency[info.commit]}
                    onOpen={() => update({ diff: c.oid, blame: false }, { push: true })}
                  />
                  <button
                    type="button"
                    tabIndex={-1}
                    className="ln"
                    style={{ width: `${width + 2}ch` }}
                    aria-label={`Line ${n}`}
                    onClick={() => update({ line: n })}
                  >
                    {n}
                  </button>
                  <span className="code">
                    <CodeText text={lines[item.index]} lang={lang} />
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      )}
      {result && result.lineCount === 0 && (
        <p className="panel-note">The file is empty at HEAD ({formatCount(0)} lines).</p>
      )}
    </section>
  );
}

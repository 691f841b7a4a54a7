/**
 * History: the branch and the commit log of a cloned repository or an opened folder with
 * .git. The log streams from the worker's history job: the stored log paints at once, then
 * what is new arrives (a progress line, and Stop, while it reads); the list is virtualized.
 * A commit expands to its changed files (read on demand); each opens as a diff against the
 * commit's parent, and an opened folder's uncommitted changes open as diffs against HEAD
 * (the address says `diff=<oid>` or `diff=worktree`).
 */
import { useEffect, useReducer, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { toQuarryError } from '../../core/errors';
import type { CommitChangesView, HistoryJobPart, LogCommit, RootInfo } from '../../worker/protocol';
import { useEngine } from '../engine';
import { plural } from '../format';
import { serializeViewState } from '../url-state';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { GitProgressBar, ProgressStore } from '../git/GitProgress';
import { tokenFor } from '../git/settings';
import { CommitList } from './CommitList';
import {
  freshnessText,
  historyReducer,
  INITIAL_HISTORY,
  progressText,
  type HistoryState,
} from './history-state';
import { Badge, EmptyNote, ErrorNote, Loading, PathText, type ViewProps } from './parts';
import './history.css';

/** Commits fetched per "fetch more history". */
const DEEPEN_BY = 50;

const CHANGE_TEXT: Record<string, string> = {
  add: 'added',
  modify: 'modified',
  delete: 'deleted',
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
  untracked: 'untracked',
};

type Changes =
  { state: 'loading' } | { state: 'ready'; value: CommitChangesView } | { state: 'error'; message: string };

/** With several roots: their list, and whose history is shown (a root's key; '' = the first root). */
function useHistoryRoots(repoKey: string) {
  const engine = useEngine();
  const [roots, setRoots] = useState<RootInfo[]>([]);
  const [root, setRoot] = useState('');
  useEffect(() => {
    let live = true;
    engine.roots().then(
      (list) => {
        if (!live) return;
        setRoots(list);
        setRoot((r) => (list.some((x) => x.key === r) ? r : ''));
      },
      () => live && setRoots([]),
    );
    return () => {
      live = false;
    };
  }, [engine, repoKey]);
  return { roots, root, setRoot };
}

/**
 * The log of `root` as it streams from the worker's history job (read again on a new
 * `attempt`), and the commit open in it with the changed files read so far. `generationRef`
 * is bumped when the log is read again: answers to older requests are dropped.
 */
function useHistoryLog(repoKey: string, attempt: number, root: string, generationRef: RefObject<number>) {
  const engine = useEngine();
  const [state, dispatch] = useReducer(historyReducer, INITIAL_HISTORY);
  const [running, setRunning] = useState<{ cancel: () => void } | null>(null);
  const [openCommit, setOpenCommit] = useState<string | null>(null);
  const [changes, setChanges] = useState<Map<string, Changes>>(new Map());

  // The log job: parts are applied once per frame (a burst of batches is one render).
  useEffect(() => {
    let live = true;
    let pending: HistoryJobPart[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      if (!live || !pending.length) return;
      const parts = pending;
      pending = [];
      dispatch({ type: 'parts', parts });
    };
    dispatch({ type: 'reset' });
    setOpenCommit(null);
    setChanges(new Map());
    // a commit's changed files asked for before this (another root, an earlier visit) are not shown
    generationRef.current++;
    const job = engine
      .historyLog(root ? { root } : {})
      .onBatch((parts) => {
        pending.push(...parts);
        frame ||= requestAnimationFrame(flush);
      })
      .onProgress((progress) => live && dispatch({ type: 'progress', progress }));
    setRunning({ cancel: job.cancel });
    job.done.then(
      (end) => {
        if (!live) return;
        flush();
        dispatch({ type: 'end', stats: end.stats });
        setRunning(null);
      },
      (err) => {
        if (!live) return;
        dispatch({ type: 'error', error: toQuarryError(err) });
        setRunning(null);
      },
    );
    return () => {
      live = false;
      if (frame) cancelAnimationFrame(frame);
      job.cancel();
    };
  }, [engine, repoKey, attempt, root, generationRef]);

  const toggle = (oid: string) => {
    const next = openCommit === oid ? null : oid;
    setOpenCommit(next);
    if (!next || changes.get(next)?.state === 'ready' || changes.get(next)?.state === 'loading') return;
    setChanges((m) => new Map(m).set(next, { state: 'loading' }));
    const asked = generationRef.current;
    engine.commitChanges(root ? { oid: next, root } : { oid: next }).then(
      (value) =>
        asked === generationRef.current && setChanges((m) => new Map(m).set(next, { state: 'ready', value })),
      (err) =>
        asked === generationRef.current &&
        setChanges((m) => new Map(m).set(next, { state: 'error', message: toQuarryError(err).message })),
    );
  };
  return { state, running, openCommit, changes, toggle };
}

/**
 * "Fetch more history" of a shallow clone: its progress and error; a complete one reads the
 * log again (`onDeepened`). Leaving History cancels it and drops every answer still coming.
 */
function useDeepen(generationRef: RefObject<number>, onDeepened: () => void) {
  const engine = useEngine();
  const [deepening, setDeepening] = useState<{ progress: ProgressStore; cancel: () => void } | null>(null);
  const [deepenError, setDeepenError] = useState('');
  const deepenJob = useRef<(() => void) | null>(null);
  useEffect(
    () => () => {
      generationRef.current++;
      deepenJob.current?.(); // leaving History cancels a "fetch more history"
    },
    [generationRef],
  );

  const fetchMore = async (libraryId: string, url: string) => {
    const progress = new ProgressStore();
    const job = engine
      .deepenRepo(libraryId, DEEPEN_BY, { token: tokenFor(url).token || undefined })
      .onProgress((p) => progress.set(p));
    setDeepening({ progress, cancel: job.cancel });
    setDeepenError('');
    deepenJob.current = job.cancel;
    const asked = generationRef.current;
    try {
      const end = await job.done;
      if (asked === generationRef.current && end.stats.ending === 'complete') onDeepened();
    } catch (err) {
      if (asked === generationRef.current) setDeepenError(toQuarryError(err).message);
    } finally {
      deepenJob.current = null;
      if (asked === generationRef.current) setDeepening(null);
    }
  };
  return { deepening, deepenError, fetchMore };
}

/** The height of the element `ref` is on, followed as it changes. */
function useObservedHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}

/** The root picker (with several roots): whose history is shown. */
function RootPicker({
  roots,
  root,
  setRoot,
}: {
  roots: RootInfo[];
  root: string;
  setRoot: (root: string) => void;
}) {
  return (
    <label className="check">
      Root{' '}
      <select
        value={root || roots[0].key}
        onChange={(e) => setRoot(e.target.value)}
        data-testid="history-root"
      >
        {roots.map((r) => (
          <option key={r.key} value={r.key}>
            {visibleText(r.name)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** How fresh the log is, and while it is read, how far it got (with Stop). */
function LogStatus({
  state,
  hasLog,
  running,
}: {
  state: HistoryState;
  hasLog: boolean;
  running: { cancel: () => void } | null;
}) {
  const freshness = freshnessText(state);
  return (
    <>
      {hasLog && freshness && (
        <p
          className="history-freshness"
          data-testid="history-freshness"
          data-from={state.from ?? ''}
          data-refresh={state.end?.refresh ?? ''}
        >
          {freshness}
        </p>
      )}
      {running && state.phase !== 'loading' && (
        <div className="history-progress" data-testid="history-progress">
          <span role="status">{progressText(state)}</span>
          <button type="button" onClick={running.cancel} aria-label="Stop reading the history">
            Stop
          </button>
        </div>
      )}
    </>
  );
}

/** A shallow clone's "Fetch more commits", its progress and its error. */
function DeepenControls({
  state,
  clone,
  deepen: { deepening, deepenError, fetchMore },
}: {
  state: HistoryState;
  clone: string;
  deepen: ReturnType<typeof useDeepen>;
}) {
  return (
    <>
      {state.phase === 'done' && state.shallow && state.libraryId && (
        <div className="view-controls">
          <button
            type="button"
            onClick={() => void fetchMore(state.libraryId!, clone)}
            disabled={!!deepening}
          >
            Fetch {DEEPEN_BY} more commits
          </button>
        </div>
      )}
      {deepening && (
        <GitProgressBar verb="Fetching history" store={deepening.progress} onCancel={deepening.cancel} />
      )}
      {deepenError && (
        <p className="form-error" role="alert">
          {deepenError}
        </p>
      )}
    </>
  );
}

/** An opened folder's uncommitted changes, each opening as a diff against HEAD. */
function UncommittedChanges({
  uncommitted,
  view,
  update,
}: { uncommitted: HistoryState['uncommitted'] } & Pick<ViewProps, 'view' | 'update'>) {
  return (
    <section
      aria-labelledby="uncommitted-title"
      className="history-uncommitted"
      data-testid="history-uncommitted"
    >
      <h3 id="uncommitted-title">Uncommitted changes</h3>
      {uncommitted.state === 'pending' && <p className="muted">Looking for uncommitted changes…</p>}
      {uncommitted.state === 'error' && (
        <p className="form-error">Could not read the uncommitted changes: {uncommitted.message}</p>
      )}
      {uncommitted.state === 'ready' &&
        (uncommitted.files.length === 0 ? (
          <p className="muted">None: the working tree matches the last commit.</p>
        ) : (
          <ChangedFiles
            label="Uncommitted changes"
            files={uncommitted.files.map((f) => ({ path: f.path, kind: f.status }))}
            diff="worktree"
            view={view}
            update={update}
          />
        ))}
    </section>
  );
}

export function HistoryView({ view, update, repoKey }: ViewProps) {
  const [attempt, setAttempt] = useState(0);
  const { roots, root, setRoot } = useHistoryRoots(repoKey);
  /** Bumped when the log is read again or the view goes away: answers to older requests are dropped. */
  const generation = useRef(0);
  const deepen = useDeepen(generation, () => setAttempt((a) => a + 1));
  const { state, running, openCommit, changes, toggle } = useHistoryLog(repoKey, attempt, root, generation);
  const bodyRef = useRef<HTMLDivElement>(null);
  const aboveRef = useRef<HTMLDivElement>(null);
  // The list's offset in the scroll body: what sits above it (uncommitted changes) changes height.
  const above = useObservedHeight(aboveRef);

  const unavailable = state.end && !state.end.available ? state.end.reason : null;
  const hasLog = state.phase !== 'loading' && state.phase !== 'error' && !unavailable;
  return (
    <section className="view-panel" aria-labelledby="history-title" data-testid="history-view">
      <div className="view-head">
        <h2 id="history-title">History</h2>
        {roots.length > 1 && <RootPicker roots={roots} root={root} setRoot={setRoot} />}
        {hasLog && <Summary state={state} />}
        <LogStatus state={state} hasLog={hasLog} running={running} />
        <DeepenControls state={state} clone={view.clone} deepen={deepen} />
      </div>
      <div className="view-body" ref={bodyRef}>
        <div ref={aboveRef}>
          {state.phase === 'loading' && !unavailable && <Loading>Reading the git history…</Loading>}
          {state.phase === 'error' && state.error && (
            <ErrorNote error={state.error} what="read the history" onRetry={() => setAttempt((a) => a + 1)} />
          )}
          {unavailable && (
            <EmptyNote title="No history to show.">
              <p>{unavailable}</p>
            </EmptyNote>
          )}
          {hasLog && state.uncommitted.state !== 'none' && (
            <UncommittedChanges uncommitted={state.uncommitted} view={view} update={update} />
          )}
          {hasLog && state.phase !== 'streaming' && state.commits.length === 0 && (
            <EmptyNote title="No commits yet." />
          )}
        </div>
        {hasLog && state.commits.length > 0 && (
          <CommitList
            commits={state.commits}
            scrollRef={bodyRef}
            scrollMargin={above}
            open={openCommit}
            onToggle={toggle}
            renderBody={(c) => (
              <CommitBody commit={c} changes={changes.get(c.oid)} view={view} update={update} />
            )}
          />
        )}
      </div>
    </section>
  );
}

function Summary({ state }: { state: HistoryState }) {
  return (
    <p className="view-summary" data-testid="view-summary">
      {state.branch ? (
        <>
          Branch{' '}
          <strong>
            <VisibleText text={state.branch} />
          </strong>
        </>
      ) : (
        'Detached HEAD'
      )}
      {state.head && ` at ${state.head.slice(0, 7)}`} · {plural(state.commits.length, 'commit')}
      {state.phase === 'streaming' && ' so far'}
      {state.shallow && ' · a shallow clone: older commits were not fetched'}
    </p>
  );
}

function CommitBody({
  commit: c,
  changes,
  view,
  update,
}: { commit: LogCommit; changes: Changes | undefined } & Pick<ViewProps, 'view' | 'update'>) {
  const body = c.message.split('\n').slice(1).join('\n').trim();
  return (
    <>
      {body && (
        <pre className="commit-message">
          <VisibleText text={body} multiline />
        </pre>
      )}
      {(!changes || changes.state === 'loading') && <p className="muted">Reading the changed files…</p>}
      {changes?.state === 'error' && (
        <p className="form-error">Could not read the changed files: {changes.message}</p>
      )}
      {changes?.state === 'ready' &&
        (changes.value.parentMissing ? (
          <p className="muted">
            This commit's parent is beyond the clone's depth, so its changes are unknown. Clone with more
            history to see them.
          </p>
        ) : changes.value.files.length === 0 ? (
          <p className="muted">No files changed.</p>
        ) : (
          <ChangedFiles
            label={`Files changed in ${c.oid.slice(0, 7)}`}
            files={changes.value.files.map((f) => ({ path: f.path, kind: f.type }))}
            diff={c.oid}
            view={view}
            update={update}
          />
        ))}
    </>
  );
}

/** Changed paths with their kind; each opens as a diff (`diff` is the commit, or 'worktree'), a deleted file too. */
function ChangedFiles({
  label,
  files,
  diff,
  view,
  update,
}: { label: string; files: Array<{ path: string; kind: string }>; diff: string } & Pick<
  ViewProps,
  'view' | 'update'
>) {
  return (
    <ul className="changed-files" aria-label={label}>
      {files.map((f) => {
        const target = { file: f.path, diff, line: 0 };
        const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          update(target, { push: true });
        };
        const current = view.file === f.path && view.diff === diff;
        return (
          <li key={f.path}>
            <Badge kind={f.kind}>{CHANGE_TEXT[f.kind] ?? f.kind}</Badge>{' '}
            <a
              href={`${location.pathname}${serializeViewState({ ...view, ...target })}`}
              onClick={onClick}
              className="file-link"
              aria-current={current ? 'location' : undefined}
              aria-label={`${visibleText(f.path)}, ${CHANGE_TEXT[f.kind] ?? f.kind}: open the diff`}
            >
              <PathText path={f.path} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}

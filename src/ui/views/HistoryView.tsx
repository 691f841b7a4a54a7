/**
 * History: the current branch and recent commits (author, date, message) of a cloned
 * repository or an opened folder that contains .git; a commit expands to its changed files
 * (each opens in the viewer when it still exists). Opened folders also list their
 * uncommitted changes.
 */
import { useEffect, useState } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import type { HistoryCommit, HistoryView as HistoryData, RootInfo } from '../../worker/protocol';
import { useEngine } from '../engine';
import { plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { Badge, EmptyNote, ErrorNote, FileLink, Loading, PathText, type ViewProps } from './parts';
import { GitProgressBar, ProgressStore } from '../git/GitProgress';
import { tokenFor } from '../git/settings';

/** Commits fetched per "fetch more history". */
const DEEPEN_BY = 50;

type State = { state: 'loading' } | { state: 'ready'; value: HistoryData } | { state: 'error'; error: QuarryError };

const CHANGE_TEXT: Record<string, string> = {
  add: 'added',
  modify: 'modified',
  delete: 'deleted',
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
  untracked: 'untracked',
};

export function HistoryView({ view, update, repoKey }: ViewProps) {
  const engine = useEngine();
  const [state, setState] = useState<State>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [openCommit, setOpenCommit] = useState<string | null>(null);
  const [deepening, setDeepening] = useState<{ progress: ProgressStore; cancel: () => void } | null>(null);
  const [deepenError, setDeepenError] = useState('');
  /** With several roots: whose history (a root's key; '' = the first root). */
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

  const fetchMore = async (libraryId: string, url: string) => {
    const progress = new ProgressStore();
    const job = engine.deepenRepo(libraryId, DEEPEN_BY, { token: tokenFor(url).token || undefined }, (p) => progress.set(p));
    setDeepening({ progress, cancel: job.cancel });
    setDeepenError('');
    try {
      const end = await job.done;
      if (end.stats.ending === 'complete') setAttempt((a) => a + 1);
    } catch (err) {
      setDeepenError(toQuarryError(err).message);
    } finally {
      setDeepening(null);
    }
  };

  useEffect(() => {
    let live = true;
    setState({ state: 'loading' });
    engine.history(root ? { limit: 100, root } : { limit: 100 }).then(
      (value) => live && setState({ state: 'ready', value }),
      (err) => live && setState({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
    };
  }, [engine, repoKey, attempt, root]);

  const h = state.state === 'ready' ? state.value : null;
  return (
    <section className="view-panel" aria-labelledby="history-title" data-testid="history-view">
      <div className="view-head">
        <h2 id="history-title">History</h2>
        {roots.length > 1 && (
          <label className="check">
            Root{' '}
            <select value={root || roots[0].key} onChange={(e) => setRoot(e.target.value)} data-testid="history-root">
              {roots.map((r) => (
                <option key={r.key} value={r.key}>
                  {visibleText(r.name)}
                </option>
              ))}
            </select>
          </label>
        )}
        {h?.available && (
          <p className="view-summary" data-testid="view-summary">
            {h.branch ? (
              <>
                Branch{' '}
                <strong>
                  <VisibleText text={h.branch} />
                </strong>
              </>
            ) : (
              'Detached HEAD'
            )}
            {h.head && ` at ${h.head.slice(0, 7)}`} · {plural(h.commits?.length ?? 0, 'commit')}
            {h.shallow && ' · a shallow clone: older commits were not fetched'}
          </p>
        )}
        {h?.available && h.shallow && h.libraryId && (
          <div className="view-controls">
            <button type="button" onClick={() => void fetchMore(h.libraryId!, view.clone)} disabled={!!deepening}>
              Fetch {DEEPEN_BY} more commits
            </button>
          </div>
        )}
        {deepening && <GitProgressBar verb="Fetching history" store={deepening.progress} onCancel={deepening.cancel} />}
        {deepenError && (
          <p className="form-error" role="alert">
            {deepenError}
          </p>
        )}
      </div>
      <div className="view-body">
        {state.state === 'loading' && <Loading>Reading the git history…</Loading>}
        {state.state === 'error' && <ErrorNote error={state.error} what="read the history" onRetry={() => setAttempt((a) => a + 1)} />}
        {h && !h.available && (
          <EmptyNote title="No history to show.">
            <p>{h.reason}</p>
          </EmptyNote>
        )}
        {h?.available && h.uncommitted && (
          <section aria-labelledby="uncommitted-title" className="history-uncommitted">
            <h3 id="uncommitted-title">Uncommitted changes</h3>
            {h.uncommitted.length === 0 ? (
              <p className="muted">None: the working tree matches the last commit.</p>
            ) : (
              <ChangedFiles
                label="Uncommitted changes"
                files={h.uncommitted.map((c) => ({ path: c.path, kind: c.status, gone: c.status === 'deleted' }))}
                view={view}
                update={update}
              />
            )}
          </section>
        )}
        {h?.available && h.commits && h.commits.length === 0 && <EmptyNote title="No commits yet." />}
        {h?.available && h.commits && h.commits.length > 0 && (
          <ol className="commit-list" aria-label="Commits">
            {h.commits.map((c) => (
              <CommitRow
                key={c.oid}
                commit={c}
                open={openCommit === c.oid}
                onToggle={() => setOpenCommit(openCommit === c.oid ? null : c.oid)}
                view={view}
                update={update}
              />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

function CommitRow({ commit: c, open, onToggle, view, update }: { commit: HistoryCommit; open: boolean; onToggle: () => void } & Pick<ViewProps, 'view' | 'update'>) {
  const [subject, ...body] = c.message.split('\n');
  const date = new Date(c.date);
  return (
    <li className="commit" data-testid="commit">
      <button type="button" className="commit-head" aria-expanded={open} onClick={onToggle}>
        <span className="commit-subject">
          <VisibleText text={subject} />
        </span>
        <span className="commit-meta">
          <span className="mono">{c.oid.slice(0, 7)}</span> · <VisibleText text={c.author} /> ·{' '}
          <time dateTime={date.toISOString()}>{date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time> ·{' '}
          {c.parentMissing ? 'changes not fetched' : plural(c.changedFiles.length, 'file')}
        </span>
      </button>
      {open && (
        <div className="commit-body">
          {body.join('\n').trim() && (
            <pre className="commit-message">
              <VisibleText text={body.join('\n').trim()} multiline />
            </pre>
          )}
          {c.parentMissing ? (
            <p className="muted">This commit's parent is beyond the clone's depth, so its changes are unknown. Clone with more history to see them.</p>
          ) : (
            <ChangedFiles
              label={`Files changed in ${c.oid.slice(0, 7)}`}
              files={c.changedFiles.map((f) => ({ path: f.path, kind: f.type, gone: f.type === 'delete' }))}
              view={view}
              update={update}
            />
          )}
        </div>
      )}
    </li>
  );
}

/** Changed paths with their kind; a path that still exists opens in the viewer. */
function ChangedFiles({
  label,
  files,
  view,
  update,
}: { label: string; files: Array<{ path: string; kind: string; gone: boolean }> } & Pick<ViewProps, 'view' | 'update'>) {
  return (
    <ul className="changed-files" aria-label={label}>
      {files.map((f) => (
        <li key={f.path}>
          <Badge kind={f.kind}>{CHANGE_TEXT[f.kind] ?? f.kind}</Badge>{' '}
          {f.gone ? (
            <PathText path={f.path} />
          ) : (
            <FileLink view={view} update={update} path={f.path}>
              <PathText path={f.path} />
            </FileLink>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The commits that changed the open file (the address's `fhist`), newest first, streamed from
 * the worker as the history is walked (progress and Cancel while it runs). Each opens that
 * commit's diff of the file; the one shown is marked. ↑/↓ move between commits.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import type { FileHistoryEntry } from '../../worker/protocol';
import { useEngine } from '../engine';
import { plural } from '../format';
import { GitProgressBar, ProgressStore } from '../git/GitProgress';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { fullDate, relativeTime, shortOid } from './git-format';
import './diff.css';

type Run =
  | { state: 'running'; progress: ProgressStore; cancel: () => void }
  | { state: 'done'; shallow: boolean }
  | { state: 'cancelled' }
  | { state: 'error'; error: QuarryError };

const CHANGE_TEXT = { add: 'added', modify: '', delete: 'deleted' } as const;

/** The file's history, streamed from the engine (read again when `attempt` changes), and the read's state. */
function useFileHistory(
  path: string,
  repoKey: string,
  attempt: number,
): { entries: FileHistoryEntry[]; run: Run | null } {
  const engine = useEngine();
  const [entries, setEntries] = useState<FileHistoryEntry[]>([]);
  const [run, setRun] = useState<Run | null>(null);

  useEffect(() => {
    let live = true;
    const progress = new ProgressStore();
    setEntries([]);
    const job = engine
      .fileHistory(path)
      .onBatch((items) => live && setEntries((prev) => [...prev, ...items]))
      .onProgress((p) => progress.set(p));
    setRun({ state: 'running', progress, cancel: job.cancel });
    job.done.then(
      (end) =>
        live &&
        setRun(
          end.stats.ending === 'cancelled'
            ? { state: 'cancelled' }
            : { state: 'done', shallow: end.stats.shallow },
        ),
      (err) => live && setRun({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
      job.cancel();
    };
  }, [engine, path, repoKey, attempt]);
  return { entries, run };
}

export function FileHistoryPanel({
  path,
  repoKey,
  selected,
  onOpen,
  onClose,
}: {
  path: string;
  repoKey: string;
  /** The commit whose diff is open (the address's `diff`). */
  selected: string;
  onOpen: (oid: string) => void;
  onClose: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  const { entries, run } = useFileHistory(path, repoKey, attempt);

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button.file-history-item')];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = items[Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  return (
    <aside className="file-history" aria-labelledby="file-history-title" data-testid="file-history">
      <div className="file-history-head">
        <h2 id="file-history-title">File history</h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close file history"
          title="Close the file history"
        >
          Close
        </button>
      </div>
      <p className="file-history-path" title={visibleText(path)}>
        <VisibleText text={path} />
      </p>
      {run?.state === 'running' && (
        <GitProgressBar
          verb="Reading the file history"
          store={run.progress}
          onCancel={run.cancel}
          testId="file-history-progress"
        />
      )}
      {run?.state === 'done' && (
        <p className="panel-note" role="status">
          {entries.length
            ? `${plural(entries.length, 'commit')} changed this file`
            : 'No commit changed this file (is it committed?).'}
          {run.shallow && ' · a shallow clone: older commits were not fetched'}
        </p>
      )}
      {run?.state === 'cancelled' && (
        <p className="panel-note" role="status">
          Stopped after {plural(entries.length, 'commit')}.{' '}
          <button type="button" className="link" onClick={() => setAttempt((a) => a + 1)}>
            Read it all
          </button>
        </p>
      )}
      {run?.state === 'error' && (
        <div className="panel-note" role="alert">
          <p>
            <VisibleText text={run.error.message} multiline />
          </p>
          <button type="button" onClick={() => setAttempt((a) => a + 1)}>
            Try again
          </button>
        </div>
      )}
      <ul
        className="file-history-list"
        aria-label={`Commits that changed ${visibleText(path)}`}
        onKeyDown={onKeyDown}
      >
        {entries.map((e) => {
          const current = selected === e.oid;
          const change = e.boundary ? 'oldest fetched' : CHANGE_TEXT[e.change];
          return (
            <li key={e.oid}>
              <button
                type="button"
                className="file-history-item"
                aria-current={current ? 'true' : undefined}
                onClick={() => onOpen(e.oid)}
                title={`${e.summary}\n${e.author}, ${fullDate(e.date)}`}
                data-testid="file-history-item"
              >
                <span className="file-history-summary">{e.summary || '(no message)'}</span>
                <span className="file-history-meta">
                  <span className="mono">{shortOid(e.oid)}</span> · {e.author} ·{' '}
                  <time title={fullDate(e.date)}>{relativeTime(e.date)}</time>
                  {change && ` · ${change}`}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

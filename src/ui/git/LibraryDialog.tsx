/**
 * Repositories: clone a git URL (branch or tag, history depth, token, CORS proxy) and the
 * library of cloned repositories and opened folders: source, branch, size on disk, files,
 * last index; open, fetch updates, delete; storage use against the browser's quota.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import {
  type CloneRequest,
  type GitJobStats,
  type LibraryEntry,
  type LibraryInfo,
} from '../../worker/protocol';
import { useEngine } from '../engine';
import { formatBytes, formatCount, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { CloneForm } from './CloneForm';
import { GitProgressBar, ProgressStore } from './GitProgress';
import { tokenFor } from './settings';

export interface CloneJobView {
  url: string;
  progress: ProgressStore;
  cancel: () => void;
}

export interface LibraryDialogProps {
  onClose: () => void;
  /** The running clone, if any (it keeps running when the dialog closes). */
  cloning: CloneJobView | null;
  /** Start a clone (the app owns it: it closes this dialog when the clone is in, or sets `cloneError`). */
  startClone: (request: CloneRequest) => void;
  /** Why the last clone failed (kept by the app, so it survives closing and reopening this dialog). */
  cloneError: QuarryError | null;
  onOpen: (entry: LibraryEntry) => void;
  /** Add the entry to the workspace as one more root. */
  onAdd: (entry: LibraryEntry) => void;
  onFetched: (entry: LibraryEntry, stats: GitJobStats) => void;
  onDeleted: (entry: LibraryEntry) => void;
  /** Keys of the open roots ('git:<id>', 'recent:<id>'..., made by the engine). */
  currentKeys: string[];
  /** Pre-filled URL and ref (a shared link to a repository that is not here yet). */
  prefill?: { url: string; ref: string };
}

function when(ms: number | undefined): string {
  if (!ms) return 'never';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function LibraryDialog(props: LibraryDialogProps) {
  const { onClose } = props;
  const engine = useEngine();
  const [info, setInfo] = useState<LibraryInfo | null>(null);
  const [loadError, setLoadError] = useState<string>('');
  const titleId = useId();

  const refresh = useCallback(() => {
    engine.library().then(
      (v) => {
        setInfo(v);
        setLoadError('');
      },
      (err) => setLoadError(toQuarryError(err).message),
    );
  }, [engine]);
  // Again whenever a clone ends (a failed one must show that nothing was added).
  const cloneRunning = !!props.cloning;
  useEffect(refresh, [refresh, cloneRunning]);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="library-dialog"
        data-testid="library-dialog"
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <header>
          <h2 id={titleId}>Repositories</h2>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </header>
        <CloneForm {...props} />
        <section aria-labelledby={`${titleId}-lib`} className="library">
          <h3 id={`${titleId}-lib`}>Library</h3>
          {loadError && (
            <p role="alert" className="form-error">
              The library could not be read: {loadError}
            </p>
          )}
          {!info && !loadError && <p>Loading…</p>}
          {info && info.repos.length === 0 && (
            <p className="muted">
              Nothing here yet. Clone a repository above, or open a folder: both are listed here.
            </p>
          )}
          {info && info.repos.length > 0 && (
            <ul className="library-list" aria-label="Repositories in the library">
              {info.repos.map((r) => (
                <LibraryRow key={r.id} entry={r} {...props} onChanged={refresh} />
              ))}
            </ul>
          )}
          {info && <StorageLine info={info} />}
        </section>
      </div>
    </div>
  );
}

function StorageLine({ info }: { info: LibraryInfo }) {
  const s = info.storage;
  const pct =
    s.usageBytes !== null && s.quotaBytes ? Math.round((s.usageBytes / s.quotaBytes) * 1000) / 10 : null;
  return (
    <p className="storage-line" data-testid="storage-line">
      Storage: clones take {formatBytes(s.reposBytes)}
      {s.usageBytes !== null && s.quotaBytes !== null
        ? ` · this site uses ${formatBytes(s.usageBytes)} of ${formatBytes(s.quotaBytes)} the browser allows (${pct}%)`
        : ' · the browser does not report its quota'}
      {s.persisted === false && ' · the browser may evict this storage when space runs low'}
    </p>
  );
}

/** A library entry's branch, size, file count, and when it was indexed (and fetched). */
function LibraryFacts({ entry, isClone }: { entry: LibraryEntry; isClone: boolean }) {
  return (
    <dl className="library-facts">
      <div>
        <dt>Branch</dt>
        <dd>{entry.branch ? <VisibleText text={entry.branch} /> : '—'}</dd>
      </div>
      <div>
        <dt>Size</dt>
        <dd>{formatBytes(entry.sizeBytes)}</dd>
      </div>
      <div>
        <dt>Files</dt>
        <dd>{formatCount(entry.fileCount)}</dd>
      </div>
      <div>
        <dt>Indexed</dt>
        <dd>{when(entry.lastIndexedAt)}</dd>
      </div>
      {isClone && (
        <div>
          <dt>Fetched</dt>
          <dd>{when(entry.lastFetchedAt)}</dd>
        </div>
      )}
    </dl>
  );
}

/** Delete, then a confirmation (delete the clone, or forget the folder) or keep it. */
function DeleteControl({
  name,
  isClone,
  confirming,
  setConfirming,
  disabled,
  onDelete,
}: {
  name: string;
  isClone: boolean;
  confirming: boolean;
  setConfirming: (v: boolean) => void;
  disabled: boolean;
  onDelete: () => void;
}) {
  return !confirming ? (
    <button
      type="button"
      onClick={() => setConfirming(true)}
      aria-label={`Delete ${visibleText(name)}`}
      disabled={disabled}
    >
      Delete
    </button>
  ) : (
    <span className="confirm" role="group" aria-label={`Confirm deleting ${visibleText(name)}`}>
      {isClone
        ? 'Delete the clone and free its storage?'
        : 'Remove this folder from the library? (its files stay on disk)'}{' '}
      <button type="button" className="danger" onClick={onDelete}>
        Yes, delete
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </span>
  );
}

/** A library entry's fetch (with progress) and delete, and what the last of them said. */
function useEntryActions(
  entry: LibraryEntry,
  onFetched: LibraryDialogProps['onFetched'],
  onDeleted: LibraryDialogProps['onDeleted'],
  onChanged: () => void,
) {
  const engine = useEngine();
  const [fetching, setFetching] = useState<{ progress: ProgressStore; cancel: () => void } | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const fetchUpdates = async () => {
    const progress = new ProgressStore();
    const job = engine
      .fetchRepo(entry.id, { token: tokenFor(entry.url).token || undefined })
      .onProgress((p) => progress.set(p));
    setFetching({ progress, cancel: job.cancel });
    setMessage(null);
    try {
      const end = await job.done;
      if (end.stats.ending !== 'complete' || !end.stats.repo) {
        setMessage({ error: false, text: 'Fetch cancelled: nothing changed.' });
        return;
      }
      const changed = end.stats.changedPaths?.length ?? 0;
      const removed = end.stats.removedPaths?.length ?? 0;
      setMessage({
        error: false,
        text:
          end.stats.repo.commit === end.stats.previousCommit
            ? 'Already up to date.'
            : `Updated to ${end.stats.repo.commit.slice(0, 7)}: ${plural(changed, 'file')} added or changed, ${formatCount(removed)} removed.`,
      });
      onFetched(end.stats.repo, end.stats);
    } catch (err) {
      setMessage({ error: true, text: toQuarryError(err).message });
    } finally {
      setFetching(null);
      onChanged();
    }
  };

  const remove = async () => {
    try {
      await engine.deleteRepo(entry.id);
      onDeleted(entry);
    } catch (err) {
      setMessage({ error: true, text: toQuarryError(err).message });
    } finally {
      setConfirmDelete(false);
      onChanged();
    }
  };
  return { fetching, message, confirmDelete, setConfirmDelete, fetchUpdates, remove };
}

function LibraryRow({
  entry,
  currentKeys,
  onOpen,
  onAdd,
  onFetched,
  onDeleted,
  onClose,
  onChanged,
}: LibraryDialogProps & { entry: LibraryEntry; onChanged: () => void }) {
  const { fetching, message, confirmDelete, setConfirmDelete, fetchUpdates, remove } = useEntryActions(
    entry,
    onFetched,
    onDeleted,
    onChanged,
  );
  const isOpen = currentKeys.includes(entry.key);
  const isClone = entry.source === 'clone';

  return (
    <li className="library-row" data-testid="library-row" aria-label={visibleText(entry.name)}>
      <div className="library-main">
        <strong className="library-name">
          <VisibleText text={entry.name} />
        </strong>
        {isOpen && <span className="badge badge-open">open</span>}
        <span className="library-source mono" title={visibleText(entry.url)}>
          {isClone ? <VisibleText text={entry.url} /> : 'opened folder'}
        </span>
      </div>
      <LibraryFacts entry={entry} isClone={isClone} />
      <div className="library-actions">
        <button
          type="button"
          onClick={() => {
            onOpen(entry);
            onClose();
          }}
          aria-label={`Open ${visibleText(entry.name)}`}
          disabled={!!fetching}
        >
          Open
        </button>
        {!isOpen && currentKeys.length > 0 && (
          <button
            type="button"
            onClick={() => {
              onAdd(entry);
              onClose();
            }}
            aria-label={`Add ${visibleText(entry.name)} to the workspace`}
            title="Open it beside what is open: search and every view span all roots"
            disabled={!!fetching}
          >
            Add to workspace
          </button>
        )}
        {isClone && (
          <button
            type="button"
            onClick={() => void fetchUpdates()}
            aria-label={`Fetch updates for ${visibleText(entry.name)}`}
            disabled={!!fetching}
          >
            Fetch updates
          </button>
        )}
        <DeleteControl
          name={entry.name}
          isClone={isClone}
          confirming={confirmDelete}
          setConfirming={setConfirmDelete}
          disabled={!!fetching}
          onDelete={() => void remove()}
        />
      </div>
      {fetching && (
        <GitProgressBar verb="Fetching updates" store={fetching.progress} onCancel={fetching.cancel} />
      )}
      {message && (
        <p className={message.error ? 'form-error' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </li>
  );
}

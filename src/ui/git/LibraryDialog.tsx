/**
 * Repositories: clone a git URL (branch or tag, history depth, token, CORS proxy) and the
 * library of cloned repositories and opened folders: source, branch, size on disk, files,
 * last index; open, fetch updates, delete; storage use against the browser's quota.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
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
import { GitProgressBar, ProgressStore } from './GitProgress';
import { keepToken, loadProxy, saveProxy, tokenFor } from './settings';

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

export const DEPTH_CHOICES: ReadonlyArray<{ value: number; label: string }> = [
  { value: 1, label: 'Latest commit only (fastest)' },
  { value: 50, label: 'Last 50 commits' },
  { value: 0, label: 'Full history' },
];

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

function CloneForm({ cloning, startClone, cloneError, prefill }: LibraryDialogProps) {
  const [url, setUrl] = useState(prefill?.url ?? '');
  const [ref, setRef] = useState(prefill?.ref ?? '');
  const [depth, setDepth] = useState(1);
  const initialToken = tokenFor(prefill?.url ?? '');
  const [token, setToken] = useState(initialToken.token);
  const [remember, setRemember] = useState(initialToken.remembered);
  const [proxy, setProxy] = useState(loadProxy);
  const [showAccess, setShowAccess] = useState(!!initialToken.token || !!loadProxy());
  const [inputError, setInputError] = useState<QuarryError | null>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const proxyRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const error = inputError ?? cloneError;

  useEffect(() => urlRef.current?.focus(), []);

  // A failed clone that needs a token or a proxy opens those settings and focuses the field
  // (in an effect after the commit that rendered it).
  const focusField =
    cloneError?.code === 'AuthRequired'
      ? 'token'
      : cloneError?.code === 'NetworkError' && cloneError.data?.suggestCorsProxy
        ? 'proxy'
        : null;
  useEffect(() => {
    if (focusField) setShowAccess(true);
  }, [cloneError, focusField]);
  useEffect(() => {
    if (!showAccess || !focusField) return;
    (focusField === 'token' ? tokenRef : proxyRef).current?.focus();
  }, [cloneError, focusField, showAccess]);

  // A token kept for this host fills in when the URL changes.
  const onUrl = (value: string) => {
    setUrl(value);
    const t = tokenFor(value);
    if (t.token) {
      setToken(t.token);
      setRemember(t.remembered);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (cloning) return;
    const u = url.trim();
    if (!u) {
      setInputError(
        new QuarryError(
          'InvalidArgument',
          'Enter the URL of a git repository, for example https://github.com/owner/repo.git',
        ),
      );
      urlRef.current?.focus();
      return;
    }
    setInputError(null);
    saveProxy(proxy);
    keepToken(u, token, remember);
    startClone({
      url: u,
      ref: ref.trim() || undefined,
      depth,
      token: token.trim() || undefined,
      corsProxy: proxy.trim() || undefined,
    });
  };

  const branches = Array.isArray(error?.data?.branches) ? (error!.data.branches as string[]) : [];

  return (
    <form className="clone-form" onSubmit={submit} aria-labelledby={`${ids}-title`} data-testid="clone-form">
      <h3 id={`${ids}-title`}>Clone a git repository</h3>
      <div className="clone-row">
        <label htmlFor={`${ids}-url`}>Repository URL</label>
        <input
          id={`${ids}-url`}
          ref={urlRef}
          type="url"
          inputMode="url"
          placeholder="https://github.com/owner/repo.git"
          value={url}
          onChange={(e) => onUrl(e.target.value)}
          spellCheck={false}
          autoComplete="url"
          disabled={!!cloning}
        />
        <button type="submit" className="primary" disabled={!!cloning}>
          Clone
        </button>
      </div>
      <div className="clone-options">
        <label>
          Branch or tag{' '}
          <input
            value={ref}
            onChange={(e) => setRef(e.target.value)}
            placeholder="default branch"
            spellCheck={false}
            disabled={!!cloning}
            size={16}
          />
        </label>
        <label>
          History{' '}
          <select value={depth} onChange={(e) => setDepth(Number(e.target.value))} disabled={!!cloning}>
            {DEPTH_CHOICES.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="link"
          aria-expanded={showAccess}
          onClick={() => setShowAccess((v) => !v)}
        >
          Access token and CORS proxy
        </button>
      </div>
      {showAccess && (
        <div className="clone-access">
          <label>
            Access token (private repositories){' '}
            <input
              ref={tokenRef}
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              size={28}
            />
          </label>
          <label className="check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />{' '}
            Remember the token on this device
          </label>
          <label>
            CORS proxy URL{' '}
            <input
              ref={proxyRef}
              type="url"
              value={proxy}
              onChange={(e) => setProxy(e.target.value)}
              placeholder="none"
              spellCheck={false}
              size={32}
            />
          </label>
          <p className="muted">
            The token is kept in this tab's memory unless you tick “Remember”; it is sent with this
            repository's requests only, and through the CORS proxy when one is set, so use a proxy you trust.
            Browsers can only clone from servers that allow cross-origin requests; for other hosts, a CORS
            proxy relays the git traffic.
          </p>
        </div>
      )}
      {cloning && (
        <GitProgressBar
          verb="Cloning"
          store={cloning.progress}
          onCancel={cloning.cancel}
          testId="clone-progress"
        />
      )}
      {error && (
        <div className="form-error" role="alert" data-testid="clone-error">
          <p>
            <VisibleText text={error.message} multiline />
          </p>
          {branches.length > 0 && (
            <p>
              Pick one:{' '}
              {branches.map((b) => (
                <button key={b} type="button" className="chip" onClick={() => setRef(b)}>
                  <VisibleText text={b} />
                </button>
              ))}
            </p>
          )}
        </div>
      )}
    </form>
  );
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
  const engine = useEngine();
  const [fetching, setFetching] = useState<{ progress: ProgressStore; cancel: () => void } | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isOpen = currentKeys.includes(entry.key);
  const isClone = entry.source === 'clone';

  const fetchUpdates = async () => {
    const progress = new ProgressStore();
    const job = engine.fetchRepo(entry.id, { token: tokenFor(entry.url).token || undefined }, (p) =>
      progress.set(p),
    );
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
        {!confirmDelete ? (
          <button
            type="button"
            onClick={() => setConfirmDelete(true)}
            aria-label={`Delete ${visibleText(entry.name)}`}
            disabled={!!fetching}
          >
            Delete
          </button>
        ) : (
          <span className="confirm" role="group" aria-label={`Confirm deleting ${visibleText(entry.name)}`}>
            {isClone
              ? 'Delete the clone and free its storage?'
              : 'Remove this folder from the library? (its files stay on disk)'}{' '}
            <button type="button" className="danger" onClick={() => void remove()}>
              Yes, delete
            </button>{' '}
            <button type="button" onClick={() => setConfirmDelete(false)}>
              Keep
            </button>
          </span>
        )}
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

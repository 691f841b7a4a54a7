/**
 * The panels above the workspace: an open or a clone in progress (with Cancel), notices (errors,
 * permission, lost snapshots, clone offers), an address cut short, and a snapshot's note.
 */
import type { LibraryEntry } from '../../worker/protocol';
import { hasDirectoryPicker } from '../../adapters/browser/fs-access';
import { formatBytes, formatCount } from '../format';
import { GitProgressBar } from '../git/GitProgress';
import { useProgress } from '../progress-store';
import { VisibleText } from '../VisibleText';
import type { Overlong } from '../url-state';
import type { CloneJobView, Notice, Opening } from '../workspace/controller';

export function OpeningPanel({ opening }: { opening: Opening }) {
  const p = useProgress(opening.progress);
  const phase = !p
    ? 'Starting'
    : p.phase === 'listing'
      ? 'Listing files'
      : p.phase === 'reading'
        ? 'Reading files'
        : 'Indexing';
  const pct = p && p.totalFiles ? Math.round((p.files / p.totalFiles) * 100) : undefined;
  return (
    <div className="opening" data-testid="opening">
      <div className="opening-head">
        <strong>
          Opening <VisibleText text={opening.name} />
        </strong>
        <button type="button" onClick={opening.cancel}>
          Cancel
        </button>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label={phase}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={p ? `${phase}: ${p.files} files` : phase}
      >
        {/* transform, not width: a compositor-only change, so progress never costs the main thread a layout */}
        <div
          className={`progress-fill${pct === undefined ? ' indeterminate' : ''}`}
          style={{ transform: pct === undefined ? undefined : `scaleX(${pct / 100})` }}
        />
      </div>
      <p className="opening-detail">
        {phase}
        {p && p.phase === 'listing' && ` · ${formatCount(p.files)} files found (${formatBytes(p.bytes)})`}
        {p &&
          p.phase !== 'listing' &&
          ` · ${formatCount(p.files)} of ${formatCount(p.totalFiles)} files · ${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)}`}
      </p>
    </div>
  );
}

export function NoticePanel({
  notice,
  onOpenFolder,
  onDemo,
  onReopen,
  onClone,
}: {
  notice: Notice;
  onOpenFolder: () => void;
  onDemo: () => void;
  onReopen: (folder: LibraryEntry) => void;
  onClone: (url: string, ref: string) => void;
}) {
  if (notice.kind === 'clone-offer')
    return (
      <div className="notice" role="alert" data-testid="clone-offer">
        <p>
          This link points to the git repository{' '}
          <strong className="mono">
            <VisibleText text={notice.url} />
          </strong>
          {notice.ref && (
            <>
              {' '}
              at{' '}
              <strong>
                <VisibleText text={notice.ref} />
              </strong>
            </>
          )}
          , which is not in this browser yet. Clone it here to see the shared view.
        </p>
        <button type="button" className="primary" onClick={() => onClone(notice.url, notice.ref)}>
          Clone this repository
        </button>{' '}
        <button type="button" onClick={onDemo}>
          Open the demo
        </button>
      </div>
    );
  if (notice.kind === 'permission')
    return (
      <div className="notice" role="alert">
        <p>
          Quarry needs your permission to read{' '}
          <strong>
            <VisibleText text={notice.folder.name} />
          </strong>{' '}
          again.
        </p>
        <button type="button" className="primary" onClick={() => onReopen(notice.folder)}>
          Reopen <VisibleText text={notice.folder.name} />
        </button>
      </div>
    );
  if (notice.kind === 'snapshot-lost')
    return (
      <div className="notice" role="alert">
        <p>
          This link points to{' '}
          <strong>
            <VisibleText text={notice.name} />
          </strong>
          , a folder snapshot that cannot be re-read after a reload. Choose the folder again, or open the
          demo.
        </p>
        <button type="button" className="primary" onClick={onOpenFolder}>
          Choose the folder again
        </button>{' '}
        <button type="button" onClick={onDemo}>
          Open the demo
        </button>
      </div>
    );
  return (
    <div className="notice error" role="alert">
      <p>
        <strong>{notice.title}.</strong> <VisibleText text={notice.message} multiline />
      </p>
      <button type="button" onClick={onOpenFolder}>
        Open another folder
      </button>{' '}
      <button type="button" onClick={onDemo}>
        Open the demo
      </button>
    </div>
  );
}

/** The address's fields that were over their caps, cut short: what was done, and Dismiss. */
export function AddressTooLong({ overlong, onDismiss }: { overlong: Overlong[]; onDismiss: () => void }) {
  return (
    <div className="notice error" role="alert" data-testid="address-too-long">
      {overlong.map((o) => (
        <p key={o.field}>{o.message}</p>
      ))}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** A folder read through the directory input: a copy, so changes on disk do not show. */
export function SnapshotNote() {
  return (
    <p className="snapshot-note" role="note" data-testid="snapshot-note">
      This folder is a snapshot: the browser gave Quarry a copy of its files once, so changes on disk will not
      show up. Choose the folder again to refresh
      {hasDirectoryPicker() ? ', or use “Open folder” for a live folder.' : '.'}
    </p>
  );
}

/** A clone in progress (while the Repositories dialog, which shows it too, is closed). */
export function CloningPanel({ cloning }: { cloning: CloneJobView }) {
  return (
    <div className="opening" data-testid="cloning">
      <div className="opening-head">
        <strong>
          Cloning <VisibleText text={cloning.url} />
        </strong>
      </div>
      <GitProgressBar verb="Cloning" store={cloning.progress} onCancel={cloning.cancel} />
    </div>
  );
}

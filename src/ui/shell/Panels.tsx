/** The panels above the workspace: an open in progress (with Cancel) and notices (errors, permission, lost snapshots, clone offers). */
import type { LibraryEntry } from '../../worker/protocol';
import { formatBytes, formatCount } from '../format';
import { useProgress } from '../progress-store';
import { VisibleText } from '../VisibleText';
import type { Notice, Opening } from '../workspace/controller';

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

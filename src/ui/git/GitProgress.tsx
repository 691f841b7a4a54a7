/** A git job's progress: isomorphic-git's phase with counts, as a named progressbar (the phase is in its name). */
import { formatCount } from '../format';
import { visibleText } from '../visible-text';

import { ProgressStore, useProgress } from '../progress-store';

export { ProgressStore };

export function GitProgressBar({
  verb,
  store,
  onCancel,
  testId,
}: {
  verb: string;
  store: ProgressStore;
  onCancel?: () => void;
  testId?: string;
}) {
  const p = useProgress(store);
  // the phase text comes from the git server (its sideband messages): hidden characters shown
  const phase = visibleText(p?.label || 'Connecting');
  const pct = p && p.totalFiles ? Math.min(100, Math.round((p.files / p.totalFiles) * 100)) : undefined;
  const counts =
    p && p.files
      ? p.totalFiles
        ? `${formatCount(p.files)} of ${formatCount(p.totalFiles)}`
        : formatCount(p.files)
      : '';
  return (
    <div className="git-progress" data-testid={testId}>
      <div
        className="progress"
        role="progressbar"
        aria-label={`${verb}: ${phase}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={counts ? `${phase}: ${counts}` : phase}
      >
        <div
          className={`progress-fill${pct === undefined ? ' indeterminate' : ''}`}
          style={{ transform: pct === undefined ? undefined : `scaleX(${pct / 100})` }}
        />
      </div>
      <div className="git-progress-line">
        <span>
          {phase}
          {counts && ` · ${counts}`}
          {pct !== undefined && ` (${pct}%)`}
        </span>
        {onCancel && (
          <button type="button" onClick={onCancel} aria-label={`Cancel ${verb.toLowerCase()}`}>
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * The status bar: where the engine runs, the files read, the code index's status, what was
 * skipped, and whether Quarry works offline yet (or a new version waits).
 */
import { formatCount, plural } from '../format';
import { IndexStatusLine } from '../IndexStatusLine';
import type { OpenRoot, WorkspaceController, WorkspaceState } from '../workspace/controller';
import { OfflineStatus } from './OfflineStatus';

export function StatusBar({
  host,
  roots,
  index,
  controller,
  skippedTotal,
  onShowSkipped,
}: {
  /** Where the engine runs ('' while it starts). */
  host: string;
  roots: OpenRoot[];
  index: WorkspaceState['index'];
  controller: WorkspaceController;
  /** The walk's skips and the files the ranked index leaves to text search. */
  skippedTotal: number;
  onShowSkipped: () => void;
}) {
  const files = roots.reduce((n, r) => n + r.stats.files, 0);
  const readMs = roots.reduce((n, r) => n + r.stats.elapsedMs, 0);
  return (
    <footer className="statusbar">
      <span>{host ? `Engine: ${host === 'worker' ? 'web worker' : host}` : 'Starting engine…'}</span>
      {roots.length > 0 && (
        <>
          <span>
            {formatCount(files)} files read in {Math.round(readMs)} ms
          </span>
          <IndexStatusLine
            index={index}
            progress={controller.indexProgress}
            canRefresh={!roots.some((r) => r.spec.kind === 'files')}
            onRebuild={() => controller.buildIndex(true)}
            onRefresh={() => void controller.refresh()}
            onCancel={() => controller.cancelIndex()}
          />
          {skippedTotal > 0 && (
            <button type="button" className="link" onClick={onShowSkipped} data-testid="show-skipped">
              {plural(skippedTotal, 'entry', 'entries')} skipped
            </button>
          )}
        </>
      )}
      <OfflineStatus />
    </footer>
  );
}

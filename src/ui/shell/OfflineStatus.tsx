/**
 * The status bar's word on offline use (use-service-worker.ts): "Preparing offline use…" while a
 * first service worker fetches the app, "Ready to work offline" once one is active and controls
 * the page, and, when a new version was deployed, a prompt to reload onto it. A live region, so
 * the change is announced; nothing at all where no service worker is registered.
 */
import { useServiceWorker } from './use-service-worker';

export function OfflineStatus() {
  const { state, reload } = useServiceWorker();
  return (
    <span className="offline-status" role="status" data-testid="offline-status" data-state={state}>
      {state === 'installing' && <span className="offline-pending">Preparing offline use…</span>}
      {state === 'ready' && (
        <span
          className="offline-ready"
          title="Quarry's files are kept by the browser: it opens and works without a network"
        >
          <span aria-hidden="true">✓</span> Ready to work offline
        </span>
      )}
      {state === 'update' && (
        <span className="offline-update">
          A new version of Quarry is available.{' '}
          <button type="button" className="link" onClick={reload} data-testid="reload-update">
            Reload to update
          </button>
        </span>
      )}
    </span>
  );
}

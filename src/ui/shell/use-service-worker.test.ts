/** What the status bar says of offline use, from a registration's workers and the page's controller. */
import { describe, expect, it } from 'vitest';
import { offlineState } from './use-service-worker';

const worker = (state: ServiceWorkerState) => ({ state }) as ServiceWorker;
const reg = (r: { installing?: ServiceWorker; waiting?: ServiceWorker; active?: ServiceWorker }) => ({
  installing: r.installing ?? null,
  waiting: r.waiting ?? null,
  active: r.active ?? null,
});

describe('offlineState', () => {
  it('says nothing without a registration (quarry serve, no service worker support)', () => {
    expect(offlineState(null, false)).toBe('none');
    expect(offlineState(undefined, false)).toBe('none');
  });

  it('is not ready while the first worker installs, activates, or does not control the page yet', () => {
    expect(offlineState(reg({ installing: worker('installing') }), false)).toBe('installing');
    expect(offlineState(reg({ waiting: worker('installed') }), false)).toBe('installing');
    expect(offlineState(reg({ active: worker('activating') }), true)).toBe('installing');
    expect(offlineState(reg({ active: worker('activated') }), false)).toBe('installing');
  });

  it('is ready once an activated worker controls the page', () => {
    expect(offlineState(reg({ active: worker('activated') }), true)).toBe('ready');
    // a new version still downloading: the current one keeps the page working offline
    expect(offlineState(reg({ installing: worker('installing'), active: worker('activated') }), true)).toBe(
      'ready',
    );
  });

  it('offers the update when a new worker waits beside the active one', () => {
    expect(offlineState(reg({ waiting: worker('installed'), active: worker('activated') }), true)).toBe(
      'update',
    );
  });
});

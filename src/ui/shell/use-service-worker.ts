/**
 * What the service worker means for the person right now, from the plain ServiceWorker API (the
 * registration itself is vite-plugin-pwa's registerSW.js, a separate script that `quarry serve`
 * leaves out; without it this says nothing):
 * - 'installing': a first service worker is fetching the app's files; going offline now would fail;
 * - 'ready': a service worker is active and controls this page, so every file of the app is
 *   precached (a worker only activates once its precache is complete): safe to go offline;
 * - 'update': a new version was deployed and its worker waits; `reload()` lets it take over
 *   (SKIP_WAITING, which the generated sw.js listens for) and reloads once it controls the page.
 * It asks the network for nothing itself: the browser checks sw.js on each visit.
 */
import { useEffect, useState } from 'react';

export type OfflineState = 'none' | 'installing' | 'ready' | 'update';

/** The state a registration is in, for a page controlled (or not) by a service worker. */
export function offlineState(
  reg: Pick<ServiceWorkerRegistration, 'installing' | 'waiting' | 'active'> | null | undefined,
  controlled: boolean,
): OfflineState {
  if (!reg) return 'none';
  // a waiting worker beside an active one is a new version (a first one never waits)
  if (reg.waiting && reg.active) return 'update';
  if (reg.active?.state === 'activated' && controlled) return 'ready';
  if (reg.installing || reg.waiting || reg.active) return 'installing';
  return 'none';
}

export function useServiceWorker(): { state: OfflineState; reload: () => void } {
  const [state, setState] = useState<OfflineState>('none');
  const [reg, setReg] = useState<ServiceWorkerRegistration | null>(null);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const sw = navigator.serviceWorker;
    let current: ServiceWorkerRegistration | null = null;
    let live = true;
    const watched = new WeakSet<ServiceWorker>();
    const check = () => {
      if (!live || !current) return;
      for (const w of [current.installing, current.waiting, current.active])
        if (w && !watched.has(w)) {
          watched.add(w);
          w.addEventListener('statechange', check);
        }
      setState(offlineState(current, !!sw.controller));
    };
    const attach = (r: ServiceWorkerRegistration | undefined) => {
      if (!live || !r || current === r) return;
      current = r;
      setReg(r);
      r.addEventListener('updatefound', check);
      check();
    };
    const find = () => void sw.getRegistration().then(attach, () => {});
    // registerSW.js registers on the window's load event: look again once it has run
    find();
    const onLoad = () => setTimeout(find, 0);
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
    void sw.ready.then(attach);
    sw.addEventListener('controllerchange', check);
    return () => {
      live = false;
      window.removeEventListener('load', onLoad);
      sw.removeEventListener('controllerchange', check);
      current?.removeEventListener('updatefound', check);
    };
  }, []);

  const reload = () => {
    const waiting = reg?.waiting;
    if (!waiting) {
      location.reload();
      return;
    }
    // the new worker takes control (clientsClaim), then the page reloads onto it; a worker that
    // does not answer within a few seconds: reload anyway (it takes over on the next visit)
    const go = () => location.reload();
    navigator.serviceWorker.addEventListener('controllerchange', go, { once: true });
    setTimeout(go, 4000);
    waiting.postMessage({ type: 'SKIP_WAITING' });
  };

  return { state, reload };
}

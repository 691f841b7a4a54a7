/**
 * Offline readiness said out loud (issue 33, point 6): the status bar says "Ready to work
 * offline" only once a service worker is active and controls the page (so the app's files are
 * precached: a worker activates only when its install, the precache, succeeded), the page then
 * reloads with the network off; and when a new version is deployed (here sw.js really changes
 * on the server, as a deployment changes it), the new worker waits and the status bar offers a
 * reload, which brings the page onto it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

// the service worker is the subject (playwright.config.ts blocks it for the other specs)
test.use({ serviceWorkers: 'allow' });

const DIST = join(import.meta.dirname, '..', process.env.E2E_DIST ?? 'dist');

interface Seen {
  state: string;
  controller: string | null;
}

test('"Ready to work offline" once the service worker controls the page; a new deployment prompts a reload', async ({
  quarry,
  page,
  context,
}) => {
  test.setTimeout(180_000);
  // every state the status bar shows, with the page's controller at that moment
  await page.addInitScript(() => {
    const seen: Seen[] = [];
    (window as unknown as { __offlineSeen: Seen[] }).__offlineSeen = seen;
    let last = '';
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="offline-status"]');
      const state = el?.getAttribute('data-state') ?? '';
      if (!el || state === last) return;
      last = state;
      const controller = navigator.serviceWorker?.controller;
      seen.push({ state, controller: controller ? controller.state : null });
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });

  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  const status = page.getByTestId('offline-status');
  await expect(status).toHaveText(/Ready to work offline/, { timeout: 90_000 });
  const seen = await page.evaluate(() => (window as unknown as { __offlineSeen: Seen[] }).__offlineSeen);
  // a first visit: it was preparing before it was ready, and ready only with an active controller
  expect(seen.map((s) => s.state)).toContain('installing');
  expect(seen.filter((s) => s.state === 'ready').every((s) => s.controller === 'activated')).toBe(true);
  const worker = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const precache = (await caches.keys()).find((k) => k.startsWith('workbox-precache'));
    const kept = precache
      ? (await (await caches.open(precache)).keys()).map((r) => new URL(r.url).pathname)
      : [];
    return {
      active: reg?.active?.state,
      controlled: !!navigator.serviceWorker.controller,
      index: kept.some((p) => p.endsWith('/index.html')),
      demo: kept.some((p) => /quarry-demo-[\w-]+\.json$/.test(p)),
    };
  });
  expect(worker).toEqual({ active: 'activated', controlled: true, index: true, demo: true });

  // safe to go offline as it said: the app comes back from the service worker alone
  await context.setOffline(true);
  await page.reload();
  await quarry.waitForRepo('quarry (demo)');
  await expect(status).toHaveText(/Ready to work offline/);
  await context.setOffline(false);

  // A new deployment: the server's sw.js changes; the browser finds it on the next visit.
  const swPath = join(DIST, 'sw.js');
  const original = readFileSync(swPath);
  try {
    writeFileSync(swPath, Buffer.concat([original, Buffer.from(`\n// a new deployment ${Date.now()}\n`)]));
    await page.reload();
    await quarry.waitForRepo('quarry (demo)');
    await expect(status).toHaveText(/A new version of Quarry is available/, { timeout: 90_000 });
    expect(
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: reg?.waiting?.state, active: reg?.active?.state };
      }),
    ).toEqual({ waiting: 'installed', active: 'activated' });
    // the old page is still whole meanwhile; Reload brings the new worker in and the page onto it
    await page.evaluate(() => ((window as unknown as { __oldPage: boolean }).__oldPage = true));
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await status.getByRole('button', { name: 'Reload to update' }).click();
    await reloaded;
    expect(await page.evaluate(() => (window as unknown as { __oldPage?: boolean }).__oldPage ?? false)).toBe(
      false,
    );
    await quarry.waitForRepo('quarry (demo)');
    await expect(status).toHaveText(/Ready to work offline/, { timeout: 30_000 });
    expect(
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: reg?.waiting ?? null, active: reg?.active?.state };
      }),
    ).toEqual({ waiting: null, active: 'activated' });
  } finally {
    writeFileSync(swPath, original);
  }
});

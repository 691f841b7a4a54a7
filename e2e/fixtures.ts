/**
 * Shared e2e fixtures: every test records every request the page (and its workers) makes
 * and fails if one leaves 127.0.0.1; any dialog (alert/confirm/prompt) fails the test.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { QuarryPage } from './pages/quarry-page';

const LOCAL = new Set(['127.0.0.1']);

export function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    return LOCAL.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** No request left 127.0.0.1 (`urls`: every request a context made). */
export function expectLocalOnly(urls: string[]): void {
  expect(
    urls.filter((u) => !isLocal(u)),
    'requests that left 127.0.0.1',
  ).toEqual([]);
}

/** Dismiss every dialog (alert/confirm/prompt) the page opens, recording it in `seen`. */
export function dismissDialogs(page: Page, seen: string[]): void {
  page.on('dialog', (d) => {
    seen.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
}

export function expectNoDialogs(seen: string[]): void {
  expect(seen, 'dialogs opened by the page').toEqual([]);
}

export const test = base.extend<{ quarry: QuarryPage; requests: string[]; dialogs: string[] }>({
  requests: [
    async ({ context }, use) => {
      const urls: string[] = [];
      // Anything not local is recorded here, and cannot leave the machine: the browser sends it to
      // a proxy that is not there (CHROMIUM_ARGS), which only 127.0.0.1 bypasses. (Intercepting
      // every request with context.route instead costs each page load ~0.2 s of CPU and turns
      // the HTTP cache off, so every reload compiled every script and wasm module again.)
      context.on('request', (r) => urls.push(r.url()));
      await use(urls);
      expectLocalOnly(urls);
    },
    { auto: true },
  ],
  dialogs: [
    async ({ page }, use) => {
      const seen: string[] = [];
      dismissDialogs(page, seen);
      await use(seen);
      expectNoDialogs(seen);
    },
    { auto: true },
  ],
  quarry: async ({ page }, use) => {
    await use(new QuarryPage(page));
  },
});

export { expect };

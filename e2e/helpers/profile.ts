/**
 * A browser profile kept on disk, for two tests that need the same costly state (a folder of
 * thousands of files copied into OPFS and indexed): the first builds it in a persistent context
 * and leaves it; a later one, in the `timing` project, opens the same profile instead of building
 * it again. Each run of the suite has its own folder (named by the run's free port), and a test
 * that finds no profile builds its own, so a project run alone still works. The suite's global
 * teardown removes the folders (e2e/global-teardown.ts), also when the timing project never ran.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, test, type BrowserContext, type Page } from '@playwright/test';
import { dismissDialogs, expectLocalOnly, expectNoDialogs } from '../fixtures';
import { CHROMIUM_ARGS } from './chromium-args';

/** Every shared profile of the suite, by name. */
export const PROFILES = ['reopen'];

/** The folder of a shared profile for this run of the suite. */
export function profileDir(name: string): string {
  return join(tmpdir(), `quarry-e2e-${name}-${process.env.E2E_PORT ?? 'default'}`);
}

interface Profile {
  context: BrowserContext;
  page: Page;
  /** Close the browser, then fail when a request left 127.0.0.1 or a dialog opened (as the suite's fixtures do). */
  close(): Promise<void>;
}

/** Launch Chromium on a profile folder (created when missing) with the suite's settings. */
async function openProfile(dir: string): Promise<Profile> {
  const use = test.info().project.use;
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    baseURL: use.baseURL,
    viewport: use.viewport ?? { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const urls: string[] = [];
  const dialogs: string[] = [];
  context.on('request', (r) => urls.push(r.url()));
  // the pages open now (a persistent context starts with one) and every page opened later
  for (const p of context.pages()) dismissDialogs(p, dialogs);
  context.on('page', (p) => dismissDialogs(p, dialogs));
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      expectLocalOnly(urls);
      expectNoDialogs(dialogs);
    },
  };
}

/**
 * Run `body` on a profile's page and close the browser (then the request and dialog checks). A
 * failure attaches a screenshot of that page (the suite's own failure screenshot is of the fixture's
 * page, which these tests do not use) and is the error reported.
 */
export async function withProfile<T>(dir: string, body: (page: Page) => Promise<T>): Promise<T> {
  const profile = await openProfile(dir);
  let result: T;
  try {
    result = await body(profile.page);
  } catch (err) {
    const shot = test.info().outputPath('profile-page.png');
    await profile.page.screenshot({ path: shot }).catch(() => undefined);
    await profile.context.close().catch(() => undefined);
    throw err;
  }
  await profile.close();
  return result;
}

/** The address a profile's builder left for the next test (null when there is no ready profile). */
export function readyProfile(dir: string): string | null {
  const file = join(dir, 'quarry-e2e-address');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** Mark a profile as ready for the next test, with the address to open. */
export function markProfileReady(dir: string, address: string): void {
  writeFileSync(join(dir, 'quarry-e2e-address'), address);
}

/**
 * Forget the compiled code a profile's earlier visits left (V8's code cache), so the next load
 * compiles the app's scripts and wasm again as a first reload in a fresh browser would.
 */
export function dropCodeCache(dir: string): void {
  rmSync(join(dir, 'Default', 'Code Cache'), { recursive: true, force: true });
}

export function removeProfile(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

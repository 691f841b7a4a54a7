/**
 * Reopening from what is stored (issue 33, point 1): a folder of 4,000+ files (npm packages' own
 * trees, copied from node_modules into the origin-private file system and opened through the
 * folder picker) is opened once and indexed. On a reload, and on a deep link to one of its files,
 * the tree, quick open and the file come from the stored listing and index while the folder is
 * read again in the background ("Checking for changes"); files changed, added and removed on disk
 * between the visits are in the tree and in search once the check ends, and a search answered
 * before it ends is answered again (all in one test: each test copies and indexes the tree).
 * The reload's main thread is checked for long tasks (@timing), in the profile the first test
 * leaves (e2e/helpers/profile.ts: copying and indexing the tree is most of either test's time).
 * Times are printed and attached to the test, not asserted (the bench records them).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
// the base test: these tests drive a browser of their own on a profile folder (helpers/profile.ts),
// whose close() makes the fixtures' checks (no request off 127.0.0.1, no dialog)
import { expect, test } from '@playwright/test';
import {
  describeLongTasks,
  mark,
  readLongTasks,
  recordLongTasks,
  repoOpen,
  startTrace,
  stopTrace,
  until,
} from './helpers/long-tasks';
import { copyDiskDirToOpfs, pickerReturnsOpfs } from './helpers/opfs';
import {
  dropCodeCache,
  markProfileReady,
  profileDir,
  readyProfile,
  removeProfile,
  withProfile,
} from './helpers/profile';
import { QuarryPage } from './pages/quarry-page';

test.use({ trace: 'off', serviceWorkers: 'block' });

const NAME = 'reopen-tree';
/** 4,374 files: es-abstract's many small modules, lodash's, zod's sources and builds. */
const PACKAGES = ['es-abstract', 'lodash', 'zod'];
/** A file changed on disk between the visits, one added, one removed. */
const CHANGED = 'lodash/chunk.js';
const ADDED = 'added/reopen-added.js';
const REMOVED = 'lodash/zip.js';
const MARKER = 'reopenMarkerWord';
/** The deep link's file and line. */
const LINKED = 'es-abstract/2015/ToNumber.js';
/** The profile the first test leaves for the timing check: the tree in OPFS, opened and indexed. */
const PROFILE = profileDir('reopen');

let copied: string | null = null;
test.afterAll(() => {
  if (copied) rmSync(dirname(copied), { recursive: true, force: true });
  copied = null;
});
function tree(): string {
  if (copied) return copied;
  const root = join(mkdtempSync(join(tmpdir(), 'quarry-reopen-')), NAME);
  for (const pkg of PACKAGES) {
    const from = join('node_modules', pkg);
    if (!existsSync(from)) throw new Error(`${from} is missing: run npm ci`);
    cpSync(from, join(root, pkg), { recursive: true, dereference: true });
  }
  copied = root;
  return root;
}

/**
 * From the start of every document: when the tree, the check's status, a quick-open answer and a
 * code line first appeared, and when the check's status last went away (performance.now() times).
 */
async function recordTimeline(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const t: Record<string, number> = {};
    (window as unknown as { __reopen: Record<string, number> }).__reopen = t;
    const seen = (name: string, selector: string) => {
      if (!(name in t) && document.querySelector(selector)) t[name] = performance.now();
    };
    new MutationObserver(() => {
      seen('tree', '[role="tree"] [role="treeitem"]');
      seen('checking', '[data-testid="reconcile-status"]');
      seen('quickOpen', '[data-testid="quick-open-item"]');
      seen('codeLine', '[data-testid="code-line"]');
      if ('checking' in t && !document.querySelector('[data-testid="reconcile-status"]'))
        t.checked ??= performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
}
const timeline = (page: Page) =>
  page.evaluate(() => (window as unknown as { __reopen: Record<string, number> }).__reopen);

/** (In the page) the folder is being checked against the stored listing. */
const checking = () => !!document.querySelector('[data-testid="reconcile-status"]');
const notChecking = () => !document.querySelector('[data-testid="reconcile-status"]');

/** Copy the tree into OPFS (from a helper page, so its garbage stays out of the measured one), open it, index it. */
async function openAndIndex(quarry: QuarryPage, page: Page): Promise<void> {
  await pickerReturnsOpfs(page, NAME);
  await quarry.gotoEmpty();
  const helper = await page.context().newPage();
  await helper.goto('./manifest.webmanifest');
  const count = await copyDiskDirToOpfs(helper, tree(), NAME);
  await helper.close();
  expect(count).toBeGreaterThan(4000);
  await quarry.openFolderButton.click();
  await until(page, 'the tree', repoOpen, NAME, 120_000);
  expect(await quarry.waitForIndex(180_000)).toBe('full');
}

/** Change, add and remove a file of the OPFS copy (as another program would between visits). */
async function editOnDisk(page: Page): Promise<void> {
  await page.evaluate(
    async ({ dir, changed, added, removed, marker }) => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
      const write = async (path: string, text: string) => {
        const parts = path.split('/');
        let h = root;
        for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p, { create: true });
        const w = await (await h.getFileHandle(parts[parts.length - 1], { create: true })).createWritable();
        await w.write(text);
        await w.close();
      };
      await write(changed, `// changed between visits\nmodule.exports = function ${marker}Changed() {};\n`);
      await write(added, `export const ${marker}Added = 1;\n`);
      const parts = removed.split('/');
      let h = root;
      for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p);
      await h.removeEntry(parts[parts.length - 1]);
    },
    { dir: NAME, changed: CHANGED, added: ADDED, removed: REMOVED, marker: MARKER },
  );
}

function record(what: string, ms: number): void {
  const line = `${what}: ${Math.round(ms)} ms`;
  console.log(line);
  test.info().annotations.push({ type: 'time', description: line });
}

test('a reload and a deep link answer from the stored listing while the folder is checked; changes on disk are reconciled', async () => {
  test.setTimeout(420_000);
  removeProfile(PROFILE);
  const reopen = await withProfile(PROFILE, reloadAndReconcile);
  // the timing check's profile: the tree stored and indexed (reconciled with the changes above)
  markProfileReady(PROFILE, reopen);
});

/** The first test's steps, in the profile's page; returns the address that reopens the folder. */
async function reloadAndReconcile(page: Page): Promise<string> {
  const quarry = new QuarryPage(page);
  await openAndIndex(quarry, page);
  const address = new URL(page.url());
  expect(address.searchParams.get('repo')).toMatch(/^recent:/);
  const reopen = address.toString();

  // ---- a reload with nothing changed: the tree and quick open answer while the check runs
  await recordTimeline(page);
  let t0 = Date.now();
  await page.reload();
  await until(page, 'the tree', repoOpen, NAME, 60_000);
  record('reload -> tree', Date.now() - t0);
  await page.getByRole('button', { name: 'Go to file' }).click();
  await page.getByRole('combobox', { name: 'File name' }).fill('2015/ToNumber');
  await expect(page.getByTestId('quick-open-item').first()).toContainText('ToNumber.js');
  if (await page.evaluate(checking)) await page.screenshot({ path: 'e2e/output/reopen-checking.png' });
  await page.keyboard.press('Escape');
  await until(page, 'the check to end', notChecking, '', 120_000);
  const reload = await timeline(page);
  console.log(`reload timeline (ms since navigation): ${JSON.stringify(reload)}`);
  // the tree and quick open answered before the check ended: from the stored listing
  expect(reload.checking).toBeLessThanOrEqual(reload.tree);
  expect(reload.tree).toBeLessThan(reload.checked);
  expect(reload.quickOpen).toBeLessThan(reload.checked);
  await expect(quarry.treeItem('es-abstract')).toBeVisible();
  // nothing changed: the stored index answered as it was
  expect(await quarry.waitForIndex(60_000)).toBe('cache_hit');

  // ---- a deep link: its file's text before the check ends
  address.searchParams.set('file', LINKED);
  address.searchParams.set('line', '20');
  t0 = Date.now();
  await page.goto(address.toString());
  await quarry.codeLine(20).waitFor({ timeout: 60_000 });
  record('deep link -> file text', Date.now() - t0);
  await expect(quarry.viewer(LINKED)).toBeVisible();
  await until(page, 'the check to end', notChecking, '', 120_000);
  const link = await timeline(page);
  console.log(`deep link timeline (ms since navigation): ${JSON.stringify(link)}`);
  expect(link.codeLine).toBeLessThan(link.checked);

  // ---- changed, added and removed between visits; a search run before (nothing found yet) is
  // answered from the stored index while the folder is checked, then again from what it holds now
  await quarry.search(`${MARKER}Changed`);
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('No matches');
  await editOnDisk(page);
  address.searchParams.delete('file');
  address.searchParams.delete('line');
  address.searchParams.set('q', MARKER);
  await page.goto(address.toString());
  await until(page, 'the tree', repoOpen, NAME, 60_000);
  // the stored listing still has the removed file and not the added one, and says it is checking
  await until(page, 'the check to be shown', checking);
  await expect(quarry.treeItem('added')).toHaveCount(0);
  // the search answers once the folder is checked, from what it holds now: the changed and the added file
  await until(page, 'the check to end', notChecking, '', 120_000);
  await expect(quarry.summary).toContainText(/^2 matches in 2 files/, { timeout: 60_000 });
  await expect(quarry.hits.filter({ hasText: `${MARKER}Changed` })).toHaveCount(1);
  await expect(quarry.hits.filter({ hasText: `${MARKER}Added` })).toHaveCount(1);
  await expect(quarry.treeItem('added')).toBeVisible();
  await quarry.treeItem('added').click();
  await expect(quarry.treeItem('reopen-added.js')).toBeVisible();
  // the index caught up with only what changed
  expect(await quarry.waitForIndex(120_000)).toBe('incremental');
  // quick open agrees with the disk
  await page.getByRole('button', { name: 'Go to file' }).click();
  await page.getByRole('combobox', { name: 'File name' }).fill('reopen-added');
  await expect(page.getByTestId('quick-open-item').first()).toContainText('reopen-added.js');
  await page.getByRole('combobox', { name: 'File name' }).fill('lodash/zip');
  const items = page.getByTestId('quick-open-item');
  // (an item's text is its name, then its folder)
  await expect(items.filter({ hasText: /^zipObject\.jslodash$/ })).toHaveCount(1);
  await expect(items.filter({ hasText: /^zip\.jslodash$/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Ranked search sees the changed file's new text
  await quarry.search(`${MARKER}Changed`, 'Ranked');
  await expect(quarry.rankedHits.first()).toContainText('chunk.js', { timeout: 30_000 });
  await page.screenshot({ path: 'e2e/output/reopen-reconciled.png' });
  return reopen;
}

test(
  'a reload of a 4,000-file folder shows its tree from the stored listing without long tasks',
  { tag: '@timing' },
  async () => {
    test.setTimeout(420_000);
    // the first test's profile when it passed (the tree stored and indexed), else one built here
    const address = readyProfile(PROFILE);
    if (address) dropCodeCache(PROFILE);
    else removeProfile(PROFILE);
    try {
      await withProfile(PROFILE, (page) => reloadMeasured(page, address));
    } finally {
      removeProfile(PROFILE);
    }
  },
);

async function reloadMeasured(page: Page, address: string | null): Promise<void> {
  const quarry = new QuarryPage(page);
  if (address) {
    await page.goto(address);
    await until(page, 'the tree', repoOpen, NAME, 60_000);
    await until(page, 'the check to end', notChecking, '', 120_000);
    await quarry.waitForIndex(120_000);
  } else await openAndIndex(quarry, page);
  await page.waitForTimeout(2_000);
  await recordLongTasks(page, { fromStart: true });
  const t0 = Date.now();
  await page.reload({ waitUntil: 'commit' });
  await startTrace(page);
  await until(page, 'the tree', repoOpen, NAME, 60_000);
  await mark(page, 'test:tree');
  const treeMs = Date.now() - t0;
  await quarry.treeItem('zod').click();
  await quarry.treeItem('package.json').waitFor();
  await until(page, 'the check to end', notChecking, '', 120_000);
  await page.waitForTimeout(1_000);
  await stopTrace(page, 'reopen');
  record('reload -> tree (traced)', treeMs);
  const r = await readLongTasks(page, { from: 'test:trace-start', bound: 50 });
  const summary = `reload: ${describeLongTasks(r, 50)}`;
  console.log(summary);
  test.info().annotations.push({ type: 'long tasks', description: summary });
  if (r.offending.length) console.log(`marks and long animation frames:\n  ${r.lines.join('\n  ')}`);
  expect(r.offending, "the app's frames blocking the main thread over 50 ms").toEqual([]);
}

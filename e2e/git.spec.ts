/**
 * Git in the browser (issue 5), against the local git server (e2e/git-server, started by the
 * Playwright config on 127.0.0.1:GIT_PORT): clone, search, History, reload offline, fetch
 * updates, cancel and retry, 404, a server killed mid-clone, 401 with a token, a shared link
 * that offers to clone, delete.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import type { QuarryPage } from './pages/quarry-page';

// offline use needs the service worker (playwright.config.ts blocks it for the other specs)
test.use({ serviceWorkers: 'allow' });

const GIT = `http://127.0.0.1:${process.env.GIT_PORT ?? 8174}`;
const repoUrl = (name: string, prefix = '') => `${GIT}${prefix}/${name}.git`;

function libraryButton(page: Page) {
  return page.getByRole('button', { name: 'Repositories', exact: true });
}
function dialog(page: Page) {
  return page.getByRole('dialog', { name: 'Repositories' });
}

/** Open the Repositories dialog and start a clone; returns without waiting for it to finish. */
async function startClone(page: Page, url: string, options: { depth?: string; ref?: string } = {}) {
  if (!(await dialog(page).isVisible())) await libraryButton(page).click();
  const d = dialog(page);
  await d.getByRole('textbox', { name: 'Repository URL' }).fill(url);
  if (options.ref) await d.getByRole('textbox', { name: 'Branch or tag' }).fill(options.ref);
  if (options.depth)
    await d.getByRole('combobox', { name: 'History' }).selectOption({ label: options.depth });
  await d.getByRole('button', { name: 'Clone', exact: true }).click();
}

async function cloneAndOpen(quarry: QuarryPage, page: Page, name: string, options: { depth?: string } = {}) {
  await startClone(page, repoUrl(name), options);
  await expect(dialog(page)).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo(name, 60_000);
}

async function searchFinds(quarry: QuarryPage, text: string, path: string) {
  await quarry.search(text);
  await quarry.waitForSearchDone();
  await expect(quarry.page.getByTestId('result-file').filter({ hasText: path }).first()).toBeVisible();
}

test('clone a repository, search it, see its History, then reload offline and search again', async ({
  quarry,
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await quarry.gotoEmpty();
  await startClone(page, repoUrl('small-app'), { depth: 'Full history' });
  // The progress is a progressbar named after isomorphic-git's phase.
  await expect(page.getByRole('progressbar', { name: /^Cloning: / })).toBeVisible();
  await expect(dialog(page)).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('small-app');
  await expect(page).toHaveURL(/repo=git%3A127\.0\.0\.1-\d+-small-app/);
  await expect(page).toHaveURL(/clone=http%3A%2F%2F127\.0\.0\.1/);
  await searchFinds(quarry, 'calculateTotal', 'src/app.ts');

  await page.getByRole('link', { name: 'History' }).click();
  const commits = page.getByTestId('commit');
  await expect(page.getByTestId('history-view').getByTestId('view-summary')).toContainText('Branch main');
  await expect(commits.last()).toContainText('Initial commit');
  await expect(commits.filter({ hasText: 'Add a Button component' })).toHaveCount(1);
  await commits.filter({ hasText: 'Add a Button component' }).getByRole('button').click();
  const changed = page.getByRole('list', { name: /^Files changed in / });
  await expect(changed).toContainText('src/components/Button.tsx');
  await expect(changed).toContainText('added');
  mkdirSync('e2e/screenshots', { recursive: true });
  await page.screenshot({ path: 'e2e/screenshots/history.png' });
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="history-view"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);

  // The index is stored, then the network goes away: the service worker serves the app and the clone lives in IndexedDB.
  await quarry.waitForIndex();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.getByRole('link', { name: 'Search', exact: true }).click();
  await context.setOffline(true);
  await page.reload();
  await quarry.waitForRepo('small-app');
  await searchFinds(quarry, 'formatMoney', 'src/util/strings.ts');
  await context.setOffline(false);
});

test('fetch updates brings a pushed commit in and re-indexes only the changed files', async ({
  quarry,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await quarry.gotoEmpty();
  await cloneAndOpen(quarry, page, 'small-app');
  await quarry.waitForIndex();
  const marker = `pushedAfterClone${Date.now()}`;
  const pushed = await request.post(`${GIT}/_control/commit`, {
    data: {
      name: 'small-app',
      files: { 'src/pushed.ts': `export const ${marker} = true;\n` },
      message: 'Push a new file',
    },
  });
  expect(pushed.ok()).toBe(true);

  await libraryButton(page).click();
  const row = dialog(page).getByRole('listitem', { name: 'small-app' });
  await row.getByRole('button', { name: 'Fetch updates for small-app' }).click();
  await expect(row.getByRole('status')).toContainText(
    /Updated to [0-9a-f]{7}: 1 file added or changed, 0 removed/,
    { timeout: 60_000 },
  );
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  // Focus returns to the button that opened the dialog.
  await expect(libraryButton(page)).toBeFocused();
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'incremental', { timeout: 90_000 });
  await expect(quarry.indexStatus).toHaveAttribute('data-state', 'ready');
  await searchFinds(quarry, marker, 'src/pushed.ts');

  // A shallow clone's History shows what was fetched and offers more.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('commit')).toHaveCount(1);
  await page.getByRole('button', { name: 'Fetch 50 more commits' }).click();
  await expect(page.getByTestId('commit').last()).toContainText('Initial commit', { timeout: 30_000 });
  await expect(page.getByTestId('commit').first()).toContainText('Push a new file');
  await expect(page.getByRole('button', { name: 'Fetch 50 more commits' })).toHaveCount(0);
});

test('cancel a clone midway, then retry it; a server killed mid-clone leaves no library entry', async ({
  quarry,
  page,
}) => {
  test.setTimeout(150_000);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  // A slow server: cancel once objects are arriving.
  await startClone(page, repoUrl('big-app', '/slow/30'));
  const bar = page.getByRole('progressbar', { name: /^Cloning: / });
  // The bar is named after isomorphic-git's phase: cancel once objects are arriving.
  await expect(
    page.getByRole('progressbar', { name: /^Cloning: (Counting|Compressing|Receiving|Resolving) / }),
  ).toBeVisible({ timeout: 30_000 });
  await dialog(page).getByTestId('clone-progress').getByRole('button', { name: 'Cancel cloning' }).click();
  await expect(bar).toHaveCount(0, { timeout: 30_000 });
  // The library, read again after the clone ended, is still empty.
  await expect(dialog(page).getByText('Nothing here yet.')).toBeVisible();
  await expect(dialog(page).getByTestId('library-row')).toHaveCount(0);

  // The server dies after 50 kB.
  await startClone(page, repoUrl('big-app', '/kill/50000'));
  await expect(dialog(page).getByTestId('clone-error')).toContainText(/broke off|failed/, {
    timeout: 60_000,
  });
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  await libraryButton(page).click();
  await expect(dialog(page).getByText('Nothing here yet.')).toBeVisible();
  await expect(dialog(page).getByTestId('library-row')).toHaveCount(0);
  // The failure is still shown after closing and reopening the dialog.
  await expect(dialog(page).getByTestId('clone-error')).toContainText(/broke off|failed/);

  // Retry against the healthy server.
  await startClone(page, repoUrl('big-app'));
  await expect(dialog(page)).toHaveCount(0, { timeout: 90_000 });
  await quarry.waitForRepo('big-app', 60_000);
  await expect(quarry.repoName).toContainText('400 files');
});

test('errors say what happened: 404, an unknown branch, no CORS offers the proxy, 401 asks for a token', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  await quarry.gotoEmpty();
  await startClone(page, repoUrl('no-such-repo'));
  const error = dialog(page).getByTestId('clone-error');
  await expect(error).toContainText('repository not found', { timeout: 30_000 });

  await startClone(page, repoUrl('small-app'), { ref: 'no-such-branch' });
  await expect(error).toContainText('Its branches: dev, main', { timeout: 30_000 });
  await error.getByRole('button', { name: 'dev' }).click();
  await expect(dialog(page).getByRole('textbox', { name: 'Branch or tag' })).toHaveValue('dev');

  await dialog(page).getByRole('textbox', { name: 'Branch or tag' }).fill('');
  // A server that does not allow cross-origin requests: the message explains it and offers the proxy setting.
  await startClone(page, repoUrl('small-app', '/nocors'));
  await expect(error).toContainText('allow cross-origin requests', { timeout: 30_000 });
  await expect(dialog(page).getByRole('textbox', { name: 'CORS proxy URL' })).toBeFocused();

  await startClone(page, repoUrl('private-app'));
  await expect(error).toContainText('authentication required', { timeout: 30_000 });
  const token = dialog(page).getByLabel('Access token (private repositories)');
  await expect(token).toBeFocused();
  await token.fill('quarry-test-token');
  await dialog(page).getByRole('button', { name: 'Clone', exact: true }).click();
  await expect(dialog(page)).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('private-app');
  // The token is not in the address, and not stored unless asked.
  expect(page.url()).not.toContain('quarry-test-token');
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('quarry-test-token');
});

test('a shared link to a clone offers to clone it elsewhere and restores the view; delete frees it', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  const url = repoUrl('small-app');
  const link = `?repo=${encodeURIComponent('git:127.0.0.1-' + (process.env.GIT_PORT ?? 8174) + '-small-app')}&clone=${encodeURIComponent(url)}&q=formatMoney&file=src%2Futil%2Fstrings.ts&line=1`;
  await quarry.goto(link);
  const offer = page.getByTestId('clone-offer');
  await expect(offer).toContainText(url);
  await offer.getByRole('button', { name: 'Clone this repository' }).click();
  await expect(dialog(page).getByRole('textbox', { name: 'Repository URL' })).toHaveValue(url);
  await dialog(page).getByRole('button', { name: 'Clone', exact: true }).click();
  await expect(dialog(page)).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('small-app');
  await expect(quarry.searchBox).toHaveValue('formatMoney');
  await expect(quarry.viewer('src/util/strings.ts')).toBeVisible();
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first()).toBeVisible();

  // The library lists it with its facts; delete frees it and the demo takes its place.
  await libraryButton(page).click();
  const row = dialog(page).getByRole('listitem', { name: 'small-app' });
  await expect(row).toContainText('main');
  await expect(row).toContainText(/Files\s*\d+/);
  await expect(dialog(page).getByTestId('storage-line')).toContainText('clones take');
  mkdirSync('e2e/screenshots', { recursive: true });
  await page.screenshot({ path: 'e2e/screenshots/library.png' });
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="library-dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
  await row.getByRole('button', { name: 'Delete small-app' }).click();
  await row.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(dialog(page).getByTestId('library-row')).toHaveCount(0);
  await expect(dialog(page).getByTestId('storage-line')).toContainText('clones take 0 B');
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  await quarry.waitForRepo('quarry (demo)');
  // Its stored files are gone from lightning-fs's blob store (only the superblock may remain).
  const blobs = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('quarry-git');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('quarry-git_files').objectStore('quarry-git_files').count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        };
      }),
  );
  expect(blobs).toBeLessThanOrEqual(1);
});

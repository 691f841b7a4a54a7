/**
 * The code index in the browser (issue 4): built in the worker after a repository opens,
 * stored in IndexedDB per repository, refreshed incrementally; Ranked mode with score
 * explanations; the Related code panel; the index status line.
 */
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsFile, writeOpfsRepo } from './helpers/opfs';

const USERS_APP = {
  'package.json': '{ "name": "users-app" }\n',
  'src/users.ts': [
    "import { db } from './db';",
    '',
    'export interface User {',
    '  id: string;',
    '  name: string;',
    '}',
    '',
    '/** Looks a user up by id. */',
    'export function getUserById(id: string): User | undefined {',
    '  return db.users.find((user) => user.id === id);',
    '}',
    '',
    'export function listUsers(): User[] {',
    '  return db.users.slice();',
    '}',
    '',
  ].join('\n'),
  'src/orders.ts': [
    "import { db } from './db';",
    "import { getUserById } from './users';",
    '',
    'export function ordersForUser(id: string) {',
    '  const user = getUserById(id);',
    '  return user ? db.orders.filter((order) => order.userId === user.id) : [];',
    '}',
    '',
  ].join('\n'),
  'src/db.ts':
    'export const db = { users: [] as { id: string; name: string }[], orders: [] as { userId: string }[] };\n',
  'README.md': '# Users app\n\nFind a user by id.\n',
};

/** The size of the demo's index record in IndexedDB (0: none stored). */
function storedDemoIndexBytes(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('quarry-indexes');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('indexes')) return resolve(0);
          const get = db.transaction('indexes').objectStore('indexes').get('index:demo');
          get.onerror = () => reject(get.error);
          get.onsuccess = () =>
            resolve((get.result as Uint8Array | ArrayBuffer | undefined)?.byteLength ?? 0);
        };
      }),
  );
}

test('the demo opens with the index built with the app (cache_hit, nothing parsed); a rebuild is stored and found after a reload', async ({
  quarry,
  page,
}) => {
  test.setTimeout(240_000);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  expect(await quarry.waitForIndex()).toBe('cache_hit');
  await expect(quarry.indexStatus).toContainText(
    /Index: [\d,]+ of [\d,]+ files ranked · [\d,]+ chunks · cache_hit · built/,
  );
  // the shipped index came from the build: no parsing worker was started for it
  expect(
    page
      .workers()
      .map((w) => w.url())
      .filter((u) => u.includes('parse.worker')),
  ).toEqual([]);
  await quarry.search('withShippedIndexes', 'Ranked');
  await expect(quarry.rankedHits.first()).toContainText('withShippedIndexes');
  expect(await storedDemoIndexBytes(page)).toBe(0); // answered by the shipped copy, nothing stored

  // a rebuild parses the demo here and stores it; a reload finds that one
  await quarry.indexStatus.getByRole('button', { name: 'Rebuild index' }).click();
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'full', { timeout: 180_000 });
  await quarry.waitForIndex();
  expect(page.workers().some((w) => w.url().includes('parse.worker'))).toBe(true);
  expect(await storedDemoIndexBytes(page)).toBeGreaterThan(0);
  await page.reload();
  await quarry.waitForRepo('quarry (demo)');
  expect(await quarry.waitForIndex()).toBe('cache_hit');
});

test('an OPFS folder: Ranked, Related, then a changed file refreshes incrementally', async ({
  quarry,
  page,
}) => {
  test.setTimeout(240_000);
  await pickerReturnsOpfs(page, 'users-app');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'users-app', USERS_APP);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('users-app');
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'full', { timeout: 180_000 });
  await quarry.waitForIndex();

  // Ranked: "user by id" finds getUserById (identifier parts), first.
  await quarry.search('user by id', 'Ranked');
  await expect(page).toHaveURL(/mode=ranked/);
  await expect(quarry.rankedHits.first()).toHaveAttribute('data-path', 'src/users.ts');
  await expect(quarry.rankedHits.first()).toContainText('getUserById');
  await expect(quarry.rankedHits.first().locator('mark').first()).toBeVisible();
  await quarry.rankedHits
    .first()
    .getByRole('button', { name: /^Why getUserById scored/ })
    .click();
  const why = quarry.rankedHits.first().getByTestId('score-components');
  await expect(why).toContainText('idf');
  await expect(why).toContainText('bm25');
  await expect(why).toContainText('getuserbyid');

  // Open the hit: the viewer lands on the function, the Related panel lists related chunks.
  await quarry.rankedHits.first().getByTestId('ranked-open').click();
  await expect(quarry.viewer('src/users.ts')).toBeVisible();
  await expect(page).toHaveURL(/line=8/); // the chunk starts at its doc comment
  await expect(quarry.relatedPanel.getByTestId('related-item').first()).toBeVisible();
  await expect(quarry.relatedPanel).toContainText('ordersForUser');
  await quarry.relatedPanel.getByTestId('related-item').filter({ hasText: 'ordersForUser' }).click();
  await expect(quarry.viewer('src/orders.ts')).toBeVisible();
  // A preamble line (before the first symbol) has no chunk.
  await quarry.codeLine(1).getByRole('button', { name: 'Line 1' }).click();
  await expect(quarry.relatedPanel).toContainText('No related chunks found for that location');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );

  // Change one file in OPFS, refresh: only it is re-indexed, and its new content is found.
  await writeOpfsFile(
    page,
    'users-app',
    'src/orders.ts',
    USERS_APP['src/orders.ts'] +
      '\nexport function cancelInvoiceForCustomer(invoiceId: string) {\n  return invoiceId;\n}\n',
  );
  await quarry.indexStatus.getByRole('button', { name: 'Refresh' }).click();
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'incremental', { timeout: 60_000 });
  expect(await quarry.waitForIndex()).toBe('incremental');
  await quarry.search('cancel invoice customer', 'Ranked');
  await expect(quarry.rankedHits.first()).toContainText('cancelInvoiceForCustomer');
  await quarry.search('cancelInvoiceForCustomer', 'Text');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('1 match in 1 file');
  await expect(quarry.hits.first().locator('mark')).toHaveText('cancelInvoiceForCustomer');

  // Reload: the stored index is current.
  await page.reload();
  await quarry.waitForRepo('users-app');
  expect(await quarry.waitForIndex()).toBe('cache_hit');

  // Rebuild forces a full build.
  await quarry.indexStatus.getByRole('button', { name: 'Rebuild index' }).click();
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'full', { timeout: 60_000 });
  await page.screenshot({ path: 'e2e/output/index-ranked.png' });
});

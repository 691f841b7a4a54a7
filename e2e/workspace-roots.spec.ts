import { existsSync, mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { SMALL_APP } from './helpers/repos';

// No service worker: its precache fetches every chunk, and the second test counts chunk requests.
test.use({ serviceWorkers: 'block' });

test('two roots at once: a folder added beside the demo; search, tree, Ranked and the address span both; a root is removed', async ({
  quarry,
  page,
}) => {
  await pickerReturnsOpfs(page, 'small-app');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'small-app', SMALL_APP);

  await page.getByTestId('add-folder').click();
  await quarry.waitForRepo('quarry (demo) + small-app');
  await expect(quarry.repoName).toContainText('2 roots');
  await expect(page).toHaveURL(/\?repo=demo&repo=recent%3A/);
  const roots = page.getByRole('list', { name: 'Roots' });
  await expect(roots.getByRole('listitem')).toHaveText([/quarry/, /small-app/]);
  // The tree's top level is one folder per root.
  await expect(quarry.treeItem('quarry')).toBeVisible();
  await expect(quarry.treeItem('small-app')).toBeVisible();

  // History picks its root.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('history-view')).toContainText('The demo has no git history');
  await page.getByTestId('history-root').selectOption({ label: 'small-app' });
  await expect(page.getByTestId('history-view')).toContainText('small-app has no .git folder');
  await page.getByRole('link', { name: 'Search', exact: true }).click();

  // Search spans both roots; paths carry their root's name.
  await quarry.search('TODO: support discounts');
  await quarry.waitForSearchDone();
  // the demo (Quarry's own source) quotes this line in two tests; the folder holds it in a source file, shown first (relevance order)
  await expect(page.getByTestId('result-file')).toHaveText([
    'small-app/src/app.ts1',
    'quarry/src/core/tools/tools.test.ts2',
    'quarry/src/cli/mcp.test.ts1',
  ]);
  await page.getByRole('button', { name: /^3 \/\/ TODO: support discounts$/ }).click();
  await expect(quarry.viewer('small-app/src/app.ts')).toBeVisible();

  // Each root has its own index; Ranked mode answers from both.
  await quarry.waitForIndex();
  await quarry.search('calculate total', 'Ranked');
  await expect(quarry.rankedHits.first()).toContainText('small-app/src/app.ts');

  // The address names every root: a reload opens both again and the open file.
  await page.reload();
  await quarry.waitForRepo('quarry (demo) + small-app');
  await expect(quarry.viewer('small-app/src/app.ts')).toBeVisible();
  await quarry.waitForIndex();
  // Two roots as a user sees them, for the README.
  mkdirSync('e2e/output', { recursive: true });
  await page.screenshot({ path: 'e2e/output/roots.png' });
  if (process.env.UPDATE_SCREENSHOTS || !existsSync('e2e/screenshots/roots.png'))
    await page.screenshot({ path: 'e2e/screenshots/roots.png' });

  // Removing a root leaves the other; its paths lose the prefix, the open file stays open.
  await page.getByRole('button', { name: 'Remove quarry from the workspace' }).click();
  await quarry.waitForRepo('small-app');
  await expect(roots).toHaveCount(0);
  await expect(page).not.toHaveURL(/repo=demo/);
  await expect(quarry.viewer('src/app.ts')).toBeVisible();
  await expect(quarry.treeItem('src')).toBeVisible();
});

test('the Recent list and the index never load the git code: only the Repositories dialog does', async ({
  quarry,
  page,
}) => {
  const gitChunks: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/git-[^/]+\.js$/.test(r.url())) gitChunks.push(r.url());
  });
  await pickerReturnsOpfs(page, 'small-app');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'small-app', SMALL_APP);
  await quarry.openFolderButton.click(); // a folder without .git joins the library and Recent
  await quarry.waitForRepo('small-app');
  await quarry.waitForIndex(); // the build stamps the library entry
  await page.getByText('Recent', { exact: true }).click();
  await expect(
    page.getByRole('list', { name: 'Recent folders' }).getByRole('button', { name: 'small-app' }),
  ).toBeVisible();
  expect(gitChunks).toEqual([]);
  await page.getByTestId('open-library').click();
  await expect(
    page.getByRole('dialog', { name: 'Repositories' }).getByRole('listitem', { name: 'small-app' }),
  ).toBeVisible();
  expect(gitChunks.length).toBeGreaterThan(0);
});

import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { catastrophicRepo, HOSTILE, writeDiskRepo } from './helpers/repos';

test('hostile file names and lines are shown as text and run nothing', async ({ quarry, page }) => {
  const dir = writeDiskRepo('hostile', HOSTILE);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('hostile');

  const evilName = '<img src=x onerror=alert(1)>.ts';
  await expect(quarry.treeItem(evilName)).toBeVisible();
  await quarry.treeItem('src').click();
  await expect(quarry.treeItem('<b onmouseover=alert(3)>bold.md')).toBeVisible();
  await quarry.treeItem('<b onmouseover=alert(3)>bold.md').hover();

  await quarry.search('<script>');
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first().locator('mark').first()).toHaveText('<script>');
  await expect(quarry.summary).toContainText('3 matches in 3 files');

  await quarry.treeItem(evilName).click();
  const viewer = quarry.viewer(evilName);
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText('<img src=x onerror=alert(2)> in a comment')).toBeVisible();

  await page.keyboard.press('Control+p');
  await page.getByRole('dialog', { name: 'Quick open' }).getByRole('combobox').fill('img');
  await expect(page.getByRole('option').first()).toContainText('onerror');
  await page.keyboard.press('Escape');

  // Nothing from the repository became an element.
  expect(await page.locator('img, iframe, b[onmouseover]').count()).toBe(0);
  expect(await page.locator('script').evaluateAll((s) => s.filter((e) => !(e as HTMLScriptElement).src).length)).toBe(0);
  // (the `dialogs` fixture fails the test if any alert() ran)
});

test('a catastrophic regex neither freezes the page nor loses the repository', async ({ quarry, page }) => {
  await pickerReturnsOpfs(page, 'catastrophic');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'catastrophic', catastrophicRepo());
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('catastrophic');

  await quarry.search('(a+)+$', 'Regex');
  // The page answers while the search runs: a click toggles a button right away.
  const matchCase = page.getByRole('button', { name: 'Match case' });
  const t0 = Date.now();
  await matchCase.click();
  await expect(matchCase).toHaveAttribute('aria-pressed', 'true');
  expect(Date.now() - t0).toBeLessThan(2000);
  const ping = await page.evaluate(async () => {
    const s = performance.now();
    await new Promise((r) => setTimeout(r, 0));
    return performance.now() - s;
  });
  expect(ping).toBeLessThan(200);

  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText(/match|No matches/);
  // The repository is still loaded and searchable.
  await expect(quarry.repoName).toContainText('catastrophic');
  await quarry.search('plain text line 7');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('1 match in 1 file');
});

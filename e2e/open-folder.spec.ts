import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { SMALL_APP, writeDiskRepo } from './helpers/repos';

test('opens a folder through File System Access, keeps it in Recent and reopens it after a reload', async ({
  quarry,
  page,
}) => {
  await pickerReturnsOpfs(page, 'small-app');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'small-app', SMALL_APP);

  await quarry.openFolderButton.click();
  await quarry.waitForRepo('small-app');
  await expect(page).toHaveURL(/repo=recent%3A/);
  await expect(quarry.treeItem('src')).toBeVisible();
  // The walk policy: .gitignore'd entries are greyed, with their reason.
  await expect(quarry.treeItem('debug.log (ignored)')).toHaveClass(/skipped/);
  await expect(page.getByTestId('snapshot-note')).toHaveCount(0);

  await quarry.search('calculateTotal');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('2 matches in 1 file');
  await quarry.hits.nth(1).click();
  await expect(quarry.viewer('src/app.ts')).toBeVisible();
  await expect(quarry.codeLine(10)).toHaveAttribute('aria-current', 'true');

  // Skipped files are listed with reasons.
  await page.getByTestId('show-skipped').click();
  const dialog = page.getByRole('dialog', { name: 'Skipped files' });
  await expect(dialog.getByRole('row', { name: /debug\.log/ })).toContainText('.gitignore');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused(); // Tab stays in the dialog
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('show-skipped')).toBeFocused(); // focus goes back to what opened it

  await page.reload();
  await quarry.waitForRepo('small-app');
  await expect(quarry.viewer('src/app.ts')).toBeVisible();
  await expect(quarry.searchBox).toHaveValue('calculateTotal');
  await page.getByText('Recent', { exact: true }).click();
  await expect(
    page.getByRole('list', { name: 'Recent folders' }).getByRole('button', { name: 'small-app' }),
  ).toBeVisible();
});

test('opens a folder through the webkitdirectory input, as a snapshot', async ({ quarry, page }) => {
  const dir = writeDiskRepo('disk-app', SMALL_APP);
  await quarry.gotoEmpty();
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('disk-app');
  await expect(page.getByTestId('snapshot-note')).toContainText('snapshot');
  await expect(page).toHaveURL(/repo=snapshot%3Adisk-app/);
  await quarry.search('formatMoney');
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first().locator('mark')).toHaveText('formatMoney');
  await expect(quarry.summary).toContainText('3 matches in 2 files');

  // A snapshot cannot be re-read: a reload says so and offers what to do next.
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('cannot be re-read');
  await expect(page.getByRole('button', { name: 'Choose the folder again' })).toBeVisible();
});

test('previews a long minified line around its first hit, with the hit marked', async ({ quarry, page }) => {
  const bundle = 'var a=1;'.repeat(400) + 'function renderWidget(n){return n}' + ';x()'.repeat(500);
  const dir = writeDiskRepo('bundle-app', {
    'dist-min/bundle.js': bundle + '\n',
    'src/main.ts': 'renderWidget(2)\n',
    'src/wide.ts': `const pad = "${'x'.repeat(200)}"; export const farAway = 1\n`,
  });
  await quarry.gotoEmpty();
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('bundle-app');
  await quarry.search('renderWidget');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('2 matches in 2 files');
  // the row opens 24 characters before the hit at column 3,210, with the hit in view
  const longRow = quarry.hits.nth(0);
  await expect(longRow.locator('.result-more')).toHaveAttribute('title', 'from column 3186');
  await expect(longRow.locator('mark')).toHaveText('renderWidget');
  await expect(longRow.locator('mark')).toBeInViewport();
  await expect(longRow).toContainText('var a=1;function renderWidget(n){return n}');
  // a shorter line whose hit lies past the pane's width is shown from near the hit too
  await quarry.search('farAway');
  await quarry.waitForSearchDone();
  await expect(quarry.hits.nth(0).locator('mark')).toHaveText('farAway');
  await expect(quarry.hits.nth(0).locator('mark')).toBeInViewport();
  await expect(quarry.hits.nth(0).locator('.result-more')).toHaveAttribute('title', 'from column 206');
  await page.screenshot({ path: 'e2e/output/long-line-preview.png' });
});

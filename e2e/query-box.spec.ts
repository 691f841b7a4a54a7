/**
 * The search box's query language (issue 35) in the app: filters coloured as typed, completion
 * (filter names, then the open repository's languages), "+ Filter" writing into the query, an
 * error shown at its column with its suggestion applied by a button, type:symbol opening the
 * file at the line, an old link's include/ext turned into filters, a shared link reproducing
 * its results; then on the local git server's diff-app fixture type:commit and type:diff, each
 * opening its commit's diff (a diff line at its line), and a link to a type:diff query.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const GIT = `http://127.0.0.1:${process.env.GIT_PORT ?? 8174}`;
const SHOTS = 'e2e/output/query-box';

/** The files listed (collapsed first, so that every header is on screen, not only the first files' hits). */
async function resultPaths(page: Page): Promise<string[]> {
  const collapse = page.getByTestId('collapse-all');
  if ((await collapse.count()) && (await collapse.textContent()) === 'Collapse all') await collapse.click();
  return page
    .getByTestId('result-file')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}

test('completion, a chip, an error and its fix, type:symbol: the box reads the query language', async ({
  quarry,
  page,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  const box = quarry.searchBox;
  const list = page.getByRole('listbox', { name: 'Suggestions' });

  // `la` offers lang: (with its description); ArrowDown and Enter take it, then its values come
  await box.click();
  await box.pressSequentially('la');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option')).toContainText('Only files in this language');
  await page.screenshot({ path: `${SHOTS}/completion-filters.png` });
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', /.+/);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('lang:');
  // the languages present in the demo, most files first, the first one active
  const typescript = list.getByRole('option', { name: /^typescript\b/ });
  await expect(typescript).toContainText('TypeScript ·');
  await expect(list.getByRole('option', { name: /^markdown\b/ })).toBeVisible();
  await expect(list.getByRole('option', { name: /^python\b/ })).toHaveCount(0);
  // a filter still being completed is no error while its values are offered
  await expect(page).toHaveURL(/q=lang%3A(&|$)/);
  await expect(page.getByTestId('query-error')).toHaveCount(0);
  await expect(page.getByTestId('query-overlay').locator('.qt-error')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/completion-languages.png` });
  await typescript.click();
  await expect(box).toHaveValue('lang:typescript ');
  await expect(box).toBeFocused();
  await expect(list).toHaveCount(0);
  await box.pressSequentially('parseQuery');
  await quarry.waitForSearchDone();
  const overlay = page.getByTestId('query-overlay');
  await expect(overlay.locator('.qt-filter')).toHaveText('lang:');
  await expect(overlay.locator('.qt-value')).toHaveText('typescript');
  // the typed query reaches the address after a pause, and its search runs then: wait for both
  await expect(page).toHaveURL(/q=lang%3Atypescript\+parseQuery/);
  await expect.poll(async () => (await resultPaths(page)).length).toBeGreaterThan(1);
  let paths = await resultPaths(page);
  expect(paths.filter((p) => !/\.tsx?$/.test(p))).toEqual([]);
  await page.getByRole('search').screenshot({ path: `${SHOTS}/box-coloured.png` });

  // "+ Filter" from the keyboard: ArrowDown opens it on the first item, End and the arrows move
  // (wrapping), Escape closes it on its button
  const filterButton = page.getByTestId('filter-menu');
  const filterItems = page.getByRole('menu', { name: 'Add a filter' }).getByRole('menuitem');
  await filterButton.focus();
  await page.keyboard.press('ArrowDown');
  await expect(filterItems.first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(filterItems.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(filterItems.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(filterItems).toHaveCount(0);
  await expect(filterButton).toBeFocused();

  // "+ Filter" writes -file: at the end and leaves the caret for its value
  await filterButton.click();
  await page.getByRole('menuitem', { name: /^-file:/ }).click();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('lang:typescript parseQuery -file:');
  await page.keyboard.type('test');
  await expect(overlay.locator('.qt-operator')).toHaveText('-');
  await expect(page).toHaveURL(/-file%3Atest/);
  // (the last search's summary can still be on screen while this one starts and clears the list:
  // the new list is waited for, not read at once)
  await expect
    .poll(async () => {
      paths = await resultPaths(page);
      return paths.length > 0 && paths.every((p) => !p.includes('test'));
    })
    .toBe(true);

  // the list closed on a filter with no value: now it is said
  await box.fill('parseQuery lang:');
  await expect(list).toBeVisible();
  await expect(page).toHaveURL(/q=parseQuery\+lang%3A(&|$)/);
  await expect(page.getByTestId('query-error')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('query-error')).toBeVisible();
  await expect(overlay.locator('.qt-error')).toHaveText('lang:');

  // a near-miss filter: the message, the span at its column, a button that applies the suggestion
  await box.fill('parseQuery lnag:typescript');
  const error = page.getByTestId('query-error');
  await expect(error).toContainText('unknown filter `lnag:`');
  await expect(error).toContainText('column 12');
  await expect(error.getByTestId('query-error-where')).toContainText('^^^^^^^^^^^^^^^');
  await expect(overlay.locator('.qt-error')).toHaveText('lnag:typescript');
  await expect(quarry.hits).toHaveCount(0);
  await expect(quarry.summary).toHaveText('');
  await page.screenshot({ path: `${SHOTS}/error.png` });
  await error.getByRole('button', { name: 'Use lang:' }).click();
  await expect(box).toHaveValue('parseQuery lang:typescript');
  await expect(box).toBeFocused();
  await expect(error).toHaveCount(0);
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first()).toBeVisible();

  // type:symbol: the symbol table, the name's matched characters marked; a result opens the file at its line
  await box.fill('type:symbol parseQuery');
  const symbol = page.locator('[data-testid="symbol-result"][data-path="src/core/query/parse.ts"]').first();
  await expect(symbol).toBeVisible({ timeout: 30_000 });
  await expect(symbol.locator('mark').first()).toBeVisible();
  const line = Number(await symbol.getAttribute('data-line'));
  await page.screenshot({ path: `${SHOTS}/symbols.png` });
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('symbol-result').first().getByRole('button')).toBeFocused();
  await symbol.getByRole('button').click();
  await expect(quarry.viewer('src/core/query/parse.ts')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`file=src%2Fcore%2Fquery%2Fparse.ts&line=${line}`));
  await expect(quarry.codeLine(line)).toContainText('parseQuery');
});

test('links: a shared query reproduces its results; an old link keeps its include and ext as filters', async ({
  quarry,
  page,
}) => {
  await quarry.goto('?repo=demo&q=type%3Asymbol+file%3Aquery%2F+planQuery');
  await quarry.waitForRepo('quarry (demo)');
  await expect(quarry.searchBox).toHaveValue('type:symbol file:query/ planQuery');
  await expect(
    page.locator('[data-testid="symbol-result"][data-path="src/core/query/plan.ts"]').first(),
  ).toBeVisible({ timeout: 30_000 });

  await quarry.goto('?repo=demo&q=QuarryError&include=src%2Fcore%2F**&ext=ts');
  await quarry.waitForRepo('quarry (demo)');
  await expect(quarry.searchBox).toHaveValue('QuarryError file:src/core/** file:*.ts');
  await expect(page).toHaveURL(/q=QuarryError\+file%3Asrc%2Fcore%2F\*\*\+file%3A\*\.ts/);
  await expect(page).not.toHaveURL(/include=|ext=/);
  await quarry.waitForSearchDone();
  const paths = await resultPaths(page);
  expect(paths.length).toBeGreaterThan(1);
  expect(paths.filter((p) => !/^src\/core\/.*\.ts$/.test(p))).toEqual([]);
});

test('type:commit and type:diff search the history and open the commit’s diff', async ({ quarry, page }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await page.getByRole('button', { name: 'Repositories', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Repositories' });
  await dialog.getByRole('textbox', { name: 'Repository URL' }).fill(`${GIT}/diff-app.git`);
  await dialog.getByRole('combobox', { name: 'History' }).selectOption({ label: 'Full history' });
  await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('diff-app', 60_000);
  const box = quarry.searchBox;

  // commits by message, the hit marked; by author
  await box.fill('type:commit currency');
  const commit = page.getByTestId('commit-result');
  await expect(commit).toHaveCount(1);
  await expect(commit.locator('.commit-subject mark')).toHaveText('currency');
  await expect(quarry.summary).toContainText('1 commit matches (searched 3 of 3 commits');
  await box.fill('type:commit author:grace');
  await expect(commit).toHaveCount(1);
  await expect(commit).toContainText('Rename total to sum and add an average');
  await expect(commit.locator('.commit-meta mark')).toHaveText(['Grace', 'grace']);
  await page.screenshot({ path: `${SHOTS}/commit-results.png` });
  const renameOid = (await commit.getAttribute('data-oid'))!;
  // a commit opens its changes: the file's diff in that commit, the changed files listed
  await commit.getByRole('button').first().click();
  await expect(page.getByRole('region', { name: 'Diff of src/calc.ts' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`diff=${renameOid}`));
  await expect(commit.getByRole('list', { name: `Files changed in ${renameOid.slice(0, 7)}` })).toContainText(
    'src/calc.ts',
  );

  // diffs: added and removed lines with the hits marked, + and − apart
  await box.fill('type:diff /let (total|sum)/');
  const diffs = page.getByTestId('diff-result');
  await expect(diffs).toHaveCount(2);
  const rename = diffs.filter({ hasText: 'Rename total to sum' });
  await expect(rename.locator('[data-side="-"]')).toContainText(['let total = 0;']);
  await expect(rename.locator('[data-side="+"]')).toContainText(['let sum = 0;']);
  await expect(rename.locator('[data-side="+"] mark').first()).toHaveText('let sum');
  await page.screenshot({ path: `${SHOTS}/diff-results.png` });

  // a diff line opens that file's diff in the commit, at its line
  await box.fill('type:diff average');
  const added = page.locator('[data-testid="diff-result-line"][data-side="+"]').first();
  await expect(added).toContainText('export function average');
  const line = await added.getAttribute('data-line');
  await added.click();
  const diff = page.getByRole('region', { name: 'Diff of src/calc.ts' });
  await expect(page).toHaveURL(new RegExp(`file=src%2Fcalc.ts&line=${line}&diff=${renameOid}`));
  await expect(diff.locator('.current-change').filter({ hasText: 'export function average' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/diff-opened.png` });

  // a shared link to the query reproduces it (the clone is in this browser's library)
  const repo = new URL(page.url()).searchParams.get('repo')!;
  await quarry.goto(`?repo=${encodeURIComponent(repo)}&q=${encodeURIComponent('type:diff average')}`);
  await quarry.waitForRepo('diff-app', 60_000);
  await expect(page.getByTestId('diff-result')).toHaveCount(1);
  await expect(page.getByTestId('diff-result')).toHaveAttribute('data-oid', renameOid);
});

/**
 * Diff, blame and file history (issue 18) on the local git server's diff-app fixture (a TS file
 * edited by two authors over three commits): the file's history lists its commits; a commit
 * opens as a diff with removed and added lines and the changed word marked; the layout
 * switches to inline and survives a reload; blame names each line's commit and author; a
 * blame commit opens its diff. Then an opened folder's uncommitted change, as a diff against HEAD.
 */
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { diffApp, FixtureRepo } from './git-server/fixtures';
import { pickerReturnsOpfs, writeOpfsBytes } from './helpers/opfs';

const GIT = `http://127.0.0.1:${process.env.GIT_PORT ?? 8174}`;

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  const axe = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a commit opens as a diff of the file; inline survives a reload; blame and file history', async ({
  quarry,
  page,
}) => {
  test.setTimeout(150_000);
  await quarry.gotoEmpty();
  await page.getByRole('button', { name: 'Repositories', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Repositories' });
  await dialog.getByRole('textbox', { name: 'Repository URL' }).fill(`${GIT}/diff-app.git`);
  await dialog.getByRole('combobox', { name: 'History' }).selectOption({ label: 'Full history' });
  await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('diff-app', 60_000);
  await quarry.treeItem('src').click();
  await quarry.treeItem('calc.ts').click();
  await expect(quarry.viewer('src/calc.ts')).toBeVisible();

  // The file's history: three commits, newest first.
  await page.getByRole('button', { name: 'File history', exact: true }).click();
  const history = page.getByRole('complementary', { name: 'File history' });
  const items = history.getByTestId('file-history-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Describe the currency');
  await expect(items.nth(1)).toContainText('Grace Hopper');
  await expect(items.nth(2)).toContainText('Add the calculator');
  await expect(history.getByRole('status')).toHaveText('3 commits changed this file');
  const renameOid = (await items.nth(1).locator('.mono').innerText()).trim();
  expect(renameOid).toMatch(/^[0-9a-f]{7}$/);

  // One of them as a diff against its parent.
  await items.nth(1).click();
  await expect(items.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(page).toHaveURL(new RegExp(`diff=${renameOid}[0-9a-f]{33}`));
  const diff = page.getByRole('region', { name: 'Diff of src/calc.ts' });
  await expect(diff.getByTestId('diff-info')).toContainText(
    new RegExp(`in ${renameOid} vs parent [0-9a-f]{7}`),
  );
  await expect(diff.getByTestId('diff-info')).toContainText('+7 −3');
  const removed = diff.locator('[data-change="delete"]');
  const added = diff.locator('[data-change="insert"]');
  await expect(removed).toHaveCount(3);
  await expect(added).toHaveCount(7);
  const oldLine = removed.filter({ hasText: 'let total = 0;' });
  const newLine = added.filter({ hasText: 'let sum = 0;' });
  await expect(oldLine.locator('mark.diff-word')).toHaveText('total');
  await expect(newLine.locator('mark.diff-word')).toHaveText('sum');
  // side by side: the removed line and its replacement share a row
  const pairRow = diff
    .getByTestId('diff-row')
    .filter({ has: page.locator('[data-change="delete"]', { hasText: 'let total = 0;' }) })
    .filter({ has: page.locator('[data-change="insert"]', { hasText: 'let sum = 0;' }) });
  await expect(pairRow).toHaveCount(1);
  // one change (the replaced lines and the added function touch); F7 goes to it
  await expect(diff.getByRole('status')).toHaveText('1 change');
  await page.keyboard.press('F7');
  await expect(diff.getByRole('status')).toHaveText('1 of 1 change');
  await expect(pairRow).toHaveClass(/current-change/);
  mkdirSync('e2e/screenshots', { recursive: true });
  await page.screenshot({ path: 'e2e/screenshots/diff.png' });
  expect(await axeViolations(page, '[data-testid="diff-view"]')).toEqual([]);

  // Inline, kept in the address: a reload shows the same diff the same way.
  await diff.getByRole('button', { name: 'Inline', exact: true }).click();
  await expect(page).toHaveURL(/dview=inline/);
  await expect(diff.getByTestId('diff-row').filter({ hasText: 'let total = 0;' })).not.toContainText(
    'let sum',
  );
  await page.reload();
  await quarry.waitForRepo('diff-app', 60_000);
  await expect(diff.getByRole('button', { name: 'Inline', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(
    diff.locator('[data-change="insert"]').filter({ hasText: 'let sum = 0;' }).locator('mark.diff-word'),
  ).toHaveText('sum');
  await expect(diff.locator('[data-change="delete"]')).toHaveCount(3);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'e2e/output/diff-inline-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // Blame: each line's commit and author.
  await diff.getByRole('button', { name: 'Blame', exact: true }).click();
  const blame = page.getByRole('region', { name: 'Blame of src/calc.ts' });
  await expect(blame.getByTestId('blame-info')).toContainText('13 lines from 3 commits');
  const line = (n: number) => blame.locator(`[data-testid="blame-line"][data-line="${n}"]`);
  await expect(line(3)).toHaveAttribute('data-commit', new RegExp(`^${renameOid}`));
  await expect(line(3).locator('.blame-author')).toHaveText('Grace Hopper');
  await expect(line(12).locator('.blame-author')).toHaveText('Ada Lovelace');
  await expect(line(12).getByRole('button', { name: /Describe the currency/ })).toBeVisible();
  await expect(line(1).getByRole('button', { name: /Add the calculator/ })).toBeVisible();
  // a line inside a run shows no repeated gutter
  await expect(line(4).locator('.blame-author')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/blame.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'e2e/output/blame-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await axeViolations(page, '[data-testid="blame-view"]')).toEqual([]);

  // A blamed commit opens its own diff of the file.
  await line(12)
    .getByRole('button', { name: /Describe the currency/ })
    .click();
  await expect(diff.getByTestId('diff-info')).toContainText('+1 −0');
  await expect(diff.locator('[data-change="insert"]')).toHaveCount(1);
  await expect(diff.locator('[data-change="insert"]')).toContainText('/** Every amount is in euros. */');
  await expect(items.nth(0)).toHaveAttribute('aria-current', 'true');
  await page.goBack();
  await expect(blame).toBeVisible();
});

test('an uncommitted change in an opened folder opens as a diff against HEAD', async ({ quarry, page }) => {
  test.setTimeout(90_000);
  // A real repository (built with git), copied into OPFS with its .git, then edited.
  const root = mkdtempSync(join(tmpdir(), 'quarry-e2e-worktree-'));
  try {
    const repo = new FixtureRepo(diffApp(), root);
    repo.build();
    execFileSync('git', ['gc', '-q'], { cwd: repo.work }); // a few packed objects instead of many loose ones
    await quarry.gotoEmpty();
    await pickerReturnsOpfs(page, 'wt-app');
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) =>
        statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)],
      );
    for (const file of walk(repo.work)) {
      let bytes = new Uint8Array(readFileSync(file));
      if (relative(repo.work, file) === 'src/calc.ts')
        bytes = new TextEncoder().encode(
          new TextDecoder().decode(bytes).replace('let sum = 0;', 'let sum = 0; // cents'),
        );
      await writeOpfsBytes(page, 'wt-app', relative(repo.work, file), bytes);
    }
    await page.reload();
    await expect(page.getByTestId('home')).toBeVisible();
    await quarry.openFolderButton.click();
    await quarry.waitForRepo('wt-app');
    const url = new URL(page.url());
    url.searchParams.set('file', 'src/calc.ts');
    url.searchParams.set('diff', 'worktree');
    await page.goto(url.toString());
    await quarry.waitForRepo('wt-app');
    const diff = page.getByRole('region', { name: 'Diff of src/calc.ts' });
    await expect(diff.getByTestId('diff-info')).toContainText(/uncommitted changes vs HEAD [0-9a-f]{7}/);
    await expect(diff.getByTestId('diff-info')).toContainText('+1 −1');
    await expect(diff.locator('[data-change="insert"] mark.diff-word')).toHaveText('// cents');
    await page.screenshot({ path: 'e2e/output/diff-worktree.png' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

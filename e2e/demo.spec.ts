import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';

test('the demo repository opens on first visit', async ({ quarry, page }) => {
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await expect(page).toHaveURL(/repo=demo/);
  await expect(quarry.treeItem('src')).toBeVisible();
  await expect(quarry.openFolderButton).toBeVisible();
  await expect(page.getByText('Engine: web worker')).toBeVisible();
});

test('a link with repo=none opens nothing: the home screen, no demo read, and its button opens the demo', async ({
  quarry,
  page,
  requests,
}) => {
  await quarry.gotoEmpty();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Explore a code repository, entirely in your browser',
  );
  await expect(page.getByTestId('home').getByRole('button')).toHaveText([
    'Open a folder',
    'Clone a repository',
    'Open the demo',
  ]);
  await expect(quarry.tree).toHaveCount(0);
  // a reload stays empty (the address still says none)
  await page.reload();
  await expect(page.getByTestId('home')).toBeVisible();
  await expect(page).toHaveURL(/repo=none/);
  expect(requests.filter((u) => u.includes('quarry-demo'))).toEqual([]);
  await page.getByTestId('home').getByRole('button', { name: 'Open the demo' }).click();
  await quarry.waitForRepo('quarry (demo)');
  await expect(page.getByTestId('home')).toHaveCount(0);
  await expect(page).toHaveURL(/repo=demo/);
  expect(requests.some((u) => u.includes('quarry-demo'))).toBe(true);
});

test('search shows highlighted hits with context, opens a result at its line, and a reload restores it', async ({
  quarry,
  page,
}) => {
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await quarry.search('QuarryError.fromJSON');
  await quarry.waitForSearchDone();
  const first = quarry.hits.first();
  await expect(first.locator('mark').first()).toHaveText('QuarryError.fromJSON');
  await expect(quarry.contextLines.first()).toBeVisible();
  await expect(quarry.summary).toContainText(/\d+ match/);

  const path = (await first.getAttribute('data-path'))!;
  const line = Number(await first.getAttribute('data-line'));
  await first.click();
  const viewer = quarry.viewer(path);
  await expect(viewer).toBeVisible();
  await expect(quarry.codeLine(line)).toHaveAttribute('aria-current', 'true');
  await expect(quarry.codeLine(line).locator('mark').first()).toHaveText('QuarryError.fromJSON');
  await expect(page).toHaveURL(new RegExp(`line=${line}`));

  // Keyboard: back to results, move down, Enter opens the next hit.
  await quarry.searchBox.focus();
  await page.keyboard.press('ArrowDown');
  await expect(quarry.hits.first()).toBeFocused();

  await page.reload();
  await quarry.waitForRepo('quarry (demo)');
  await expect(quarry.searchBox).toHaveValue('QuarryError.fromJSON');
  await expect(quarry.viewer(path)).toBeVisible();
  await expect(quarry.codeLine(line)).toHaveAttribute('aria-current', 'true');
  await expect(quarry.codeLine(line).locator('mark').first()).toBeVisible();
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first().locator('mark').first()).toHaveText('QuarryError.fromJSON');

  // The workspace as a user sees it, for the README.
  mkdirSync('e2e/output', { recursive: true });
  await page.screenshot({ path: 'e2e/output/workspace.png' });
  if (process.env.UPDATE_SCREENSHOTS || !existsSync('e2e/screenshots/workspace.png')) {
    mkdirSync('e2e/screenshots', { recursive: true });
    await page.screenshot({ path: 'e2e/screenshots/workspace.png' });
  }
});

test('quick open finds a file by fuzzy name (Ctrl+P)', async ({ quarry, page }) => {
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await quarry.searchBox.focus();
  await page.keyboard.press('Control+p');
  const dialog = page.getByRole('dialog', { name: 'Quick open' });
  await expect(dialog).toBeVisible();
  // a modal dialog keeps Tab inside itself, and Escape gives focus back to where it was
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('combobox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(quarry.searchBox).toBeFocused();
  await page.keyboard.press('Control+p');
  await dialog.getByRole('combobox').fill('gitserv');
  await expect(dialog.getByRole('option').first()).toContainText('git-service.ts');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(quarry.viewer('src/worker/git-service.ts')).toBeVisible();
});

test('the workspace has no axe-core A/AA violations', async ({ quarry, page }) => {
  await quarry.goto('?repo=demo&q=createEngineApi&file=src%2Fworker%2Fengine.ts&line=5');
  await quarry.waitForRepo('quarry (demo)');
  await quarry.waitForSearchDone();
  await expect(quarry.viewer('src/worker/engine.ts')).toBeVisible();
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
});

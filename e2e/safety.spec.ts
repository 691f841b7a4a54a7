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
  expect(
    await page.locator('script').evaluateAll((s) => s.filter((e) => !(e as HTMLScriptElement).src).length),
  ).toBe(0);
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

test('hidden characters in file names are shown, in the tree, search results, viewer and quick open', async ({
  quarry,
  page,
}) => {
  const rtl = 'rtl\u202Etxt.exe';
  const files = {
    [rtl]: 'const needle = 1;\n',
    'two\nlines.ts': 'const needle = 2;\n',
    '<img src=x onerror=alert(1)>.ts': 'const needle = 3;\n',
    [`it's "quoted" & fine.md`]: 'needle 4\n',
    '🦊 fox 👨\u200D👩\u200D👧.ts': 'const needle = 5;\n',
    'iso\u2067late/zero\u200Bwidth.ts': 'const needle = 6;\n',
  };
  const dir = writeDiskRepo('names', files);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('names');

  const shownRtl = 'rtl<U+202E>txt.exe';
  for (const name of [
    shownRtl,
    'two<U+000A>lines.ts',
    '<img src=x onerror=alert(1)>.ts',
    `it's "quoted" & fine.md`,
    '🦊 fox 👨\u200D👩\u200D👧.ts',
    'iso<U+2067>late',
  ]) {
    await expect(quarry.treeItem(name)).toBeVisible();
  }
  // the escape is styled apart and says what it stands for
  const mark = quarry.treeItem(shownRtl).locator('.hidden-char');
  await expect(mark).toHaveText('<U+202E>');
  await expect(mark).toHaveAttribute('title', 'U+202E right-to-left override (bidi)');
  await expect(quarry.treeItem(shownRtl)).toHaveAttribute('title', shownRtl);
  await quarry.treeItem('iso<U+2067>late').click();
  await expect(quarry.treeItem('zero<U+200B>width.ts')).toBeVisible();

  await quarry.search('needle');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('6 matches in 6 files');
  const paths = await page.getByTestId('result-file').locator('.result-path').allTextContents();
  expect(paths.sort()).toEqual(
    [
      shownRtl,
      'two<U+000A>lines.ts',
      '<img src=x onerror=alert(1)>.ts',
      `it's "quoted" & fine.md`,
      '🦊 fox 👨\u200D👩\u200D👧.ts',
      'iso<U+2067>late/zero<U+200B>width.ts',
    ].sort(),
  );

  await page.screenshot({ path: 'e2e/output/hidden-chars.png' });
  await page.locator(`[data-testid="result-hit"][data-path="${rtl}"]`).click();
  const viewer = quarry.viewer(shownRtl);
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('heading', { level: 2 })).toHaveText(shownRtl);
  await expect(page).toHaveURL(/file=rtl%E2%80%AEtxt\.exe/);

  await page.keyboard.press('Control+p');
  await page.getByRole('dialog', { name: 'Quick open' }).getByRole('combobox').fill('rtl');
  await expect(page.getByRole('option').first()).toContainText(shownRtl);
  // Nothing on the page carries a raw bidi control or line break from a name.
  const raw = await page.evaluate(() => {
    const texts = [document.body.innerText.replace(/\n/g, ' ')];
    for (const el of document.querySelectorAll('[title], [aria-label]'))
      texts.push(el.getAttribute('title') ?? '', el.getAttribute('aria-label') ?? '');
    return texts.filter((t) => /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\n]/.test(t));
  });
  expect(raw).toEqual([]);
  await page.keyboard.press('Escape');
  expect(await page.locator('img, iframe').count()).toBe(0);
});

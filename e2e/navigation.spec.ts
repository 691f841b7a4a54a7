/**
 * Code navigation (issue #18) on a four-language fixture repository: go to definition and
 * find references across files in TypeScript, Python, Go and C, the outline, breadcrumbs,
 * workspace and in-file symbol search, all in the address (a reload keeps the panel).
 */
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { POLYGLOT } from '../src/core/nav/fixtures/polyglot';
import type { Page } from '@playwright/test';

/** Click the first whole `word` on a viewer line (its middle), with modifiers if given. */
async function clickWord(
  page: Page,
  line: number,
  word: string,
  modifiers: ('ControlOrMeta' | 'Shift')[] = [],
) {
  const code = page.locator(`[data-testid="code-line"][data-line="${line}"] .code`);
  await expect(code).toContainText(word);
  const point = await code.evaluate((el, w) => {
    const text = el.textContent ?? '';
    const re = new RegExp(`(?<![\\w$])${w}(?![\\w$])`);
    const at = re.exec(text)?.index ?? -1;
    if (at < 0) return null;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let pos = 0;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const len = t.textContent!.length;
      const mid = at + Math.floor(w.length / 2);
      if (mid < pos + len) {
        const r = document.createRange();
        r.setStart(t, mid - pos);
        r.setEnd(t, mid - pos + 1);
        const box = r.getBoundingClientRect();
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
      }
      pos += len;
    }
    return null;
  }, word);
  expect(point, `"${word}" on line ${line}`).not.toBeNull();
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.click(point!.x, point!.y);
  for (const m of modifiers) await page.keyboard.up(m);
}

/** Open a file with Go to file, once the list shows it first. */
async function goToFile(page: Page, path: string) {
  await page.getByRole('button', { name: 'Go to file' }).click();
  await page.getByRole('combobox', { name: 'File name' }).fill(path);
  await expect(page.getByTestId('quick-open-item').first()).toContainText(path.split('/').pop()!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: path, exact: true })).toBeVisible();
}

test('definitions and references across files in TypeScript, Python, Go and C; outline and symbols', async ({
  quarry,
  page,
}) => {
  test.setTimeout(180_000);
  await pickerReturnsOpfs(page, 'polyglot');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'polyglot', POLYGLOT);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('polyglot');
  await quarry.waitForIndex(120_000);

  // TypeScript: a click offers both lookups; Go to definition opens the imported file, not the decoy
  await quarry.goto(
    `?repo=${encodeURIComponent(new URL(page.url()).searchParams.get('repo')!)}&file=ts%2Fsrc%2Fapp.ts`,
  );
  await expect(quarry.codeLine(6)).toBeVisible();
  await clickWord(page, 6, 'formatMoney');
  const menu = page.getByRole('menu', { name: 'Look up formatMoney' });
  await expect(menu).toBeVisible();
  // the name's occurrences are marked in the file
  await expect(page.locator('mark.occ')).toHaveCount(2);
  await menu.getByRole('menuitem', { name: /Go to definition/ }).click();
  await expect(quarry.viewer('ts/src/money.ts')).toBeVisible();
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fmoney.ts&line=2/);
  await expect(quarry.codeLine(2)).toHaveAttribute('aria-current', 'true');
  // the decoy of the same name stays listed, after the imported one (which is the current line)
  const panel = page.getByTestId('nav-panel');
  await expect(panel.getByTestId('nav-count')).toHaveText('2 definitions');
  await expect(panel.getByTestId('nav-item')).toHaveText([/ts\/src\/money.ts:2/, /ts\/legacy\/format.ts:2/]);
  await expect(panel.getByTestId('nav-item').first()).toHaveAttribute('aria-current', 'true');
  // breadcrumbs name the symbol around the line
  await expect(page.getByTestId('breadcrumbs')).toContainText('formatMoney');

  // Find references (Shift+F12 on the name clicked): grouped by file, the definition first
  await clickWord(page, 12, 'formatMoney');
  await page.keyboard.press('Shift+F12');
  await expect(panel.getByTestId('nav-count')).toHaveText('5 references in 3 files');
  await expect(panel.locator('.nav-file-head').first()).toContainText('ts/src/money.ts');
  await expect(panel.getByRole('button', { name: 'ts/src/money.ts line 2, definition' })).toBeVisible();
  await expect(page).toHaveURL(/sym=formatMoney&nav=refs/);
  await page.screenshot({ path: 'e2e/screenshots/references.png' });
  // a reload keeps the panel; an entry opens its line; Escape closes the panel
  await page.reload();
  await expect(panel.getByTestId('nav-count')).toHaveText('5 references in 3 files', { timeout: 60_000 });
  await panel.getByRole('button', { name: 'ts/src/app.ts line 6' }).click();
  await expect(quarry.viewer('ts/src/app.ts')).toBeVisible();
  await expect(page).toHaveURL(/line=6/);
  await panel.getByRole('button', { name: 'ts/src/app.ts line 6' }).press('Escape');
  await expect(panel).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Related code' })).toBeVisible();

  // Python: Ctrl/Cmd+click goes straight to the only imported definition
  await quarry.treeItem('py').click();
  await quarry.treeItem('shop').click();
  await quarry.treeItem('checkout.py').click();
  await clickWord(page, 6, 'apply_discount', ['ControlOrMeta']);
  await expect(page).toHaveURL(/file=py%2Fshop%2Fpricing.py&line=1/);

  // Go: a package import through go.mod (F12 after a click)
  await goToFile(page, 'go/main.go');
  await clickWord(page, 6, 'Round');
  await page.keyboard.press('Escape');
  await page.keyboard.press('F12');
  await expect(page).toHaveURL(/file=go%2Fmoney%2Fmoney.go&line=4/);

  // C: the header's declaration and the source's definition: a picker lists them, the source opens
  await goToFile(page, 'c/main.c');
  await clickWord(page, 4, 'clamp_value', ['ControlOrMeta']);
  await expect(page).toHaveURL(/file=c%2Futil.c&line=3|sym=clamp_value&nav=defs/);
  if (/nav=defs/.test(page.url())) {
    await expect(panel.getByTestId('nav-count')).toContainText('definitions');
    await panel.getByTestId('nav-item').filter({ hasText: 'c/util.c:3' }).click();
  }
  await expect(page).toHaveURL(/file=c%2Futil.c&line=3/);
  await page.screenshot({ path: 'e2e/screenshots/navigation.png' });

  // Outline: a tree of the open file's symbols, keyboard navigable, following the line
  await goToFile(page, 'ts/src/money.ts');
  const outline = page.getByRole('tree', { name: 'Outline of ts/src/money.ts' });
  await expect(outline.getByRole('treeitem')).toHaveText([
    /formatMoney$/,
    /Ledger$/,
    /Ledger\.add$/,
    /Ledger\.total$/,
  ]);
  await outline.getByRole('treeitem', { name: /Ledger$/ }).focus();
  await page.keyboard.press('ArrowLeft'); // closes Ledger
  await expect(outline.getByRole('treeitem')).toHaveCount(2);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/line=11/);
  await expect(outline.getByRole('treeitem', { name: /Ledger.total/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.screenshot({ path: 'e2e/screenshots/outline.png' });

  // Go to symbol in workspace (Ctrl/Cmd+T): fuzzy, kinds shown, Enter opens the name's line
  await page.keyboard.press('ControlOrMeta+t');
  const picker = page.getByRole('dialog', { name: 'Go to symbol in workspace' });
  await picker.getByRole('combobox', { name: 'Symbol name' }).fill('walet');
  await expect(picker.getByTestId('symbol-item').first()).toContainText('Wallet');
  await page.screenshot({ path: 'e2e/screenshots/symbols.png' });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/file=go%2Fmoney%2Fmoney.go&line=8/);

  // ... and in the file (Ctrl/Cmd+Shift+O)
  await page.keyboard.press('ControlOrMeta+Shift+O');
  const inFile = page.getByRole('dialog', { name: 'Go to symbol in file' });
  await expect(inFile.getByTestId('symbol-item')).toHaveCount(2);
  await inFile.getByRole('combobox', { name: 'Symbol name' }).fill('rnd');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/line=4/);
});

/**
 * The viewer from the keyboard (issue 33, point 5): the page's first Tab stop skips to the code;
 * a caret moves by keys (arrows, words, Home/End, PageUp/Down, Ctrl+Home/End) with its line
 * current and kept in view in a long (virtualised) file; F12 / Shift+F12 act on the name at the
 * caret; Alt+←/→, the mouse's back button and the browser's own Back agree on every jump, to the
 * line and column; Ctrl+G goes to a line; a hover card shows a name's signature and doc comment
 * (the pointer resting on it, or Ctrl+K Ctrl+I at the caret) and Esc closes it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { POLYGLOT } from '../src/core/nav/fixtures/polyglot';
import type { Page } from '@playwright/test';

const LONG_LINES = 2000;
const FILES = {
  ...POLYGLOT,
  'long.txt': Array.from({ length: LONG_LINES }, (_, i) => `row ${i + 1} of the long file`).join('\n') + '\n',
};

/** The middle of the first whole `word` on a viewer line, in page coordinates. */
async function wordPoint(page: Page, line: number, word: string): Promise<{ x: number; y: number }> {
  const code = page.locator(`[data-testid="code-line"][data-line="${line}"] .code`);
  await expect(code).toContainText(word);
  const point = await code.evaluate((el, w) => {
    const at = new RegExp(`(?<![\\w$])${w}(?![\\w$])`).exec(el.textContent ?? '')?.index ?? -1;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const mid = at + Math.floor(w.length / 2);
    let pos = 0;
    for (let t = walker.nextNode(); t && at >= 0; t = walker.nextNode()) {
      const len = t.textContent!.length;
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
  return point!;
}

test('the viewer from the keyboard: caret, F12 and Back/Forward, Shift+F12, Ctrl+G, hover card', async ({
  quarry,
  page,
}) => {
  test.setTimeout(180_000);
  await pickerReturnsOpfs(page, 'keys');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'keys', FILES);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('keys');
  await quarry.waitForIndex(120_000);
  const repo = encodeURIComponent(new URL(page.url()).searchParams.get('repo')!);

  // From a page load, Tab then Enter puts the focus in the code
  await quarry.goto(`?repo=${repo}&file=ts%2Fsrc%2Fapp.ts`);
  await expect(quarry.codeLine(6)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the code' })).toBeFocused();
  await page.screenshot({ path: 'e2e/output/keyboard/skip-link.png' });
  await page.keyboard.press('Enter');
  const code = page.getByTestId('viewer-lines');
  await expect(code).toBeFocused();

  // The caret, by keys only, onto `formatMoney` in `  return ledger.total() + formatMoney(0);`
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ControlOrMeta+ArrowLeft'); // before `0`
  await page.keyboard.press('ControlOrMeta+ArrowLeft'); // before `formatMoney`
  const position = page.getByTestId('caret-position');
  await expect(position).toHaveText('Ln 6, Col 27');
  await expect(quarry.codeLine(6)).toHaveAttribute('aria-current', 'true');
  await expect(quarry.codeLine(6).getByTestId('caret')).toHaveCount(1);
  await expect(page.locator('mark.occ')).toHaveCount(2); // the name at the caret, in the import too
  await page.screenshot({ path: 'e2e/screenshots/keyboard-caret.png', animations: 'disabled' });

  // F12 on the name at the caret: its definition, the caret on its name there, the code still focused
  await page.keyboard.press('F12');
  await expect(quarry.viewer('ts/src/money.ts')).toBeVisible();
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fmoney.ts&line=2&col=17/);
  await expect(position).toHaveText('Ln 2, Col 17');
  await expect(code).toBeFocused();

  // Alt+← comes back to the same line and column, Alt+→ goes forward again
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(quarry.viewer('ts/src/app.ts')).toBeVisible();
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fapp.ts&line=6&col=27/);
  await expect(position).toHaveText('Ln 6, Col 27');
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fmoney.ts&line=2&col=17/);
  await expect(position).toHaveText('Ln 2, Col 17');
  // the browser's own Back and Forward agree, and so does the mouse's back button
  await page.goBack();
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fapp.ts&line=6&col=27/);
  await expect(position).toHaveText('Ln 6, Col 27');
  await page.goForward();
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fmoney.ts&line=2&col=17/);
  await page.evaluate(() =>
    document.body.dispatchEvent(new MouseEvent('mouseup', { button: 3, bubbles: true })),
  );
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fapp.ts&line=6&col=27/);
  await page.evaluate(() =>
    document.body.dispatchEvent(new MouseEvent('mouseup', { button: 4, bubbles: true })),
  );
  await expect(page).toHaveURL(/file=ts%2Fsrc%2Fmoney.ts&line=2&col=17/);
  await expect(position).toHaveText('Ln 2, Col 17');

  // Shift+F12 on the name at the caret lists its references
  await code.focus();
  await page.keyboard.press('Shift+F12');
  const panel = page.getByTestId('nav-panel');
  await expect(panel.getByTestId('nav-count')).toHaveText('5 references in 3 files');
  await expect(page).toHaveURL(/sym=formatMoney&nav=refs/);

  // Ctrl+G: a line (then Back returns to the caret's place)
  await code.focus();
  await page.keyboard.press('ControlOrMeta+g');
  await expect(page.getByRole('textbox', { name: 'Go to line' })).toBeFocused();
  await page.keyboard.type('11');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/line=11/);
  await expect(position).toHaveText('Ln 11, Col 1');
  await expect(quarry.codeLine(11)).toHaveAttribute('aria-current', 'true');
  await expect(code).toBeFocused();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(page).toHaveURL(/line=2&col=17/);
  await expect(position).toHaveText('Ln 2, Col 17');

  // The hover card: the pointer resting on a name shows its signature and doc comment; Esc closes it
  const card = page.getByRole('tooltip');
  const at = await wordPoint(page, 12, 'formatMoney');
  await page.mouse.move(at.x, at.y);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('hover-signature')).toHaveText(
    'export function formatMoney(cents: number): string',
  );
  await expect(card.getByTestId('hover-doc')).toHaveText('Formats cents as dollars.');
  await expect(card).toContainText('ts/src/money.ts:2');
  await page.screenshot({ path: 'e2e/screenshots/hover-card.png', animations: 'disabled' });
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();
  // ... and from the keyboard, at the caret (Ctrl+K Ctrl+I), described to assistive technology
  await page.mouse.move(5, 5);
  await code.focus();
  await page.keyboard.press('ControlOrMeta+k');
  await page.keyboard.press('ControlOrMeta+i');
  await expect(card.getByTestId('hover-doc')).toHaveText('Formats cents as dollars.');
  await expect(code).toHaveAttribute('aria-describedby', (await card.getAttribute('id'))!);
  // the caret, its line, the marked name and the card pass axe (contrast included)
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="file-viewer"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();

  // The context-menu key offers both lookups at the caret, its first item focused
  await page.keyboard.press('ContextMenu');
  const menu = page.getByRole('menu', { name: 'Look up formatMoney' });
  await expect(menu.getByRole('menuitem', { name: /Go to definition/ })).toBeFocused();
  await page.screenshot({ path: 'e2e/output/keyboard/context-menu.png' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(code).toBeFocused();

  // A long file: the caret stays in view as it goes to the end and pages back up
  await quarry.goto(`?repo=${repo}&file=long.txt`);
  await expect(quarry.codeLine(1)).toBeVisible();
  await page.getByTestId('viewer-lines').click({ position: { x: 200, y: 10 } });
  await expect(position).toHaveText(/^Ln 1, Col \d+$/);
  await page.keyboard.press('ControlOrMeta+End');
  await expect(position).toHaveText(`Ln ${LONG_LINES}, Col 26`);
  await expect(quarry.codeLine(LONG_LINES)).toBeInViewport();
  await page.keyboard.press('PageUp');
  const text = (await position.textContent()) ?? '';
  const paged = Number(/Ln (\d+)/.exec(text)?.[1]);
  expect(paged).toBeGreaterThan(LONG_LINES - 60);
  expect(paged).toBeLessThan(LONG_LINES - 10);
  await expect(quarry.codeLine(paged)).toBeInViewport();
  await expect(quarry.codeLine(paged)).toHaveAttribute('aria-current', 'true');
  await page.screenshot({ path: 'e2e/output/keyboard/long-file.png', animations: 'disabled' });
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(position).toHaveText('Ln 1, Col 1');
  await expect(quarry.codeLine(1)).toBeInViewport();
});

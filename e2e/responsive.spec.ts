/**
 * Room for what is looked at (issue 33, point 4), checked by bounding boxes at 1440 × 900,
 * 1024 × 768 and 800 × 700: a file open beside Search, a view (Components, Explore) with a file
 * open, and a commit's diff. Nothing overlaps, no control of the top bar is cut off (it collapses
 * into a menu when narrow), the code or the diff shows at least 15 lines, and a view or a diff
 * takes the whole area between the file tree and the right edge (no Related panel beside it).
 * Screenshots of every case go to e2e/output/responsive-*.png.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { QuarryPage } from './pages/quarry-page';

const GIT = `http://127.0.0.1:${process.env.GIT_PORT ?? 8174}`;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: 800, height: 700 },
] as const;
/** The code's line height (styles.css .viewer-scroll, diff.css .diff-scroll). */
const LINE_PX = 20;

interface LayoutReport {
  problems: string[];
  /** The code (or diff) area's height on screen, px. */
  codeHeight: number;
  /** The stage (a view or a diff) width, and the room between the tree and the right edge. */
  stageWidth: number;
  room: number;
  related: boolean;
}

/**
 * Measures the page: `code` is the selector of the scrolling code area (.viewer-scroll or
 * .diff-scroll), `stage` the element that should take the whole area right of the tree ('' for none).
 */
async function measure(page: Page, code: string, stage: string): Promise<LayoutReport> {
  return page.evaluate(
    ({ code, stage }) => {
      const problems: string[] = [];
      const vw = document.documentElement.clientWidth;
      const vh = document.documentElement.clientHeight;
      type Box = { x: number; y: number; r: number; b: number };
      const box = (el: Element): Box => {
        const r = el.getBoundingClientRect();
        return { x: r.left, y: r.top, r: r.right, b: r.bottom };
      };
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      };
      const clip = (a: Box, c: Box): Box => ({
        x: Math.max(a.x, c.x),
        y: Math.max(a.y, c.y),
        r: Math.min(a.r, c.r),
        b: Math.min(a.b, c.b),
      });
      const overlap = (a: Box, b: Box) =>
        Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
      const name = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${el.textContent ? ` "${el.textContent.trim().slice(0, 24)}"` : ''}`;
      const inViewport = (b: Box) => b.x >= -0.5 && b.y >= -0.5 && b.r <= vw + 0.5 && b.b <= vh + 0.5;

      // The top bar: every control inside the window and the bar, none over another, none clipped.
      const bar = document.querySelector('.topbar')!;
      const barBox = box(bar);
      const controls = [
        ...bar.querySelectorAll(
          '.brand, .repo-badge, .view-nav a, .actions > button, .actions > .button-like, .actions > details > summary, .topbar-menu > button',
        ),
      ].filter(shown);
      if (controls.length < 4) problems.push(`top bar: only ${controls.length} controls shown`);
      controls.forEach((el, i) => {
        const b = box(el);
        if (!inViewport(b) || b.r > barBox.r + 0.5 || b.b > barBox.b + 0.5)
          problems.push(`top bar: ${name(el)} cut off (${Math.round(b.x)}..${Math.round(b.r)} of ${vw})`);
        if (!el.classList.contains('repo-badge') && el.scrollWidth > el.clientWidth + 1)
          problems.push(`top bar: ${name(el)} clipped inside`);
        for (const other of controls.slice(i + 1))
          if (overlap(b, box(other))) problems.push(`top bar: ${name(el)} overlaps ${name(other)}`);
      });

      // The page's regions: top bar, status bar and the workspace's panes (as seen through the
      // workspace, which scrolls when the panes stack), none over another.
      const ws = document.querySelector('.workspace')!;
      const wsBox = box(ws);
      const status = document.querySelector('.statusbar')!;
      const panes = [
        ...ws.querySelectorAll(
          ':scope > .sidebar, :scope > .search-panel, :scope > .view-panel, :scope > .viewer-column, :scope > .overview-column, .viewer-column > .viewer-main, .viewer-column > .related, .viewer-column > .nav-panel, .viewer-column > .file-history',
        ),
      ].filter(shown);
      const regions: Array<[string, Box]> = [
        ['top bar', barBox],
        ['status bar', box(status)],
        ['workspace', wsBox],
      ];
      for (const [label, b] of regions) if (!inViewport(b)) problems.push(`${label} outside the window`);
      if (overlap(barBox, wsBox)) problems.push('the top bar overlaps the workspace');
      if (overlap(box(status), wsBox)) problems.push('the status bar overlaps the workspace');
      if (overlap(barBox, box(status))) problems.push('the top bar overlaps the status bar');
      const seen = panes
        .map((el) => [el, clip(box(el), wsBox)] as const)
        .filter(([, b]) => b.r - b.x > 1 && b.b - b.y > 1);
      // siblings only (a pane and the column that holds it are not two panes)
      seen.forEach(([el, b], i) => {
        if (b.x < -0.5 || b.r > vw + 0.5) problems.push(`${name(el)} is wider than the window`);
        for (const [other, ob] of seen.slice(i + 1))
          if (!el.contains(other) && !other.contains(el) && overlap(b, ob))
            problems.push(`${name(el)} overlaps ${name(other)}`);
      });

      // The code: whole inside the workspace's visible part, at least 15 lines.
      const codeEl = [...document.querySelectorAll(code)].find(shown);
      let codeHeight = 0;
      if (!codeEl) problems.push(`no ${code} shown`);
      else {
        const b = box(codeEl);
        const visible = clip(b, wsBox);
        codeHeight = Math.max(0, visible.b - visible.y);
        if (visible.b - visible.y < b.b - b.y - 1) problems.push(`${code} is cut off by the workspace`);
        if (overlap(b, box(status))) problems.push(`${code} is under the status bar`);
      }

      // The stage: a view or a diff from the tree to the right edge.
      const tree = document.querySelector('.workspace > .sidebar');
      const treeBox = tree ? box(tree) : null;
      const stacked = treeBox ? treeBox.r - treeBox.x > wsBox.r - wsBox.x - 2 : false;
      const room = stacked || !treeBox ? wsBox.r - wsBox.x : wsBox.r - treeBox.r;
      const stageEl = stage ? [...document.querySelectorAll(stage)].find(shown) : null;
      const stageBox = stageEl ? box(stageEl) : null;
      const related = !!document.querySelector('.related');
      return {
        problems,
        codeHeight,
        stageWidth: stageBox ? stageBox.r - stageBox.x : 0,
        room,
        related,
      };
    },
    { code, stage },
  );
}

async function shot(page: Page, name: string) {
  mkdirSync('e2e/output', { recursive: true });
  await page.screenshot({ path: `e2e/output/responsive-${name}.png` });
}

/** At each size: reload (as a person opening the link at that size would), wait for `ready`, measure. */
async function atEverySize(
  page: Page,
  quarry: QuarryPage,
  repo: string,
  name: string,
  ready: () => Promise<void>,
  check: (report: LayoutReport, size: (typeof SIZES)[number]) => void,
  { code = '.viewer-scroll', stage = '' }: { code?: string; stage?: string } = {},
) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // the layout follows a resize; the narrowest size is also loaded afresh (a first paint there
    // must stack the panes too). One reload instead of three keeps the spec short.
    if (size === SIZES[SIZES.length - 1]) await page.reload();
    await quarry.waitForRepo(repo);
    await ready();
    // the layout settles (the pane sizes follow the workspace's size)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await shot(page, `${name}-${size.width}`);
    const report = await measure(page, code, stage);
    expect(report.problems, `${name} at ${size.width} × ${size.height}`).toEqual([]);
    expect(report.codeHeight, `${name} at ${size.width}: lines shown`).toBeGreaterThanOrEqual(15 * LINE_PX);
    check(report, size);
  }
}

test('a file beside Search: nothing overlaps or is cut off, 15 lines at least, at 1440, 1024 and 800 px', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  await quarry.goto('?repo=demo&file=src/ui/App.tsx');
  await atEverySize(
    page,
    quarry,
    'quarry (demo)',
    'file',
    () => expect(quarry.codeLine(1)).toBeVisible(),
    () => {},
  );
});

test('the top bar collapses into a menu that the keyboard opens, moves through and closes', async ({
  quarry,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await quarry.goto('?repo=demo');
  await quarry.waitForRepo('quarry (demo)');
  // the actions are in the menu, not in the bar
  await expect(page.getByRole('button', { name: 'Repositories', exact: true })).toHaveCount(0);
  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  const items = menu.getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await expect(menu.getByRole('menuitem', { name: 'Choose folder…' })).toBeVisible();
  await shot(page, 'menu-1024');
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  // Space opens it too; Repositories opens the dialog, and closing it comes back to the menu button
  await page.keyboard.press(' ');
  await expect(menu).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Repositories' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repositories' });
  await expect(dialog).toBeVisible();
  await expect(menu).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(menuButton).toBeFocused();
  // wide enough, the actions are back in the bar
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole('button', { name: 'Repositories', exact: true })).toBeVisible();
  await expect(menuButton).toHaveCount(0);
});

test('a view with a file open takes the whole area right of the tree; no Related panel beside it', async ({
  quarry,
  page,
}) => {
  test.setTimeout(300_000);
  await quarry.goto('?repo=demo&view=components&file=src/ui/App.tsx');
  const table = page.getByRole('table', { name: 'Components' });
  await atEverySize(
    page,
    quarry,
    'quarry (demo)',
    'components',
    async () => {
      await expect(table.getByTestId('component-row').first()).toBeVisible({ timeout: 60_000 });
      await expect(quarry.codeLine(1)).toBeVisible();
    },
    (report) => {
      expect(report.related).toBe(false);
      expect(report.stageWidth).toBeGreaterThanOrEqual(report.room - 2);
    },
    { stage: '[data-testid="components-view"]' },
  );
  // the table's columns have room: a component's name is one line, not a letter a line
  const nameCell = table.getByTestId('component-row').first().getByRole('rowheader');
  expect((await nameCell.boundingBox())!.height).toBeLessThan(60);

  // the border between the view and the file moves with the keyboard (and is remembered)
  await page.setViewportSize({ width: 1440, height: 900 });
  const splitter = page.getByRole('separator', { name: 'Resize the components view' });
  await expect(splitter).toHaveAttribute('aria-orientation', 'horizontal');
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  const viewHeight = async () => (await page.getByTestId('components-view').boundingBox())!.height;
  const heightBefore = await viewHeight();
  await splitter.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Shift+ArrowUp');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before - 80));
  expect(Math.abs((await viewHeight()) - heightBefore + 80)).toBeLessThanOrEqual(2);
  // the file under it keeps its room: End stops where the file would go below 15 lines
  await page.keyboard.press('End');
  expect(Number(await splitter.getAttribute('aria-valuenow'))).toBe(
    Number(await splitter.getAttribute('aria-valuemax')),
  );
  expect((await page.locator('.viewer-scroll').boundingBox())!.height).toBeGreaterThanOrEqual(15 * LINE_PX);
  await page.keyboard.press('Enter');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before));

  await page.goto('./?repo=demo&view=explore&file=src/ui/App.tsx');
  await atEverySize(
    page,
    quarry,
    'quarry (demo)',
    'explore',
    async () => {
      await expect(page.getByTestId('explore-view')).toBeVisible();
      await expect(quarry.codeLine(1)).toBeVisible();
    },
    (report) => {
      expect(report.related).toBe(false);
      expect(report.stageWidth).toBeGreaterThanOrEqual(report.room - 2);
    },
    { stage: '[data-testid="explore-view"]' },
  );
});

test('a diff takes the whole area right of the tree, side by side with room on each side', async ({
  quarry,
  page,
}) => {
  test.setTimeout(180_000);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await page.getByRole('button', { name: 'Repositories', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Repositories' });
  await dialog.getByRole('textbox', { name: 'Repository URL' }).fill(`${GIT}/diff-app.git`);
  await dialog.getByRole('combobox', { name: 'History' }).selectOption({ label: 'Full history' });
  await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 60_000 });
  await quarry.waitForRepo('diff-app', 60_000);
  await quarry.treeItem('src').click();
  await quarry.treeItem('calc.ts').click();
  await page.getByRole('button', { name: 'File history', exact: true }).click();
  const items = page.getByRole('complementary', { name: 'File history' }).getByTestId('file-history-item');
  await items.nth(1).click();
  await expect(page).toHaveURL(/diff=[0-9a-f]{40}/);
  // the panel closed: the diff alone
  await page.getByRole('button', { name: 'File history', exact: true }).click();
  const diff = page.getByRole('region', { name: 'Diff of src/calc.ts' });
  await atEverySize(
    page,
    quarry,
    'diff-app',
    'diff',
    () => expect(diff.locator('[data-change="insert"]').first()).toBeVisible({ timeout: 30_000 }),
    (report, size) => {
      expect(report.related).toBe(false);
      expect(report.stageWidth).toBeGreaterThanOrEqual(report.room - 2);
      // each side shows a changed line whole: `  let sum = 0;` and more
      if (size.width > 900) expect(report.stageWidth / 2).toBeGreaterThan(380);
    },
    { code: '.diff-scroll', stage: '[data-testid="diff-view"]' },
  );
});

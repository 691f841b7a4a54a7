/**
 * The workspace people arrange (#18): splitters dragged and moved with the keyboard survive a
 * reload; the Related panel collapses and stays so; the recent-files strip; result file headers
 * that collapse; a hostile Markdown file rendered as inert text and toggled to its source; an
 * image (PNG written as bytes, and an SVG with a script) shown as a picture.
 */
import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsBytes, writeOpfsRepo } from './helpers/opfs';
import { PANE_DEFAULTS } from '../src/ui/shell/pane-layout';

/** A width × height RGB PNG with a gradient (a real, decodable picture). */
function makePng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++)
      rows.push(Math.round((255 * x) / width), Math.round((255 * y) / height), 180);
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}

/** No axe-core A/AA violation on the page as it is. */
async function expectAccessible(page: Page) {
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
}

const width = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0;

async function saveScreenshot(page: Page, name: string) {
  mkdirSync('e2e/output', { recursive: true });
  await page.screenshot({ path: `e2e/output/${name}` });
  if (process.env.UPDATE_SCREENSHOTS || !existsSync(`e2e/screenshots/${name}`)) {
    mkdirSync('e2e/screenshots', { recursive: true });
    await page.screenshot({ path: `e2e/screenshots/${name}` });
  }
}

test('panes resize by drag and by keyboard, collapse, and come back the same after a reload', async ({
  quarry,
  page,
}) => {
  await quarry.goto('?repo=demo&file=src/ui/App.tsx');
  await quarry.waitForRepo('quarry (demo)');
  const sidebar = page.getByRole('complementary', { name: 'Explorer' });
  const search = page.getByRole('region', { name: 'Search', exact: true });
  const viewer = quarry.viewer('src/ui/App.tsx');
  await expect(viewer).toBeVisible();

  // the default gives the viewer the most room
  expect(await width(sidebar)).toBeCloseTo(240, -1);
  expect(await width(page.locator('.viewer-column'))).toBeGreaterThan(await width(search));

  // drag the tree's splitter 80 px to the right
  const treeSplitter = page.getByRole('separator', { name: 'Resize the file tree' });
  const box = (await treeSplitter.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  const treeWidth = await width(sidebar);
  expect(Math.abs(treeWidth - 320)).toBeLessThanOrEqual(3);
  await expect(treeSplitter).toHaveAttribute('aria-valuenow', String(Math.round(treeWidth)));

  // the search panel's splitter, from the keyboard: two steps left, one big step right
  const middleSplitter = page.getByRole('separator', { name: 'Resize the search panel' });
  const before = Number(await middleSplitter.getAttribute('aria-valuenow'));
  await middleSplitter.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(middleSplitter).toHaveAttribute('aria-valuenow', String(before + 32));
  const searchWidth = await width(search);
  expect(Math.abs(searchWidth - (before + 32))).toBeLessThanOrEqual(2);

  // the Related panel collapses to a rail; the viewer takes its room
  await expect(quarry.relatedPanel).toBeVisible();
  const viewerBefore = await width(viewer);
  await page.getByRole('button', { name: 'Hide related code' }).click();
  await expect(quarry.relatedPanel).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show related code' })).toBeVisible();
  expect(await width(viewer)).toBeGreaterThan(viewerBefore + 150);
  await saveScreenshot(page, 'workspace-layout.png');
  await expectAccessible(page);

  // a reload: the same widths, Related still collapsed
  await page.reload();
  await quarry.waitForRepo('quarry (demo)');
  await expect(quarry.viewer('src/ui/App.tsx')).toBeVisible();
  expect(Math.abs((await width(sidebar)) - treeWidth)).toBeLessThanOrEqual(2);
  expect(Math.abs((await width(search)) - searchWidth)).toBeLessThanOrEqual(2);
  await expect(quarry.relatedPanel).toHaveCount(0);
  await page.getByRole('button', { name: 'Show related code' }).click();
  await expect(quarry.relatedPanel).toBeVisible();

  // the side panel's splitter: End widens it to its maximum, the viewer keeps its minimum
  const sideSplitter = page.getByRole('separator', { name: 'Resize the side panel' });
  await sideSplitter.focus();
  await page.keyboard.press('End');
  expect(await width(quarry.relatedPanel)).toBeCloseTo(
    Number(await sideSplitter.getAttribute('aria-valuemax')),
    -1,
  );
  expect(await width(quarry.viewer('src/ui/App.tsx'))).toBeGreaterThanOrEqual(295);

  // double-click resets; Enter too
  await treeSplitter.dblclick();
  expect(Math.abs((await width(sidebar)) - 240)).toBeLessThanOrEqual(2);
  await sideSplitter.focus();
  await page.keyboard.press('Enter');
  expect(Math.abs((await width(quarry.relatedPanel)) - PANE_DEFAULTS.related)).toBeLessThanOrEqual(2);

  // the narrow layout: one column, no splitters
  await page.setViewportSize({ width: 800, height: 900 });
  await expect(treeSplitter).toBeHidden();
  expect(await width(sidebar)).toBeGreaterThan(700);
});

test('recent files above the viewer, and result file headers that collapse', async ({ quarry, page }) => {
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  for (const name of ['package.json', 'index.html', 'tsconfig.json']) {
    await quarry.treeItem(name).click();
    await expect(quarry.viewer(name)).toBeVisible();
  }
  const strip = page.getByRole('navigation', { name: 'Recent files' });
  const tabs = strip.locator('.recent-open');
  await expect(tabs).toHaveText(['tsconfig.json', 'index.html', 'package.json']);
  await expect(strip.getByRole('button', { name: 'tsconfig.json', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // one click opens a recent file (and makes it the most recent)
  await strip.getByRole('button', { name: 'package.json', exact: true }).click();
  await expect(quarry.viewer('package.json')).toBeVisible();
  await expect(page).toHaveURL(/file=package.json/);
  await expect(tabs).toHaveText(['package.json', 'tsconfig.json', 'index.html']);
  // the keyboard: arrows move along the strip, Delete closes
  await strip.getByRole('button', { name: 'package.json', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(strip.getByRole('button', { name: 'tsconfig.json', exact: true })).toBeFocused();
  await page.keyboard.press('End');
  await expect(strip.getByRole('button', { name: 'index.html', exact: true })).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(tabs).toHaveText(['package.json', 'tsconfig.json']);
  // closing the open file opens the next one
  await strip.getByRole('button', { name: 'Close package.json' }).click();
  await expect(quarry.viewer('tsconfig.json')).toBeVisible();
  await expect(tabs).toHaveText(['tsconfig.json']);

  await page.reload();
  await quarry.waitForRepo('quarry (demo)');
  await expect(page.getByRole('navigation', { name: 'Recent files' }).locator('.recent-open')).toHaveText([
    'tsconfig.json',
  ]);

  // text results: a file's header collapses (click or Enter) and expands again
  await quarry.search('toQuarryError(err)');
  await quarry.waitForSearchDone();
  const headers = page.getByTestId('result-file');
  await expect(headers.first()).toHaveAttribute('aria-expanded', 'true');
  // The list may still be put in order as its last rows are built; a pointer over it holds the
  // files in view where they are (ui/result-order.ts), as for a person about to click one.
  await page.getByTestId('search-results').hover();
  const firstPath = (await headers.first().getAttribute('data-path'))!;
  const header = page.locator(`[data-testid="result-file"][data-path="${firstPath}"]`);
  const hitsOfFirst = page.locator(`[data-testid="result-hit"][data-path="${firstPath}"]`);
  await expect(hitsOfFirst.first()).toBeVisible();
  await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'false');
  await expect(hitsOfFirst).toHaveCount(0);
  await header.focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  await expect(hitsOfFirst.first()).toBeVisible();
  // from the box, ArrowDown still lands on the first hit; ArrowLeft goes to its file's header
  await quarry.searchBox.focus();
  await page.keyboard.press('ArrowDown');
  await expect(quarry.hits.first()).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(headers.first()).toBeFocused();
  // collapse all: only headers left; expand all brings the hits back
  const fileCount = await headers.count();
  await page.getByTestId('collapse-all').click();
  await expect(page.getByTestId('collapse-all')).toHaveText('Expand all');
  await expect(quarry.hits).toHaveCount(0);
  expect(await headers.count()).toBeGreaterThanOrEqual(fileCount);
  await page.getByTestId('collapse-all').click();
  await expect(quarry.hits.first()).toBeVisible();
});

const HOSTILE_README = [
  '# Fixture <script>window.__pwned = "heading"</script>',
  '',
  'A page with **bold**, a [guide](docs/guide.md), a [line](src/app.ts#L2) and [a site](https://example.com/docs).',
  '',
  '<script>window.__pwned = "block"</script>',
  '',
  'Inline <img src=x onerror="window.__pwned = \'img\'"> and <b onmouseover="window.__pwned = \'b\'">html</b>.',
  '',
  '[click me](javascript:window.__pwned="link") and [me too](&#106;avascript:window.__pwned="entity")',
  '',
  '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe>',
  '',
  '![Logo](img/logo.png) ![Badge](https://img.example.com/badge.svg)',
  '',
  '- [x] renders task lists',
  '- [ ] and tables',
  '',
  '| feature | state |',
  '|:--|:-:|',
  '| Markdown | rendered |',
  '',
  '```ts',
  'export const answer = 42;',
  '```',
].join('\n');

test('a hostile Markdown file renders as inert text, links into the repository, toggles to its source; images are shown', async ({
  quarry,
  page,
}) => {
  await pickerReturnsOpfs(page, 'md-fixture');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'md-fixture', {
    'README.md': HOSTILE_README,
    'docs/guide.md': '# Guide\n\nBack to the [readme](../README.md).\n',
    'src/app.ts': 'export const one = 1;\nexport const two = 2;\n',
    'img/icon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="window.__pwned=\'svg-onload\'"><script>window.__pwned="svg"</script><circle cx="20" cy="20" r="16" fill="#3451d1"/></svg>\n',
  });
  await writeOpfsBytes(page, 'md-fixture', 'img/logo.png', makePng(48, 32));
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('md-fixture');

  // no file open: the overview, then the README rendered
  const readme = page.getByTestId('readme-preview');
  await expect(readme.getByRole('heading', { name: /Fixture/ })).toBeVisible();

  await quarry.treeItem('README.md').click();
  const view = page.getByTestId('markdown-view');
  const body = page.getByTestId('markdown-body');
  await expect(body.getByRole('heading', { level: 1 })).toHaveText(
    'Fixture <script>window.__pwned = "heading"</script>',
  );
  await expect(body.getByText('<script>window.__pwned = "block"</script>')).toBeVisible();
  await expect(body.getByText('<img src=x onerror="window.__pwned = \'img\'">')).toBeVisible();
  // no element and no attribute from the content
  await expect(body.locator('script, iframe, svg, style, b, [srcdoc]')).toHaveCount(0);
  const handlers = await body.evaluate((el) =>
    [...el.querySelectorAll('*')]
      .flatMap((e) => [...e.attributes].map((a) => a.name))
      .filter((n) => n.startsWith('on')),
  );
  expect(handlers).toEqual([]);
  await expect(body.locator('a[href^="javascript"], a[href^="data"]')).toHaveCount(0);
  await expect(body.getByText('click me')).toHaveClass(/md-blocked/);
  // an external link opens a new tab without referrer or opener (not followed here: no request leaves)
  const site = body.getByRole('link', { name: 'a site' });
  await expect(site).toHaveAttribute('target', '_blank');
  await expect(site).toHaveAttribute('rel', 'noreferrer noopener');
  // the repository's picture is shown from its own bytes; the external one is a link, never loaded
  const logo = body.getByRole('img', { name: 'Logo' });
  await expect(logo).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
  await expect(body.getByRole('link', { name: '[image: Badge]' })).toBeVisible();
  await expect(body.getByRole('checkbox', { name: 'Done', exact: true })).toBeChecked();
  await expect(body.getByRole('columnheader', { name: 'feature' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  await saveScreenshot(page, 'markdown.png');
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await saveScreenshot(page, 'markdown-dark.png');
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'light' });

  // the source, and back
  await view.getByRole('button', { name: 'Source' }).click();
  await expect(page).toHaveURL(/md=source/);
  await expect(quarry.viewer('README.md').getByTestId('code-line').first()).toContainText('# Fixture');
  await quarry.viewer('README.md').getByRole('button', { name: 'Preview' }).click();
  await expect(body).toBeVisible();
  await expect(page).not.toHaveURL(/md=source/);

  // a relative link opens the file in the viewer (rendered); a #L link opens the source at the line
  await body.getByRole('link', { name: 'guide' }).click();
  await expect(page).toHaveURL(/file=docs%2Fguide.md/);
  await expect(page.getByTestId('markdown-body').getByRole('heading', { name: 'Guide' })).toBeVisible();
  await page.getByTestId('markdown-body').getByRole('link', { name: 'readme' }).click();
  await page.getByTestId('markdown-body').getByRole('link', { name: 'line' }).click();
  await expect(quarry.viewer('src/app.ts')).toBeVisible();
  await expect(quarry.codeLine(2)).toHaveAttribute('aria-current', 'true');

  // images: the PNG (written as bytes) and the SVG (its script never runs: shown through <img>)
  await quarry.treeItem('img').click();
  await quarry.treeItem('logo.png').click();
  const image = page.getByTestId('image-view');
  await expect(image.getByTestId('image-meta')).toHaveText(/^48 × 32 px · [\d.]+ K?B$/);
  await quarry.treeItem('icon.svg').click();
  await expect(image.getByTestId('image-meta')).toHaveText(/^40 × 40 px · [\d.]+ K?B$/);
  await expect(image.getByRole('img')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await expectAccessible(page);
  await image.getByRole('button', { name: 'Source' }).click();
  await expect(quarry.viewer('img/icon.svg').getByTestId('code-line').first()).toContainText('<svg');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
});

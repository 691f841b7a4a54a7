/**
 * Explore (issue 17): the report as a page over a small TypeScript repository with a real
 * cycle, a type-only cycle and a tsconfig alias, opened through File System Access (OPFS):
 * the analyzers' progress, the sections, links into the viewer, the drawn import graph and its
 * "imported by" panel, the focus search, both exports; and the Routes view's drawn tree.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo, type FixtureFiles } from './helpers/opfs';
import type { QuarryPage } from './pages/quarry-page';

const GRAPHY: FixtureFiles = {
  'README.md': '# Graphy\n\nA tiny service with a cycle in it.\n',
  'package.json': JSON.stringify({
    name: 'graphy',
    version: '2.0.0',
    main: 'src/main.ts',
    scripts: { start: 'node src/main.ts' },
    dependencies: { zod: '^3.23.0' },
  }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } }),
  'src/main.ts':
    "/** Starts the service. */\nimport { parse } from '@/parser';\nimport { format } from './format';\nexport const main = () => format(parse('x'));\n",
  'src/parser.ts':
    "import { format } from './format';\nexport class ParseError extends Error {}\nexport function parse(text: string) {\n  if (!text) throw new ParseError('empty input');\n  return format(text);\n}\n",
  'src/format.ts':
    "import { parse } from './parser';\nexport function format(value: unknown): string {\n  return String(value ?? parse(''));\n}\n",
  'src/model.ts': "import type { View } from './view';\nexport interface Model { view?: View }\n",
  'src/view.ts': "import type { Model } from './model';\nexport interface View { model?: Model }\n",
  'src/parser.test.ts':
    "import { it, expect } from 'vitest';\nimport { parse } from './parser';\nit('parses', () => expect(parse('a')).toBe('a'));\n",
};

async function openGraphy(quarry: QuarryPage, page: Page): Promise<void> {
  await pickerReturnsOpfs(page, 'graphy');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'graphy', GRAPHY);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('graphy');
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' });
const view = (page: Page) => page.getByTestId('explore-view');

async function openExplore(page: Page): Promise<void> {
  if (!/view=explore/.test(page.url())) await nav(page).getByRole('link', { name: 'Explore' }).click();
  await expect(page).toHaveURL(/view=explore/);
  // every analyzer of a deep run ends (git: the folder has no .git, reported, not failed)
  await expect(page.getByTestId('explore-progress').locator('li')).toHaveCount(5);
  await expect(page.getByTestId('explore-progress').locator('li[data-status="ok"]')).toHaveCount(5, {
    timeout: 30_000,
  });
  await expect(view(page).getByRole('button', { name: 'Export JSON' })).toBeEnabled();
}

test('Explore reports the repository section by section, draws the import graph, exports, and links into the viewer', async ({
  quarry,
  page,
}) => {
  // the drawings run under the app's CSP like everything else (cytoscape would inject an inline <style>)
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await openGraphy(quarry, page);
  // before any file is open, the viewer's column gives the short report and the way to the full one
  const overview = page.getByTestId('explore-overview');
  await expect(overview).toContainText('The repository graphy holds 9 files');
  await expect(overview.getByRole('list', { name: 'Key files' })).toContainText('README.md');
  await overview.getByRole('link', { name: 'Explore this repository' }).click();
  await openExplore(page);
  const summary = page.getByTestId('explore-summary');
  await expect(summary).toContainText('The repository graphy holds 9 files');
  await expect(summary).toContainText('graphy 2.0.0');
  await expect(summary).toContainText('1 runtime cycle');
  await expect(page.getByTestId('explore-key-files')).toContainText('README.md');
  await expect(page.getByRole('region', { name: 'Dependencies' })).toContainText('zod ^3.23.0');
  await expect(page.getByLabel('Directory tree')).toContainText('├── src/');
  await expect(page.getByTestId('explore-cycles')).toContainText(
    'src/format.ts → src/parser.ts → src/format.ts',
  );
  await expect(page.getByTestId('explore-git')).toContainText('no .git folder');

  // both exports, from the finished report
  const [md] = await Promise.all([
    page.waitForEvent('download'),
    view(page).getByRole('button', { name: 'Export Markdown' }).click(),
  ]);
  expect(md.suggestedFilename()).toBe('explore-repository-deep.md');
  const text = readFileSync((await md.path())!, 'utf8');
  expect(text).toContain('# Explore: .');
  expect(text).toContain('### Runtime cycles (1)');
  expect(text).toContain('### Type-only cycles (no runtime effect) (1)');
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    view(page).getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const report = JSON.parse(readFileSync((await json.path())!, 'utf8'));
  expect(report.depth).toBe('deep');
  expect(report.import_graph.typeCycles[0].files).toEqual(['src/model.ts', 'src/view.ts']);
  expect(report.dependencies_detail[0]).toMatchObject({ path: 'package.json', name: 'graphy' });

  // the drawing: zoom and pan with the pointer, find a file, see what imports it, open the importing line
  const canvas = page.getByTestId('graph-canvas');
  await expect(canvas).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await expect(page.getByRole('img', { name: /Import graph: \d+ files/ })).toBeVisible();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  await page.getByTestId('graph-find').fill('parser.ts');
  await page.getByTestId('graph-find').press('Enter');
  const panel = page.getByTestId('graph-node-panel');
  await expect(panel).toHaveAttribute('data-selected', 'src/parser.ts');
  await expect(panel).toContainText('Imported by (3)');
  await panel
    .getByRole('button', { name: /src\/main\.ts/ })
    .first()
    .click();
  await expect(page).toHaveURL(/file=src(%2F|\/)main\.ts.*line=2/);
  await expect(quarry.codeLine(2)).toBeVisible();
  await expect(view(page)).toBeVisible();

  // a pattern's example opens the viewer at its line
  const example = page.getByTestId('explore-patterns').getByRole('link').first();
  const [file, line] = (await example.textContent())!.split(':');
  await example.click();
  await expect(page).toHaveURL(
    new RegExp(`file=${encodeURIComponent(file).replace(/%2F/g, '(%2F|/)')}.*line=${line}`),
  );
  await expect(quarry.codeLine(Number(line))).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);

  // the focus search, in the URL; a reload restores the view from it
  await view(page).getByLabel('Focus').fill('parse error');
  await expect(page).toHaveURL(/xfocus=parse\+error/);
  await expect(page.getByTestId('explore-focus').getByRole('link').first()).toContainText('src/parser.ts', {
    timeout: 30_000,
  });
  await page.reload();
  await expect(page.getByTestId('explore-focus')).toContainText('src/parser.ts', { timeout: 30_000 });
});

test('the Routes view draws the route tree and opens a route file', async ({ quarry, page }) => {
  await pickerReturnsOpfs(page, 'routes');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'routes', {
    'package.json': JSON.stringify({ name: 'site', dependencies: { next: '16.0.0' } }),
    'app/layout.tsx': 'export default function L({ children }) { return children; }\n',
    'app/page.tsx': 'export default function Home() { return null; }\n',
    'app/blog/[slug]/page.tsx': 'export default function Post() { return null; }\n',
    'app/api/health/route.ts': 'export function GET() { return new Response("ok"); }\n',
  });
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('routes');
  await nav(page).getByRole('link', { name: 'Routes' }).click();
  await page.getByRole('radio', { name: 'Drawing' }).check();
  await expect(page).toHaveURL(/rshow=graph/);
  const tree = page.getByTestId('route-tree');
  await expect(tree.getByTestId('graph-canvas')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await tree.getByTestId('graph-find').fill('/blog/[slug]');
  await tree.getByTestId('graph-find').press('Enter');
  await expect(page.getByTestId('route-tree-panel')).toHaveAttribute('data-selected', '/blog/[slug]');
  await page.getByTestId('route-tree-panel').getByRole('button', { name: /Open/ }).first().click();
  await expect(page).toHaveURL(/file=app(%2F|\/)blog/);
});

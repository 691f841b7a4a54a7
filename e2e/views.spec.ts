/**
 * The three analysis views (issue 6): Components, Routes and Features over a small Next.js
 * shop (e2e/fixtures-data/shop: an App Router app, React components in every common form,
 * a LaunchDarkly flag and an env-var flag, a test and a README). The folder is opened through
 * File System Access (OPFS), so a reload re-reads it and the URL restores each view.
 */
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo, type FixtureFiles } from './helpers/opfs';
import type { QuarryPage } from './pages/quarry-page';

const FIXTURE_DIR = join(import.meta.dirname, 'fixtures-data', 'shop');

function readFixture(dir: string): FixtureFiles {
  const files: FixtureFiles = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else files[relative(dir, abs).split('\\').join('/')] = readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return files;
}

async function openShop(quarry: QuarryPage, page: Page): Promise<void> {
  await pickerReturnsOpfs(page, 'shop');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'shop', readFixture(FIXTURE_DIR));
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('shop');
}

async function expectNoAxeViolations(page: Page): Promise<void> {
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

const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' });

test('Components lists the components with their uses and opens one at its line', async ({
  quarry,
  page,
}) => {
  await openShop(quarry, page);
  await nav(page).getByRole('link', { name: 'Components' }).click();
  await expect(nav(page).getByRole('link', { name: 'Components' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).getByRole('link', { name: 'Search' })).not.toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/view=components/);

  const table = page.getByRole('table', { name: 'Components' });
  const row = (name: string) =>
    table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  // The first analysis loads the parsers (and may share the worker with the index build).
  await expect(page.getByTestId('view-summary')).toContainText('12 components', { timeout: 30_000 });
  await expect(row('Button')).toContainText('arrow');
  await expect(row('Button')).toContainText('components/Button.tsx:1');
  await expect(row('Button').getByTestId('uses-count')).toHaveText('2');
  await expect(row('ProductCard')).toContainText('memo');
  await expect(row('LegacyFooter')).toContainText('class');
  await expect(row('Header').getByTestId('uses-count')).toHaveText('1');
  await expect(row('LegacyFooter').getByTestId('uses-count')).toHaveText('0');
  await page.screenshot({ path: 'e2e/output/views-components.png' });

  // Uses expand to the places that render the component.
  await row('Button').getByTestId('uses-count').click();
  const uses = page.getByRole('list', { name: 'Uses of Button' });
  await expect(uses.getByRole('link')).toHaveText([
    'components/Header.tsx:7',
    'components/ProductCard.tsx:9',
  ]);
  await page.screenshot({ path: 'e2e/output/views-components-uses.png' });

  // Filter, then open the definition at its line.
  await page.getByRole('searchbox', { name: 'Filter components' }).fill('Card');
  await expect(page).toHaveURL(/cq=Card/);
  await expect(table.getByTestId('component-row')).toHaveCount(1);
  await table.getByRole('link', { name: 'ProductCard', exact: true }).click();
  await expect(quarry.viewer('components/ProductCard.tsx')).toBeVisible();
  await expect(quarry.codeLine(4)).toHaveAttribute('aria-current', 'true');
  await expectNoAxeViolations(page);

  await page.reload();
  await quarry.waitForRepo('shop');
  await expect(page.getByRole('searchbox', { name: 'Filter components' })).toHaveValue('Card');
  await expect(page.getByRole('table', { name: 'Components' }).getByTestId('component-row')).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(quarry.viewer('components/ProductCard.tsx')).toBeVisible();
  await expect(quarry.codeLine(4)).toHaveAttribute('aria-current', 'true');

  // Ctrl+Shift+F from another view goes to Search with the box focused.
  await page.keyboard.press('Control+Shift+F');
  await expect(page).not.toHaveURL(/view=components/);
  await expect(quarry.searchBox).toBeFocused();
});

test('Routes shows the route tree with types, filters by text and type, and a table', async ({
  quarry,
  page,
}) => {
  await openShop(quarry, page);
  await nav(page).getByRole('link', { name: 'Routes' }).click();
  await expect(nav(page).getByRole('link', { name: 'Routes' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('view-summary')).toContainText('9 routes · 4 pages · 2 API routes · 1 app', {
    timeout: 30_000,
  });

  const tree = page.getByRole('list', { name: 'Route tree of shop' });
  await expect(tree).toBeVisible();
  const node = (url: string) => tree.locator(`[data-testid="route-node"][data-url="${url}"]`).first();
  await expect(
    node('/').getByRole('list', { name: 'Files for /', exact: true }).getByTestId('route-file'),
  ).toHaveCount(4);
  await expect(page.getByRole('list', { name: 'Files for /blog/[slug]', exact: true })).toContainText('page');
  await expect(page.getByRole('list', { name: 'Files for /blog/[slug]', exact: true })).toContainText(
    'app/blog/[slug]/page.tsx',
  );
  await expect(page.getByRole('list', { name: 'Files for /about', exact: true })).toContainText(
    'app/(marketing)/about/page.tsx',
  );
  await expect(page.getByRole('list', { name: 'Files for /api/checkout', exact: true })).toContainText('api');
  await expect(page.getByRole('list', { name: 'Files for /docs/[...slug]', exact: true })).toBeVisible();
  await page.screenshot({ path: 'e2e/output/views-routes-tree.png' });
  await expectNoAxeViolations(page);

  // Filter by type, then by text.
  await page.getByRole('combobox', { name: 'Route type' }).selectOption('api');
  await expect(page).toHaveURL(/rtype=api/);
  await expect(tree.getByTestId('route-file')).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Filter routes' }).fill('products');
  await expect(tree.getByTestId('route-file')).toHaveCount(1);
  await expect(tree.getByTestId('route-file')).toContainText('app/api/products/route.ts');

  // The table, and a file opened from it.
  await page.getByRole('radio', { name: 'Table' }).check();
  const table = page.getByRole('table', { name: 'Routes of shop' });
  await expect(table.getByTestId('route-row')).toHaveCount(1);
  await expect(table.getByTestId('route-row')).toContainText('/api/products');
  await page.getByRole('searchbox', { name: 'Filter routes' }).fill('');
  await page.getByRole('combobox', { name: 'Route type' }).selectOption('');
  await expect(table.getByTestId('route-row')).toHaveCount(9);
  await page.screenshot({ path: 'e2e/output/views-routes-table.png' });
  await table.getByRole('link', { name: 'app/blog/[slug]/page.tsx (page /blog/[slug])' }).click();
  await expect(quarry.viewer('app/blog/[slug]/page.tsx')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('searchbox', { name: 'Filter routes' }).fill('blog');
  await expect(page).toHaveURL(/rq=blog/);
  await page.reload();
  await quarry.waitForRepo('shop');
  await expect(page.getByRole('radio', { name: 'Table' })).toBeChecked();
  await expect(page.getByRole('searchbox', { name: 'Filter routes' })).toHaveValue('blog');
  await expect(page.getByRole('table', { name: 'Routes of shop' }).getByTestId('route-row')).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(quarry.viewer('app/blog/[slug]/page.tsx')).toBeVisible();
});

test('Features lists the flag inventory and checks a feature with highlighted references', async ({
  quarry,
  page,
}) => {
  await openShop(quarry, page);
  await nav(page).getByRole('link', { name: 'Features' }).click();
  await expect(nav(page).getByRole('link', { name: 'Features' })).toHaveAttribute('aria-current', 'page');

  const inventory = page.getByRole('table', { name: 'Feature flags' });
  await expect(inventory.getByTestId('flag-row')).toHaveCount(2, { timeout: 30_000 });
  await expect(inventory.getByTestId('flag-row').nth(0)).toContainText('newCheckout');
  await expect(inventory.getByTestId('flag-row').nth(0)).toContainText('LaunchDarkly');
  await expect(inventory.getByTestId('flag-row').nth(0).getByRole('cell').nth(1)).toHaveText('1');
  await expect(inventory.getByTestId('flag-row').nth(1)).toContainText('NEXT_PUBLIC_FEATURE_DARK_MODE');
  await expect(inventory.getByTestId('flag-row').nth(1)).toContainText('environment variable');

  // Bad input is shown inline.
  await page.getByRole('searchbox', { name: 'Feature name' }).fill('!!!');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByTestId('view-error')).toContainText('must contain a letter or digit', {
    timeout: 30_000,
  });

  await page.getByRole('searchbox', { name: 'Feature name' }).fill('new checkout');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page).toHaveURL(/feature=new\+checkout/);
  const card = page.getByTestId('feature-status');
  await expect(card.getByTestId('status-implemented')).toHaveText('Yes', { timeout: 30_000 });
  await expect(card.getByTestId('status-flagged')).toContainText('Yes newCheckout (LaunchDarkly)');
  await expect(card.getByTestId('status-tests')).toContainText('Yes');
  await expect(card.getByTestId('status-summary')).toContainText('"new checkout" is implemented');
  await expect(card.getByTestId('feature-ref')).toHaveCount(5);
  await expect(card.getByTestId('feature-ref').first().locator('mark')).toHaveText('newCheckout');
  await expect(card.getByTestId('feature-ref-context')).toHaveCount(3); // overlapping contexts share one block
  await expect(card.locator('mark')).toHaveText([
    'newCheckout',
    'newCheckout',
    'new checkout',
    'new checkout',
    'new checkout',
  ]);
  await page.screenshot({ path: 'e2e/output/views-features.png' });
  await expectNoAxeViolations(page);

  await card.getByRole('link', { name: 'Open components/CheckoutBanner.tsx at line 5' }).click();
  await expect(quarry.viewer('components/CheckoutBanner.tsx')).toBeVisible();
  await expect(quarry.codeLine(5)).toHaveAttribute('aria-current', 'true');

  // A flag of the inventory can be checked directly.
  await page.getByRole('button', { name: 'Check feature NEXT_PUBLIC_FEATURE_DARK_MODE' }).click();
  await expect(card.getByTestId('status-flagged')).toContainText('NEXT_PUBLIC_FEATURE_DARK_MODE', {
    timeout: 30_000,
  });
  await expect(page.getByRole('searchbox', { name: 'Feature name' })).toHaveValue(
    'NEXT_PUBLIC_FEATURE_DARK_MODE',
  );
  await page.goBack();
  await expect(card.getByTestId('status-flagged')).toContainText('newCheckout', { timeout: 30_000 });

  await page.reload();
  await quarry.waitForRepo('shop');
  await expect(page.getByRole('searchbox', { name: 'Feature name' })).toHaveValue('new checkout');
  await expect(page.getByTestId('feature-status').getByTestId('status-flagged')).toContainText(
    'newCheckout',
    { timeout: 30_000 },
  );
  await expect(quarry.viewer('components/CheckoutBanner.tsx')).toBeVisible();
});

test('the views say what to do when a repository has no components, routes or flags', async ({
  quarry,
  page,
}) => {
  await pickerReturnsOpfs(page, 'plain');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'plain', {
    'README.md': '# Plain\n',
    'src/util.ts': 'export const API_URL = "x";\n',
  });
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('plain');
  await nav(page).getByRole('link', { name: 'Components' }).click();
  await expect(page.getByTestId('view-empty')).toContainText('No React components found.', {
    timeout: 30_000,
  });
  await nav(page).getByRole('link', { name: 'Routes' }).click();
  await expect(page.getByTestId('view-empty')).toContainText('No routes found.');
  await expect(page.getByTestId('view-empty')).toContainText('No Next.js app found');
  await nav(page).getByRole('link', { name: 'Features' }).click();
  await expect(page.getByTestId('view-empty')).toContainText('No feature flags found.');
  await page.screenshot({ path: 'e2e/output/views-empty.png' });
  await expectNoAxeViolations(page);
  await nav(page).getByRole('link', { name: 'Search' }).click();
  await expect(quarry.searchBox).toBeVisible();
});

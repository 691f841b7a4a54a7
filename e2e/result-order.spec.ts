import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo, type FixtureFiles } from './helpers/opfs';

/** The same word in a changelog, docs, a test and two sources: the walk meets the changelog first. */
const INVOICES: FixtureFiles = {
  'CHANGELOG.md':
    '# Changes\n\n- parseInvoice reads credit notes\n- parseInvoice is faster\n- parseInvoice keeps the currency\n',
  'docs/invoices.md': '# Invoices\n\nCall `parseInvoice(text)`.\n',
  'package.json': '{ "name": "invoices", "version": "1.0.0" }\n',
  'src/__tests__/billing.test.ts':
    "import { parseInvoice } from '../billing/parse-invoice';\n\nparseInvoice('a');\nparseInvoice('b');\n",
  'src/billing/parse-invoice.ts':
    'export function parseInvoice(text: string): string[] {\n  return text.split("\\n");\n}\n',
  'src/billing/totals.ts':
    "import { parseInvoice } from './parse-invoice';\n\nexport const lines = (t: string) => parseInvoice(t).length;\n",
};

const RELEVANCE = [
  'src/billing/parse-invoice.ts',
  'src/billing/totals.ts',
  'src/__tests__/billing.test.ts',
  'docs/invoices.md',
  'CHANGELOG.md',
];
const PATH = [
  'CHANGELOG.md',
  'docs/invoices.md',
  'src/__tests__/billing.test.ts',
  'src/billing/parse-invoice.ts',
  'src/billing/totals.ts',
];

test('text results come in relevance order; the Path switch reorders them, is in the address and survives a reload', async ({
  quarry,
  page,
}) => {
  await pickerReturnsOpfs(page, 'invoices');
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await writeOpfsRepo(page, 'invoices', INVOICES);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('invoices');

  const files = page.getByTestId('result-file');
  const paths = () => files.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  const order = page.getByRole('radiogroup', { name: 'Result order' });
  await quarry.search('parseInvoice');
  await quarry.waitForSearchDone();
  // the source that defines it (and is named by it), the other source, the test, the docs, the changelog
  await expect.poll(paths).toEqual(RELEVANCE);
  await expect(order.getByRole('radio', { name: 'Relevance' })).toBeChecked();
  await expect(page).not.toHaveURL(/order=/);

  // The search panel with the switch, as a person sees it.
  mkdirSync('e2e/output', { recursive: true });
  await page.getByRole('region', { name: 'Search' }).screenshot({ path: 'e2e/output/result-order.png' });

  // click, then wait for the state: the order lives in the address, and under load the re-render
  // comes after check()'s own immediate look at the radio ("did not change its state")
  await order.getByRole('radio', { name: 'Path' }).click();
  await expect(order.getByRole('radio', { name: 'Path' })).toBeChecked();
  await expect(page).toHaveURL(/order=path/);
  await expect(files.first()).toHaveAttribute('data-path', PATH[0]);
  await expect.poll(paths).toEqual(PATH);

  await page.reload();
  await quarry.waitForRepo('invoices');
  await quarry.waitForSearchDone();
  await expect(order.getByRole('radio', { name: 'Path' })).toBeChecked();
  await expect(files.first()).toHaveAttribute('data-path', PATH[0]);
  await expect.poll(paths).toEqual(PATH);

  // From the keyboard: the arrow keys move between the two orders; relevance leaves the address.
  await order.getByRole('radio', { name: 'Path' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(order.getByRole('radio', { name: 'Relevance' })).toBeChecked();
  await expect(page).not.toHaveURL(/order=/);
  await expect(files.first()).toHaveAttribute('data-path', RELEVANCE[0]);
});

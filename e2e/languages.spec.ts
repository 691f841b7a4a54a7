/**
 * Every language a repository holds (issue 15): a folder with a file in each listed language
 * is indexed in the browser (the parsing pool's workers, grammars loaded as files of their
 * language come), Ranked finds a symbol of each, and the status line says what the index covers.
 */
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';

// the offline rebuild needs the service worker (playwright.config.ts blocks it for the other specs)
test.use({ serviceWorkers: 'allow' });

/** path -> [file text, the symbol Ranked must find in it]. */
const FILES: Record<string, [string, string]> = {
  'c/commit.c': [
    '#include <stdio.h>\n\nstruct commit { int id; };\n\nint parse_commit_object(struct commit *c) {\n  return c->id;\n}\n',
    'parse_commit_object',
  ],
  'cpp/tree.cpp': [
    'namespace forest {\nclass SpanningTree {\n public:\n  int heaviestBranch() const { return 1; }\n};\n}\n',
    'heaviestBranch',
  ],
  'java/Ledger.java': [
    'package bank;\n\npublic class Ledger {\n  public long reconcileAccounts(long a) {\n    return a;\n  }\n}\n',
    'reconcileAccounts',
  ],
  'cs/Invoice.cs': [
    'namespace Billing {\n  public class Invoice {\n    public decimal ComputeSurcharge(decimal x) { return x; }\n  }\n}\n',
    'ComputeSurcharge',
  ],
  'rb/shipping.rb': [
    'module Shipping\n  class Parcel\n    def estimate_delivery_window\n      3\n    end\n  end\nend\n',
    'estimate_delivery_window',
  ],
  'php/cart.php': [
    '<?php\nclass Cart {\n  public function applyVoucherCode($code) {\n    return $code;\n  }\n}\n',
    'applyVoucherCode',
  ],
  'sh/deploy.sh': ['#!/bin/bash\n\nrotate_release_logs() {\n  echo rotating\n}\n', 'rotate_release_logs'],
  'kt/Greeter.kt': [
    'class Greeter {\n    fun composeWelcomeBanner(name: String): String = "hi $name"\n}\n',
    'composeWelcomeBanner',
  ],
  'css/site.css': [
    '.sidebar-collapsed-toggle {\n  display: none;\n}\n\n@media (max-width: 600px) {\n  .header { padding: 0; }\n}\n',
    'sidebar-collapsed-toggle',
  ],
  'css/theme.scss': [
    '$accent: #333;\n\n.pricing-table-highlight {\n  color: $accent;\n  .cell { padding: 2px; }\n}\n',
    'pricing-table-highlight',
  ],
  'web/index.html': [
    '<!doctype html>\n<html>\n<body>\n  <section id="newsletter-signup">\n    <form></form>\n  </section>\n  <script>\n    function trackNewsletterClick() { return 1; }\n  </script>\n</body>\n</html>\n',
    'trackNewsletterClick',
  ],
  'web/Counter.vue': [
    '<template>\n  <button @click="incrementTally">{{ n }}</button>\n</template>\n\n<script setup lang="ts">\nfunction incrementTally(): void {\n  console.log(1);\n}\n</script>\n',
    'incrementTally',
  ],
  'web/Toggle.svelte': [
    '<script>\n  export let on = false;\n  function flipSwitchState() {\n    on = !on;\n  }\n</script>\n\n<button on:click={flipSwitchState}>toggle</button>\n',
    'flipSwitchState',
  ],
  'config/app.json': [
    '{\n  "name": "demo",\n  "featureFlagsEndpoint": "/flags"\n}\n',
    'featureFlagsEndpoint',
  ],
  'config/ci.yaml': ['name: ci\nnightly_regression_suite:\n  runs-on: linux\n', 'nightly_regression_suite'],
  'config/tool.toml': ['title = "x"\n\n[database_connection_pool]\nsize = 4\n', 'database_connection_pool'],
  'src/money.ts': [
    'export function convertCurrencyAmount(x: number): number {\n  return x;\n}\n',
    'convertCurrencyAmount',
  ],
  'src/widget.jsx': [
    'export function RenderStarRating() {\n  return <div>stars</div>;\n}\n',
    'RenderStarRating',
  ],
  'py/stats.py': ['def rolling_median_window(xs):\n    return xs\n', 'rolling_median_window'],
  'go/queue.go': ['package queue\n\nfunc DrainPendingJobs() int {\n\treturn 0\n}\n', 'DrainPendingJobs'],
  'rs/lib.rs': ['pub fn checksum_block_range(a: u32) -> u32 {\n    a\n}\n', 'checksum_block_range'],
  'docs/guide.md': ['# Guide\n\n## Configuring webhook retries\n\nSet it.\n', 'webhook'],
  'tools/report.pl': ['sub summarize_quarterly_totals {\n  return 1;\n}\n', 'summarize_quarterly_totals'],
};

test('a repository in every listed language: Ranked finds a symbol in each, and the coverage is shown', async ({
  quarry,
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const files: Record<string, string> = Object.fromEntries(
    Object.entries(FILES).map(([p, [text]]) => [p, text]),
  );
  files['web/vendor.min.js'] = 'var q=function(a,b){return a+b};'.repeat(600) + '\n';
  files['package-lock.json'] = '{\n  "lockfileVersion": 3\n}\n';
  await pickerReturnsOpfs(page, 'polyglot');
  await quarry.gotoEmpty();
  // Grammars are not precached (C# alone is 5 MB): the service worker keeps each once it is used.
  // The page is reloaded once the service worker is active, so that it (and the workers the build
  // starts) are controlled by it: the first build's grammar fetches are the ones it keeps.
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.reload();
  await expect(page.getByTestId('home')).toBeVisible();
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await writeOpfsRepo(page, 'polyglot', files);
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('polyglot');
  expect(await quarry.waitForIndex(240_000)).toBe('full');

  const total = Object.keys(files).length;
  await expect(quarry.indexStatus.getByTestId('index-ranked')).toHaveText(
    `${total - 2} of ${total} files ranked`,
  );
  await expect(quarry.indexStatus.getByTestId('index-coverage')).toHaveText(
    ' · 1 as blocks (no parser for .pl) · 2 text only (minified 1, generated 1)',
  );

  // the skipped dialog says why each file is text only
  await page.getByTestId('show-skipped').click();
  const dialog = page.getByRole('dialog', { name: 'Skipped files' });
  await expect(dialog.getByRole('row').filter({ hasText: 'web/vendor.min.js' })).toContainText(
    'minified: text search only (1 line of',
  );
  await expect(dialog.getByRole('row').filter({ hasText: 'package-lock.json' })).toContainText(
    'generated: text search only (lockfile)',
  );
  await dialog.getByRole('button', { name: 'Close' }).click();

  // every language checked (soft), so one miss does not hide the others
  for (const [path, [, symbol]] of Object.entries(FILES)) {
    await quarry.search(symbol, 'Ranked');
    await expect
      .soft(quarry.rankedHits.first(), `Ranked "${symbol}" finds it in ${path} first`)
      .toHaveAttribute('data-path', path);
  }
  await page.screenshot({ path: 'e2e/output/languages.png' });

  // After a reload the stored index answers (cache_hit) and the folder is checked in the background.
  // A rebuild is clicked once that check is over, and waited for until its own full build is done:
  // 'ready' alone is also the state before the rebuild starts.
  const rebuildAfterReload = async () => {
    await quarry.waitForRepo('polyglot');
    await quarry.waitForIndex();
    await expect(page.getByTestId('reconcile-status')).toHaveCount(0, { timeout: 120_000 });
    // (a change the check found is refreshed first: incremental)
    await expect(quarry.indexStatus).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
    await expect(quarry.indexStatus).toHaveAttribute('data-mode', /^(cache_hit|incremental)$/);
    await quarry.indexStatus.getByRole('button', { name: 'Rebuild index' }).click();
    await expect(quarry.indexStatus).toHaveAttribute('data-mode', 'full', { timeout: 120_000 });
    await expect(quarry.indexStatus).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  };

  // the service worker stores each response after answering it: poll until every grammar is there
  const cachedGrammars = () =>
    page.evaluate(async () =>
      (await (await caches.open('quarry-grammars')).keys()).map((r) =>
        new URL(r.url).pathname.split('/').pop()!,
      ),
    );
  await expect
    .poll(async () => (await cachedGrammars()).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(13);
  const cached = await cachedGrammars();
  for (const grammar of [
    'c',
    'cpp',
    'c_sharp',
    'java',
    'ruby',
    'php',
    'bash',
    'kotlin',
    'css',
    'html',
    'python',
    'go',
    'rust',
  ])
    expect
      .soft(
        cached.some((name) => name.startsWith(`tree-sitter-${grammar}-`)),
        `${grammar} grammar kept by the service worker`,
      )
      .toBe(true);
  // offline: a full rebuild parses every language again from what the service worker kept
  await context.setOffline(true);
  await page.reload();
  await rebuildAfterReload();
  await expect(quarry.indexStatus.getByTestId('index-ranked')).toHaveText(
    `${total - 2} of ${total} files ranked`,
  );
  for (const [symbol, path] of [
    ['ComputeSurcharge', 'cs/Invoice.cs'],
    ['parse_commit_object', 'c/commit.c'],
  ]) {
    await quarry.search(symbol, 'Ranked');
    await expect(quarry.rankedHits.first()).toHaveAttribute('data-path', path);
  }
  await context.setOffline(false);
});

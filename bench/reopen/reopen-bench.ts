/**
 * Reopening from what is stored (issue 33, point 1): a folder of 4,000+ files (npm packages' own
 * trees: es-abstract, lodash, zod) copied into the origin-private file system, opened once through
 * the folder picker and indexed; then reloaded and deep-linked a few times. Printed per visit
 * (ms since navigation, read in the page): the tree shown, a deep-linked file's first line shown,
 * and the background check against the folder ended. Not a test: nothing asserts
 * (e2e/reopen.spec.ts checks the behaviour and the long tasks).
 *
 * BENCH_DIST names the built app (default dist/, built when missing); BENCH_REOPEN_PORT the port.
 * Run: BENCH_ONLY=reopen npm run bench (or npx tsx bench/reopen/reopen-bench.ts).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { printTable, stopGroup } from '../common';
import { copyDiskDirToOpfs } from '../../e2e/helpers/opfs';

const PORT = Number(process.env.BENCH_REOPEN_PORT ?? 4393);
const DIST = process.env.BENCH_DIST ?? 'dist';
const NAME = 'reopen-tree';
const PACKAGES = ['es-abstract', 'lodash', 'zod'];
const LINKED = 'es-abstract/2015/ToNumber.js';
const VISITS = Number(process.env.BENCH_RUNS ?? 3);

/** From the start of every document: when the tree, the check, a code line first showed, and when the check ended. */
function timeline(): void {
  const t: Record<string, number> = {};
  (window as unknown as { __reopen: Record<string, number> }).__reopen = t;
  new MutationObserver(() => {
    const seen = (k: string, sel: string) => {
      if (!(k in t) && document.querySelector(sel)) t[k] = performance.now();
    };
    seen('tree', '[role="tree"] [role="treeitem"]');
    seen('checking', '[data-testid="reconcile-status"]');
    seen('text', '[data-testid="code-line"]');
    if ('checking' in t && !document.querySelector('[data-testid="reconcile-status"]'))
      t.checked ??= performance.now();
  }).observe(document, { childList: true, subtree: true });
}

async function settled(page: Page): Promise<Record<string, number>> {
  await page.waitForFunction(
    () => {
      const t = (window as unknown as { __reopen?: Record<string, number> }).__reopen;
      const ready =
        document.querySelector('[data-testid="index-status"]')?.getAttribute('data-state') === 'ready';
      return !!t && 'tree' in t && ready && !document.querySelector('[data-testid="reconcile-status"]');
    },
    undefined,
    { timeout: 300_000, polling: 100 },
  );
  return page.evaluate(() => (window as unknown as { __reopen: Record<string, number> }).__reopen);
}

async function serve<T>(run: () => Promise<T>): Promise<T> {
  const server = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort', '--outDir', DIST],
    { stdio: 'ignore', detached: true },
  );
  try {
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${PORT}/`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await new Promise((r) => setTimeout(r, 200));
    }
    if (!up) throw new Error(`vite preview did not answer on port ${PORT}`);
    return await run();
  } finally {
    stopGroup(server);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (n: number | undefined) => (n !== undefined && Number.isFinite(n) ? String(Math.round(n)) : '-');

export async function runReopenBench(): Promise<void> {
  console.log(
    '\n== reopening a 4,000-file folder from what is stored: tree, deep-linked file, background check',
  );
  if (!existsSync(resolve(DIST, 'index.html'))) {
    console.log('   (building the app)');
    if (
      spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', DIST], { stdio: 'inherit' })
        .status !== 0
    )
      return void console.log('the build failed');
  }
  if (spawnSync('sh', ['-c', 'command -v chromium'], { stdio: 'ignore' }).status !== 0)
    return void console.log('no chromium on this machine');
  const root = join(mkdtempSync(join(tmpdir(), 'quarry-bench-reopen-')), NAME);
  for (const pkg of PACKAGES)
    cpSync(join('node_modules', pkg), join(root, pkg), { recursive: true, dereference: true });
  try {
    const rows = await serve(async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const context = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          serviceWorkers: 'block',
        });
        await context.addInitScript((d) => {
          (window as unknown as { showDirectoryPicker: () => Promise<unknown> }).showDirectoryPicker =
            async () => (await navigator.storage.getDirectory()).getDirectoryHandle(d);
        }, NAME);
        // tsx names the functions it compiles with a helper (__name) the page does not have
        await context.addInitScript('window.__name = (f) => f;');
        await context.addInitScript(timeline);
        const page = await context.newPage();
        const base = `http://127.0.0.1:${PORT}/`;
        await page.goto(base);
        await page.getByTestId('repo-name').filter({ hasText: 'quarry (demo)' }).waitFor({ timeout: 60_000 });
        const files = await copyDiskDirToOpfs(page as never, root, NAME);
        await page.getByRole('button', { name: 'Open folder', exact: true }).click();
        await settled(page);
        const out: string[][] = [['visit', 'tree ms', 'file text ms', 'check ended ms']];
        const url = new URL(page.url());
        const reload: Record<string, number>[] = [];
        for (let i = 0; i < VISITS; i++) {
          await page.reload();
          reload.push(await settled(page));
        }
        url.searchParams.set('file', LINKED);
        url.searchParams.set('line', '20');
        const link: Record<string, number>[] = [];
        for (let i = 0; i < VISITS; i++) {
          await page.goto(url.toString());
          link.push(await settled(page));
        }
        const row = (label: string, ts: Record<string, number>[]) => [
          `${label} (median of ${ts.length})`,
          ms(median(ts.map((t) => t.tree))),
          ts.some((t) => 'text' in t) ? ms(median(ts.map((t) => t.text))) : '-',
          ms(median(ts.map((t) => t.checked))),
        ];
        if (process.env.BENCH_REOPEN_DEBUG) console.log(JSON.stringify({ reload, link }));
        out.push(row('reload', reload), row(`deep link ${LINKED}`, link));
        console.log(`   ${files} files; times are ms since navigation, read in the page`);
        return out;
      } finally {
        await browser.close();
      }
    });
    printTable(rows);
  } finally {
    rmSync(dirname(root), { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve('bench/reopen/reopen-bench.ts'))
  await runReopenBench();

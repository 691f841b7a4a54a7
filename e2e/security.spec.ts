/**
 * The deployed build's Content-Security-Policy (a <meta> tag written by vite.config.ts) and
 * what ships in dist/ (issue 14, row 10). Runs against the built app that `vite preview`
 * serves, so it reads the same dist/ from disk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// offline use needs the service worker (playwright.config.ts blocks it for the other specs)
test.use({ serviceWorkers: 'allow' });

const DIST = join(import.meta.dirname, '..', process.env.E2E_DIST ?? 'dist');

function distFiles(dir = DIST): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? distFiles(abs) : [abs];
  });
}

/** Every CSP violation the document reports, and every console line about one (workers included). */
async function recordViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  const onConsole = (text: string) => {
    if (/Content Security Policy|Refused to/i.test(text)) seen.push(`console: ${text}`);
  };
  page.on('console', (m) => onConsole(m.text()));
  page.on('worker', (w) => w.on('console', (m) => onConsole(m.text())));
  await page.exposeFunction('__cspViolation', (v: string) => seen.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return seen;
}

test('dist/ ships a CSP meta tag and no source maps', () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  expect(directives.get('default-src')).toEqual(["'none'"]);
  expect(directives.get('connect-src')?.[0]).toBe("'self'");
  expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);
  // blob: only for pictures (a repository's images, from bytes the engine read): never scripts, workers or connections
  expect([...directives].filter(([, values]) => values.includes('blob:')).map(([name]) => name)).toEqual([
    'img-src',
  ]);
  // The policy precedes every script and stylesheet it governs.
  expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
  // No inline script in the page: every <script> has a src.
  expect([...html.matchAll(/<script\b[^>]*>/g)].filter((m) => !/\ssrc=/.test(m[0]))).toEqual([]);

  const files = distFiles();
  expect(files.length).toBeGreaterThan(5);
  expect(files.filter((f) => f.endsWith('.map')).map((f) => relative(DIST, f))).toEqual([]);
  const linked = files.filter(
    (f) => /\.(js|mjs|css)$/.test(f) && /^\/[/*][#@] sourceMappingURL=/m.test(readFileSync(f, 'utf8')),
  );
  expect(linked.map((f) => relative(DIST, f))).toEqual([]);
});

test('a whole session on the demo runs under the CSP without a single violation', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  const violations = await recordViolations(page);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  // the engine runs in the worker (not the main-thread fallback a blocked worker would force)
  await expect(page.getByText('Engine: web worker')).toBeVisible();
  // the service worker registers and activates
  const sw = await page.evaluate(async () => {
    const reg = await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
    ]);
    return reg?.active?.scriptURL ?? '';
  });
  expect(sw).toMatch(/\/sw\.js$/);

  await quarry.search('QuarryError');
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first()).toBeVisible();
  // the list may still be put in order as its last rows are built: a pointer over it holds the files
  // where they are (ui/result-order.ts), and the hit clicked is one of the file whose path was read
  await page.getByTestId('search-results').hover();
  const path = (await quarry.hits.first().getAttribute('data-path'))!;
  await page.locator(`[data-testid="result-hit"][data-path="${path}"]`).first().click();
  await expect(quarry.viewer(path)).toBeVisible();
  // the code index is built with the tree-sitter parsers (WebAssembly), then Ranked mode answers
  await quarry.waitForIndex();
  await quarry.search('parse query', 'Ranked');
  await expect(quarry.rankedHits.first()).toBeVisible();
  await quarry.search('quarryDemo', 'Regex');
  await quarry.waitForSearchDone();
  await expect(quarry.hits.first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Views' });
  for (const name of ['Components', 'Routes', 'Features', 'History', 'Search']) {
    await nav.getByRole('link', { name }).click();
    await expect(nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  }
  await page.keyboard.press('Control+p');
  await page.getByRole('dialog', { name: 'Quick open' }).getByRole('combobox').fill('limits');
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Escape');

  expect(violations).toEqual([]);
});

test('the main-thread engine (the fallback when a worker cannot start) also runs under the CSP', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  const violations = await recordViolations(page);
  await quarry.goto('?engine=main');
  await quarry.waitForRepo('quarry (demo)');
  await expect(page.getByText('Engine: main-thread')).toBeVisible();
  // the parsers compile on the main thread here: 'wasm-unsafe-eval' is what allows it
  await quarry.waitForIndex();
  await quarry.search('parse query', 'Ranked');
  await expect(quarry.rankedHits.first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('the CSP blocks injected inline script, eval, inline handlers and markup styles', async ({
  quarry,
  page,
}) => {
  const violations = await recordViolations(page);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');

  const outcome = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.body.append(script);
    const handler = document.createElement('img');
    handler.setAttribute('onerror', 'window.__handlerRan = true');
    handler.src = 'data:,not-an-image';
    document.body.append(handler);
    const styled = document.createElement('div');
    styled.innerHTML = '<p style="color: rgb(1, 2, 3)">styled</p>';
    document.body.append(styled);
    const attempt = (f: () => unknown) => {
      try {
        f();
        return 'ran';
      } catch (e) {
        return (e as Error).name;
      }
    };
    // From a task of the page's own (DevTools' evaluate, which runs this function, may eval).
    const later = <T>(f: () => T) => new Promise<T>((r) => setTimeout(() => r(f()), 0));
    const evalResult = await later(() => attempt(() => (0, eval)('1 + 1')));
    const functionResult = await later(() => attempt(() => new Function('return 1')()));
    const timerString = await later(() => attempt(() => setTimeout('window.__timerRan = true', 0)));
    await new Promise((r) => setTimeout(r, 300));
    const color = getComputedStyle(styled.firstElementChild!).color;
    handler.remove();
    styled.remove();
    return {
      inline: w.__inlineRan === true,
      handler: w.__handlerRan === true,
      timer: w.__timerRan === true,
      evalResult,
      functionResult,
      timerString,
      color,
    };
  });
  expect(outcome.inline, 'an injected inline <script> ran').toBe(false);
  expect(outcome.handler, 'an inline event handler ran').toBe(false);
  expect(outcome.timer, 'setTimeout with a string ran').toBe(false);
  expect(outcome.evalResult).toBe('EvalError');
  expect(outcome.functionResult).toBe('EvalError');
  expect(outcome.color).not.toBe('rgb(1, 2, 3)');
  // the browser reported each block
  await expect.poll(() => violations.join('\n')).toMatch(/script-src-elem blocked inline/);
  expect(violations.join('\n')).toMatch(/script-src-attr blocked inline/);
  expect(violations.join('\n')).toMatch(/style-src-attr blocked inline/);
  expect(violations.join('\n')).toMatch(/script-src blocked eval/);
});

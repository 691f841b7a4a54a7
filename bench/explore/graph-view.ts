/**
 * The drawn import graph (Explore view, depth deep) stays interactive at 2,000 files: no
 * main-thread task over 50 ms while the user pans and zooms. Not a test: nothing asserts,
 * the figures are printed.
 *
 * Two synthetic repositories are written under .bench/ (deterministic): graph-2000 (2,000
 * TypeScript files in 40 folders, two levels) and graph-200 (200 files in 8 folders), the
 * baseline of the same run. Each file imports 2-5 others (relative, some across folders,
 * some type-only), a few pairs import each other (cycles), some files import packages.
 * The built app (dist/, built when missing) is served by `vite preview` and opened in Debian
 * Chromium through playwright-core; the folder goes in through the folder input, then the
 * Explore link is clicked and the graph drawn. Then, while long tasks and long animation
 * frames are recorded: 20 mouse drags (pan), 10 wheel steps in and 10 out (zoom), the Fit
 * button, a file picked through the find box (the view zooms in on it), and 10 more drags
 * there (pan, zoomed in). A gesture's phase lasts until the canvas has settled (the renderer
 * redraws the whole graph once the view stops moving), so that redraw counts too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { printTable, stopGroup } from '../common';
import { mulberry32 } from '../../src/core/seeded-random.testutil';

const PORT = Number(process.env.BENCH_GRAPH_PORT ?? 4391);
/** The time a gesture leaves the renderer to redraw after the view stops moving. */
const SETTLE_MS = 700;

// ---------------------------------------------------------------- the synthetic repositories

const TOP = ['core', 'ui', 'server', 'shared', 'tools'];
const SUB = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const WORDS = [
  'parser',
  'store',
  'model',
  'view',
  'client',
  'codec',
  'queue',
  'cache',
  'router',
  'schema',
  'format',
  'event',
];
const EXTERNALS = ['react', 'zod', 'lodash', 'node:path', '@tanstack/react-virtual'];

interface Spec {
  dir: string;
  name: string;
  files: number;
  /** Top-level folders x folders in each. */
  tops: number;
  subs: number;
}

export const GRAPH_2000: Spec = {
  dir: '.bench/graph-2000',
  name: 'graph-2000',
  files: 2000,
  tops: 5,
  subs: 8,
};
export const GRAPH_200: Spec = { dir: '.bench/graph-200', name: 'graph-200', files: 200, tops: 2, subs: 4 };

interface FileSpec {
  i: number;
  folder: number;
  rel: string;
  /** Imported file indexes, with `type` for type-only. */
  imports: { to: number; type: boolean }[];
  externals: string[];
}

const pad = (i: number) => String(i).padStart(4, '0');

/** Write the repository (again: it is cheap and deterministic); returns its absolute path and a file name to find. */
export function writeGraphRepo(spec: Spec): { root: string; findName: string; findPath: string } {
  const root = path.resolve(spec.dir);
  fs.rmSync(root, { recursive: true, force: true });
  const random = mulberry32(spec.files * 7919 + 17);
  const folders = spec.tops * spec.subs;
  const folderOf = (f: number) => `${TOP[Math.floor(f / spec.subs)]}/${SUB[f % spec.subs]}`;
  const files: FileSpec[] = [];
  for (let i = 0; i < spec.files; i++) {
    const folder = Math.floor((i * folders) / spec.files);
    files.push({
      i,
      folder,
      rel: `${folderOf(folder)}/${WORDS[i % WORDS.length]}-${pad(i)}.ts`,
      imports: [],
      externals: [],
    });
  }
  const byFolder: number[][] = Array.from({ length: folders }, () => []);
  for (const f of files) byFolder[f.folder].push(f.i);
  // forward imports only (a DAG), so the cycles are the ones added below
  for (const f of files) {
    const want = 2 + Math.floor(random() * 4);
    const chosen = new Set<number>();
    for (let tries = 0; chosen.size < want && tries < 20; tries++) {
      const same = random() < 0.65;
      const pool = same
        ? byFolder[f.folder].filter((j) => j > f.i)
        : files.filter((g) => g.i > f.i && g.folder !== f.folder).map((g) => g.i);
      if (!pool.length) continue;
      const near = same ? pool : pool.slice(0, 400);
      chosen.add(near[Math.floor(random() * near.length)]);
    }
    for (const to of chosen) f.imports.push({ to, type: random() < 0.15 });
    if (random() < 0.1) f.externals.push(EXTERNALS[Math.floor(random() * EXTERNALS.length)]);
  }
  // a few runtime cycles: b imports a back, where a imports b (static); one of three files
  const cycles = Math.max(2, Math.round(spec.files / 300));
  for (let c = 0; c < cycles; c++) {
    const a = files[Math.floor((c + 0.5) * (spec.files / cycles)) - 1];
    const edge = a.imports.find((e) => !e.type);
    if (edge) files[edge.to].imports.push({ to: a.i, type: false });
  }
  const x = files[1];
  const y = files[x.imports.find((e) => !e.type)?.to ?? 2];
  const z = files[y.imports.find((e) => !e.type)?.to ?? 3];
  z.imports.push({ to: x.i, type: false });
  // and a type-only cycle (not a runtime one)
  const t = files[Math.floor(spec.files / 2)];
  if (t.imports[0]) files[t.imports[0].to].imports.push({ to: t.i, type: true });

  const spec2 = (from: FileSpec, to: FileSpec) => {
    let r = path.posix.relative(path.posix.dirname(from.rel), to.rel).replace(/\.ts$/, '');
    if (!r.startsWith('.')) r = `./${r}`;
    return r;
  };
  for (const f of files) {
    const lines: string[] = [`// ${f.rel}: generated for the graph-view bench`];
    for (const e of f.imports) {
      const to = files[e.to];
      lines.push(
        e.type
          ? `import type { Shape${pad(to.i)} } from '${spec2(f, to)}';`
          : `import { fn${pad(to.i)} } from '${spec2(f, to)}';`,
      );
    }
    for (const ext of f.externals) lines.push(`import * as ext${lines.length} from '${ext}';`);
    lines.push('', `export interface Shape${pad(f.i)} {`, '  id: number;', '  name: string;', '}', '');
    const calls = f.imports.filter((e) => !e.type).map((e) => `fn${pad(e.to)}(x)`);
    lines.push(
      `export function fn${pad(f.i)}(x: number): number {`,
      `  return x + ${calls.length ? calls.join(' + ') : '1'};`,
      '}',
      '',
    );
    const abs = path.join(root, f.rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, lines.join('\n'));
  }
  const deps = Object.fromEntries(EXTERNALS.filter((e) => !e.startsWith('node:')).map((e) => [e, '1.0.0']));
  fs.writeFileSync(
    path.join(root, 'package.json'),
    `${JSON.stringify({ name: spec.name, version: '1.0.0', private: true, dependencies: deps }, null, 2)}\n`,
  );
  const find = files[Math.floor(spec.files * 0.37)];
  return { root, findName: path.posix.basename(find.rel, '.ts'), findPath: find.rel };
}

// ---------------------------------------------------------------- in the page

/**
 * Run in the page (a string: evaluated code must not carry this file's transpiler helpers).
 * Long tasks and long animation frames from here on; the time the Explore link is clicked and
 * the time the canvas says data-ready=true (and the frame after, when the first drawing is on screen).
 */
const RECORDER = `(() => {
  const w = window;
  w.__bench = { tasks: [], frames: [], clickAt: 0, readyAt: 0, paintedAt: 0 };
  const b = w.__bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.blockingDuration <= 0) continue;
        const scripts = (e.scripts || [])
          .filter((s) => s.duration >= 5)
          .map((s) => (s.invoker || '?') + (s.sourceFunctionName ? ' ' + s.sourceFunctionName : '') + ' @' + (s.sourceURL || '').split('/').pop() + ':' + s.sourceCharPosition + ' ' + Math.round(s.duration) + 'ms' + (s.forcedStyleAndLayoutDuration ? ' (forced layout ' + Math.round(s.forcedStyleAndLayoutDuration) + 'ms)' : ''));
        const render = e.renderStart ? Math.round(e.startTime + e.duration - e.renderStart) : 0;
        const style = e.styleAndLayoutStart ? Math.round(e.startTime + e.duration - e.styleAndLayoutStart) : 0;
        b.frames.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration, render, style, scripts });
      }
    }).observe({ type: 'long-animation-frame' });
  } catch {}
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a') : null;
    if (a && a.textContent.trim() === 'Explore') b.clickAt = performance.now();
  }, true);
  new MutationObserver(() => {
    if (b.readyAt) return;
    const c = document.querySelector('[data-testid=graph-canvas][data-ready=true]');
    if (!c) return;
    b.readyAt = performance.now();
    requestAnimationFrame(() => setTimeout(() => (b.paintedAt = performance.now())));
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})()`;

interface Task {
  start: number;
  duration: number;
}
interface Frame extends Task {
  blocking: number;
  render: number;
  style: number;
  scripts: string[];
}

interface PhaseFigures {
  name: string;
  /** Zoom and pan after the phase (a check that the gestures moved the view). */
  view: string;
  maxTask: number;
  over50: number;
  /** Long animation frames: their summed and largest blocking durations. */
  loafBlocking: number;
  loafMax: number;
  worst: Frame[];
}

export interface SizeFigures {
  name: string;
  nodes: number;
  edges: number;
  /** Elements Cytoscape holds (files, packages, folder boxes, edges). */
  elements: string;
  drawnMs: number;
  /** The longest task from the click until 1.5 s after the graph is drawn (the analyzers, the drawing, the renderer's first caches). */
  drawMaxTask: number;
  phases: PhaseFigures[];
  label: string;
  /** The view after each phase. */
  views: string;
}

/** Files, packages and imports from the canvas's accessible summary. */
function parseLabel(label: string): { nodes: number; edges: number } {
  const n = (re: RegExp) => Number((re.exec(label)?.[1] ?? '0').replace(/,/g, ''));
  return { nodes: n(/([\d,]+) files?/) + n(/([\d,]+) external packages?/), edges: n(/([\d,]+) imports?/) };
}

type Page = import('playwright-core').Page;

/** The canvas's zoom and pan, as text. */
async function viewport(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const cy = document.querySelector('[data-testid=graph-canvas]').__cy;
    return cy ? 'zoom ' + cy.zoom().toFixed(3) + ' pan ' + Math.round(cy.pan().x) + ',' + Math.round(cy.pan().y) : '?';
  })()`)) as string;
}

async function now(page: Page): Promise<number> {
  return (await page.evaluate('performance.now()')) as number;
}

/** Two frames and a pause: the renderer's redraw after the view stops moving lands inside the phase. */
async function settle(page: Page, ms = SETTLE_MS): Promise<void> {
  await page.waitForTimeout(ms);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

async function drag(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  steps = 10,
): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let s = 1; s <= steps; s++) {
    await page.mouse.move(from.x + ((to.x - from.x) * s) / steps, from.y + ((to.y - from.y) * s) / steps);
    await page.waitForTimeout(16); // about one move per frame, as a hand gives them
  }
  await page.mouse.up();
}

/** `count` drags across the middle of the box, in changing directions, each about a third of its width. */
async function pan(
  page: Page,
  box: { x: number; y: number; width: number; height: number },
  count: number,
): Promise<void> {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const dx = box.width / 6;
  const dy = box.height / 6;
  for (let k = 0; k < count; k++) {
    const angle = (k * 2 * Math.PI * 3) / 8; // 3/8 of a turn each time: every direction, and back near the start
    const vx = Math.cos(angle) * dx;
    const vy = Math.sin(angle) * dy;
    await drag(page, { x: cx - vx, y: cy - vy }, { x: cx + vx, y: cy + vy });
    await page.waitForTimeout(60);
  }
}

async function measureSize(page: Page, spec: Spec): Promise<SizeFigures> {
  const { root, findName, findPath } = writeGraphRepo(spec);
  await page.goto(`http://127.0.0.1:${PORT}/`);
  await waitForRepo(page, 'quarry (demo)', 60_000);
  await page.getByTestId('folder-input').setInputFiles(root);
  await waitForRepo(page, spec.name, 180_000);
  await page.evaluate(RECORDER);
  await page.getByRole('link', { name: 'Explore', exact: true }).click();
  const canvas = page.locator('[data-testid=graph-canvas]');
  await canvas.and(page.locator('[data-ready=true]')).waitFor({ state: 'attached', timeout: 300_000 });
  await page.waitForFunction('window.__bench.paintedAt > 0', undefined, { timeout: 30_000 });
  // what finishes after the graph (the rest of the report) is not panning
  await settle(page, 1500);
  const settledAt = await now(page);
  const drawn = (await page.evaluate('({ ...window.__bench, tasks: undefined, frames: undefined })')) as {
    clickAt: number;
    readyAt: number;
    paintedAt: number;
  };
  const label = (await canvas.getAttribute('aria-label')) ?? '';
  const elements = (await page.evaluate(`(() => {
    const cy = document.querySelector('[data-testid=graph-canvas]').__cy;
    return cy ? cy.nodes().length + ' nodes (' + cy.nodes(':parent').length + ' folder boxes), ' + cy.edges().length + ' edges' : '';
  })()`)) as string;

  await canvas.scrollIntoViewIfNeeded();
  await settle(page, 300);
  const box = (await canvas.boundingBox())!;
  const initialView = await viewport(page);
  const center = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const marks: { name: string; start: number; end: number; view: string }[] = [];
  const phase = async (name: string, run: () => Promise<void>) => {
    const start = await now(page);
    await run();
    await settle(page);
    marks.push({ name, start, end: await now(page), view: await viewport(page) });
  };

  await phase('pan', () => pan(page, box, 20));
  await phase('zoom', async () => {
    await page.mouse.move(center.x, center.y);
    for (const dir of [-1, 1]) {
      for (let k = 0; k < 10; k++) {
        await page.mouse.wheel(0, dir * 120);
        await page.waitForTimeout(50);
      }
      await settle(page, 300);
    }
  });
  await phase('fit', () => page.getByRole('button', { name: 'Fit the whole graph' }).click());
  await phase('find', async () => {
    const find = page.getByTestId('graph-find');
    await find.fill(findName);
    await find.press('Enter');
    await page
      .locator(`[data-testid=graph-node-panel][data-selected$="${findPath}"]`)
      .waitFor({ timeout: 30_000 });
  });
  await phase('pan near', () => pan(page, box, 10));

  await page.waitForTimeout(200); // the observers' last entries
  const { tasks, frames } = (await page.evaluate(
    '({ tasks: window.__bench.tasks, frames: window.__bench.frames })',
  )) as { tasks: Task[]; frames: Frame[] };
  const within = <T extends Task>(xs: T[], a: number, b: number) =>
    xs.filter((x) => x.start >= a && x.start < b);
  const phases = marks.map(({ name, start, end, view }): PhaseFigures => {
    const ts = within(tasks, start, end);
    const fs2 = within(frames, start, end);
    return {
      name,
      view,
      maxTask: Math.max(0, ...ts.map((t) => t.duration)),
      over50: ts.filter((t) => t.duration > 50).length,
      loafBlocking: fs2.reduce((a, f) => a + f.blocking, 0),
      loafMax: Math.max(0, ...fs2.map((f) => f.blocking)),
      worst: [...fs2].sort((a, b) => b.blocking - a.blocking).slice(0, 3),
    };
  });
  const drawing = within(tasks, drawn.clickAt, settledAt);
  return {
    name: spec.name,
    ...parseLabel(label),
    elements,
    drawnMs: drawn.readyAt - drawn.clickAt,
    drawMaxTask: Math.max(0, ...drawing.map((t) => t.duration)),
    phases,
    label,
    views: [`drawn: ${initialView}`, ...phases.map((p) => `after ${p.name}: ${p.view}`)].join('; '),
  };
}

async function waitForRepo(page: Page, name: string, timeout: number): Promise<void> {
  await page.getByTestId('repo-name').filter({ hasText: name }).waitFor({ timeout });
  await page.getByTestId('opening').waitFor({ state: 'detached', timeout });
  await page.getByRole('tree', { name: 'Files' }).waitFor({ timeout });
}

// ---------------------------------------------------------------- the run

async function serve<T>(run: () => Promise<T>): Promise<T> {
  const server = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'],
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

const ms = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');

function printFigures(sizes: SizeFigures[]): void {
  const names = sizes[0].phases.map((p) => p.name);
  const header = ['repo', 'nodes', 'edges', 'graph drawn ms', 'max task drawing (to +1.5 s)'];
  for (const n of names) header.push(`${n}: max task`, `${n}: >50ms`, `${n}: LoAF block sum/max`);
  const rows: string[][] = [header];
  for (const s of sizes) {
    const row = [s.name, String(s.nodes), String(s.edges), ms(s.drawnMs), ms(s.drawMaxTask)];
    for (const p of s.phases)
      row.push(ms(p.maxTask), String(p.over50), `${ms(p.loafBlocking)}/${ms(p.loafMax)}`);
    rows.push(row);
  }
  if (sizes.length === 2) {
    const [big, small] = sizes;
    const r = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}x` : a > 0 ? 'inf' : '-');
    const row = [
      'ratio',
      r(big.nodes, small.nodes),
      r(big.edges, small.edges),
      r(big.drawnMs, small.drawnMs),
      r(big.drawMaxTask, small.drawMaxTask),
    ];
    big.phases.forEach((p, k) =>
      row.push(r(p.maxTask, small.phases[k].maxTask), '', r(p.loafBlocking, small.phases[k].loafBlocking)),
    );
    rows.push(row);
  }
  // one table per group of columns: the full width does not fit a terminal
  const cols = (from: number, to: number) => rows.map((r) => [r[0], ...r.slice(from, to)]);
  printTable(cols(1, 5));
  console.log('');
  printTable(cols(5, 5 + 3 * names.length));
  for (const s of sizes)
    console.log(
      `${s.name}: "${s.label}"; Cytoscape holds ${s.elements || '(instance not exposed)'}\n  ${s.views}`,
    );
  const big = sizes[0];
  const slow = big.phases.filter((p) => p.worst.length);
  if (slow.length) {
    console.log(
      `\n${big.name}: the longest animation frames of each phase (blocking ms; render = rAF + paint part; scripts >= 5 ms)`,
    );
    for (const p of slow)
      for (const f of p.worst)
        console.log(
          `  ${p.name}: ${ms(f.duration)} ms frame, blocking ${ms(f.blocking)}, render ${f.render}, style/layout ${f.style}; ${f.scripts.join(', ') || 'no script >= 5 ms'}`,
        );
  }
  console.log(
    'max task: longest main-thread task (ms); >50ms: tasks over 50 ms; LoAF: long-animation-frame blocking durations (sum/max ms). Target: no task over 50 ms while panning and zooming.',
  );
}

export async function runGraphViewBench(): Promise<void> {
  console.log(
    '\n== the drawn import graph (Explore, deep): long tasks while panning and zooming, 2,000 files against 200',
  );
  if (!fs.existsSync(path.resolve('dist/index.html'))) {
    console.log('   (building the app)');
    if (spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' }).status !== 0)
      return void console.log('the build failed');
  }
  if (spawnSync('sh', ['-c', 'command -v chromium'], { stdio: 'ignore' }).status !== 0)
    return void console.log('no chromium on this machine (npm test installs it)');
  const sizes = await serve(async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const out: SizeFigures[] = [];
      for (const spec of [GRAPH_2000, GRAPH_200]) {
        // a fresh context each: nothing cached from the other size; the service worker's precache is not the graph
        const context = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          serviceWorkers: 'block',
        });
        await context.addInitScript('window.__QUARRY_TEST__ = true');
        try {
          const page = await context.newPage();
          out.push(await measureSize(page, spec));
        } finally {
          await context.close();
        }
      }
      return out;
    } finally {
      await browser.close();
    }
  });
  printFigures(sizes);
}

import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { callTool } from '../tools';
import type { HistoryPortResult, ToolContext } from '../tools/types';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { exploreMarkdown } from './markdown';
import { runExplore } from './run';
import type { ExploreResult } from './types';

const REPO: MemoryTree = {
  'README.md': '# Shop\n\nA small shop service.\n',
  'package.json': JSON.stringify({
    name: 'shop',
    version: '1.2.0',
    main: './src/index.ts',
    scripts: { test: 'vitest' },
    dependencies: { zod: '^3' },
    devDependencies: { vitest: '^4' },
  }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } }),
  'src/index.ts':
    "/** Starts the shop. */\nimport { cart } from '@/cart';\nimport { log } from './log';\nexport const start = () => log(cart());\n",
  'src/cart.ts':
    "import { log } from './log';\nexport class CartError extends Error {}\nexport function cart() {\n  if (!log) throw new CartError('no log');\n  return 1;\n}\n",
  'src/log.ts':
    "import { start } from './index';\nexport const log = (x: unknown) => { void start; return x; };\n",
  'src/cart.test.ts':
    "import { it, expect } from 'vitest';\nimport { cart } from './cart';\nit('counts', () => expect(cart()).toBe(1));\n",
};

function ctxOf(files: MemoryTree = REPO, extra: Partial<ToolContext> = {}): ToolContext {
  return { workspace: new Workspace([new MemorySource(files, { name: 'shop' })]), ...extra };
}

const history: ToolContext['history'] = async (): Promise<HistoryPortResult> => ({
  available: true,
  branch: 'main',
  head: 'a'.repeat(40),
  shallow: false,
  commits: [
    {
      oid: 'a'.repeat(40),
      author: 'Ada',
      date: Date.UTC(2026, 10, 30),
      message: 'Add the cart\n\nbody',
      changedFiles: [{ path: 'src/cart.ts', type: 'modify' }],
    },
    {
      oid: 'b'.repeat(40),
      author: 'Bob',
      date: Date.UTC(2026, 10, 1),
      message: 'Start',
      changedFiles: [
        { path: 'src/cart.ts', type: 'add' },
        { path: 'README.md', type: 'add' },
      ],
    },
  ],
  uncommitted: [{ path: 'src/log.ts', status: 'modified' }],
});

describe('explore runs its analyzers by depth', () => {
  it('shallow: the tree, key files and manifests only', async () => {
    const r = await runExplore(ctxOf(), { path: '.', depth: 'shallow' });
    expect(r.analyzers.map((a) => a.name)).toEqual(['tree', 'manifests']);
    expect(r.tree.split('\n')[0]).toBe('shop/');
    expect(r.tree).toContain('└── ');
    expect(r.key_files[0]).toMatchObject({ path: 'README.md' });
    expect(r.dependencies_detail.map((m) => m.path)).toEqual(['package.json', 'tsconfig.json']);
    expect(r.dependencies).toContain('zod ^3');
    expect(r.patterns).toEqual([]);
    expect(r.import_graph).toBeUndefined();
    expect(r.files_scanned).toBe(7);
    expect(r.errors).toEqual([]);
  });

  it('standard: patterns counted from the code, and the focus searched', async () => {
    const r = await runExplore(ctxOf(), { path: '.', depth: 'standard', focus: 'cart error' });
    expect(r.analyzers.map((a) => a.name)).toEqual(['tree', 'manifests', 'patterns', 'focus']);
    expect(r.patterns.length).toBeGreaterThan(0);
    for (const p of r.patterns) for (const e of p.examples) expect(REPO[e.path]).toBeDefined();
    expect(r.focus_findings_detail[0].path).toBe('src/cart.ts');
    expect(r.focus_findings).toContain('src/cart.ts:');
    expect(r.summary).toContain('shop 1.2.0');
    expect(r.summary).toContain('For "cart error" the best match');
  });

  it('deep: the import graph with its cycle, and the git history through the host port', async () => {
    const r = await runExplore(ctxOf(REPO, { history }), { path: '.', depth: 'deep' });
    expect(r.analyzers.map((a) => a.name)).toEqual(['tree', 'manifests', 'patterns', 'imports', 'git']);
    // index -> cart -> log -> index, and index -> log -> index: one component, its shortest cycle as evidence
    expect(r.import_graph!.cycles).toEqual([
      {
        files: ['src/cart.ts', 'src/index.ts', 'src/log.ts'],
        path: ['src/cart.ts', 'src/log.ts', 'src/index.ts', 'src/cart.ts'],
      },
    ]);
    expect(r.import_graph!.edges).toContainEqual({
      from: 'src/index.ts',
      to: 'src/cart.ts',
      kind: 'static',
      line: 2,
    });
    expect(r.git_history_detail).toMatchObject({
      available: true,
      branch: 'main',
      uncommitted: [{ path: 'src/log.ts', status: 'modified' }],
    });
    expect(r.git_history_detail!.hotFiles![0]).toEqual({ path: 'src/cart.ts', commits: 2 });
    expect(r.git_history).toContain('Add the cart');
    expect(r.summary).toContain('1 runtime cycle (src/cart.ts → src/log.ts → src/index.ts → src/cart.ts)');
  });

  it('a subfolder: its own tree, the manifests above it, git commits that touched it', async () => {
    const r = await runExplore(ctxOf(REPO, { history }), { path: 'src', depth: 'deep' });
    expect(r.tree.split('\n')[0]).toBe('src/');
    expect(r.files_scanned).toBe(4);
    expect(r.dependencies_detail.map((m) => m.path)).toEqual(['package.json', 'tsconfig.json']);
    expect(r.git_history_detail!.hotFiles).toEqual([{ path: 'src/cart.ts', commits: 2 }]);
  });

  it('a file: explored on its own', async () => {
    const r = await runExplore(ctxOf(), { path: 'src/cart.ts', depth: 'standard' });
    expect(r.files_scanned).toBe(1);
    expect(r.tree).toContain('cart.ts');
  });

  it('without a history port, git is reported unavailable, not failed', async () => {
    const r = await runExplore(ctxOf(), { path: '.', depth: 'deep' });
    expect(r.git_history_detail).toEqual({ available: false, reason: 'This host cannot read git history.' });
    expect(r.errors).toEqual([]);
  });
});

describe('one analyzer failing does not lose the report', () => {
  it('an analyzer that throws is an error entry; the others still report', async () => {
    const r = await runExplore(
      ctxOf(),
      { path: '.', depth: 'deep' },
      { replace: { patterns: async () => Promise.reject(new Error('pattern agent exploded')) } },
    );
    expect(r.errors).toEqual([{ analyzer: 'patterns', message: 'pattern agent exploded' }]);
    expect(r.analyzers.find((a) => a.name === 'patterns')).toMatchObject({
      status: 'error',
      error: 'pattern agent exploded',
    });
    expect(r.import_graph!.files).toBe(4);
    expect(r.tree).not.toBe('');
    expect(r.summary).toContain('Not analysed: patterns (pattern agent exploded)');
  });

  it('an analyzer that runs out of its time budget is a timeout entry', async () => {
    const r = await runExplore(
      ctxOf(),
      { path: '.', depth: 'standard' },
      // (a budget the other analyzers meet even on a loaded machine: 50 ms timed the tree out too)
      { budgetMs: 1000, replace: { patterns: () => new Promise(() => undefined) } },
    );
    expect(r.analyzers.find((a) => a.name === 'patterns')?.status).toBe('timeout');
    expect(r.errors.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/patterns analyzer ran out of its/),
    );
    expect(r.key_files.length).toBeGreaterThan(0);
  });

  it('streams the report as each analyzer finishes', async () => {
    const updates: ExploreResult[] = [];
    const r = await runExplore(ctxOf(), { path: '.', depth: 'deep' }, { onUpdate: (u) => updates.push(u) });
    expect(updates.map((u) => u.analyzers.length)).toEqual([1, 2, 3, 4, 5]);
    expect(
      updates
        .at(-1)!
        .analyzers.map((a) => a.name)
        .sort(),
    ).toEqual(r.analyzers.map((a) => a.name).sort());
  });

  it('cancelling the run stops it with Cancelled', async () => {
    const controller = new AbortController();
    const p = runExplore(
      ctxOf(REPO, { signal: controller.signal }),
      { path: '.', depth: 'deep' },
      { replace: { imports: () => new Promise(() => undefined) } },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(p).rejects.toMatchObject({ code: 'Cancelled' });
  });
});

describe('the explore tool', () => {
  it('checks its arguments', async () => {
    const ctx = ctxOf();
    await expect(callTool('explore', {}, ctx)).rejects.toMatchObject({
      code: 'InvalidArgument',
      data: { field: 'path' },
    });
    await expect(callTool('explore', { path: '  ' }, ctx)).rejects.toThrow('path must not be empty');
    await expect(callTool('explore', { path: '.', depth: 'deeper' }, ctx)).rejects.toMatchObject({
      code: 'InvalidArgument',
      data: { field: 'depth' },
    });
    await expect(callTool('explore', { path: '.', scope: 'x' }, ctx)).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(callTool('explore', { path: 'nowhere' }, ctx)).rejects.toMatchObject({ code: 'NotFound' });
    await expect(callTool('explore', { path: '../outside' }, ctx)).rejects.toBeInstanceOf(QuarryError);
  });

  it('answers with the seed field names and types, standard by default', async () => {
    const r = (await callTool('explore', { path: 'src' }, ctxOf())) as ExploreResult;
    expect(r.depth).toBe('standard');
    expect(typeof r.tree).toBe('string');
    expect(typeof r.dependencies).toBe('string');
    expect(typeof r.focus_findings).toBe('string');
    expect(typeof r.summary).toBe('string');
    expect(Array.isArray(r.key_files) && Array.isArray(r.patterns)).toBe(true);
  });
});

describe('the Markdown export', () => {
  it('has every section, and repository text cannot become markup', async () => {
    const files = {
      ...REPO,
      'src/evil.ts': '// ```\n/** <script>alert(1)</script> */\nexport const x = 1;\n',
    };
    const r = await runExplore(ctxOf(files, { history }), {
      path: '.',
      depth: 'deep',
      focus: 'script alert',
    });
    const md = exploreMarkdown(r);
    for (const h of [
      '# Explore: .',
      '## Summary',
      '## Tree',
      '## Dependencies',
      '## Import graph',
      '## Git history',
      '## Analyzers',
    ])
      expect(md).toContain(h);
    expect(md).not.toMatch(/^<script>/m);
    // every fence that opens is closed
    const fences = md.split('\n').filter((l) => /^`{3,}/.test(l));
    expect(fences.length % 2).toBe(0);
  });
});

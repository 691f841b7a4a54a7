/**
 * Several roots in one engine (seed 000's codebasePaths): each root is its own session with
 * its own index; search, quick open, the tree, file reads and the tools span all of them with
 * paths prefixed by the root's name; removing a root leaves the other's index alone. Also:
 * the app's Ranked and Related views go through the same dispatch and argument checks as
 * the contract tools.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import type { GrepFileResult } from '../core/grep/types';
import type { IndexStore } from '../core/rank/persist';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';
import { rejectionOf } from '../../test/rejection';

const APP = {
  'src/cart.ts': 'export function addToCart(item: string) {\n  return `cart: ${item}`;\n}\n',
  'src/checkout.ts':
    "import { addToCart } from './cart';\nexport function checkoutCart(items: string[]) {\n  return items.map(addToCart);\n}\n",
};
const LIB = {
  'lib/money.ts': 'export function formatMoney(cents: number) {\n  return (cents / 100).toFixed(2);\n}\n',
  'lib/cart-total.ts':
    'export function cartTotal(prices: number[]) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
};

function countingStore(): IndexStore & { saves: string[] } {
  const data = new Map<string, Uint8Array>();
  const saves: string[] = [];
  return {
    saves,
    load: async (key) => data.get(key) ?? null,
    save: async (key, bytes) => {
      saves.push(key);
      data.set(key, bytes);
    },
    remove: async (key) => void data.delete(key),
  };
}

async function searchPaths(client: EngineClient, pattern: string): Promise<string[]> {
  const found: GrepFileResult[] = [];
  const end = await client
    .search({ pattern, mode: 'literal', caseMode: 'insensitive' })
    .onBatch((b) => found.push(...b)).done;
  expect(end.stats.total).toBe(found.reduce((n, f) => n + f.matches.length, 0));
  return found.map((f) => f.path);
}

describe('a workspace of several roots', { timeout: 60_000 }, () => {
  it('spans search, tree, quick open, reads and tools; a root comes and goes without touching the other', async () => {
    const store = countingStore();
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader, indexStore: store })),
    );
    try {
      const a = await client.openRepo({ kind: 'memory', name: 'app', files: APP }).done;
      expect(a.stats).toMatchObject({ key: 'memory:app', root: 'app' });
      const b = await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }, { add: true }).done;
      expect(b.stats).toMatchObject({ key: 'memory:lib', root: 'lib' });
      expect((await client.roots()).map((r) => [r.key, r.name])).toEqual([
        ['memory:app', 'app'],
        ['memory:lib', 'lib'],
      ]);

      // search: both roots, in root order, prefixed
      expect(await searchPaths(client, 'cart')).toEqual([
        'app/src/cart.ts',
        'app/src/checkout.ts',
        'lib/lib/cart-total.ts',
      ]);
      // the tree's top level is one directory per root; below, paths are prefixed
      expect((await client.listDir('')).map((e) => [e.path, e.kind, e.root])).toEqual([
        ['app', 'directory', 'memory:app'],
        ['lib', 'directory', 'memory:lib'],
      ]);
      expect((await client.listDir('lib/lib')).map((e) => e.path)).toEqual([
        'lib/lib/cart-total.ts',
        'lib/lib/money.ts',
      ]);
      const quick = await client.quickOpen('money');
      expect(quick[0].path).toBe('lib/lib/money.ts');
      expect(quick[0].positions.map((p) => quick[0].path[p]).join('')).toBe('money');
      expect((await client.readFile('lib/lib/money.ts')).text).toContain('formatMoney');
      expect((await rejectionOf(client.readFile('other/x.ts'))).data).toMatchObject({ reason: 'noSuchRoot' });

      // each root has its own index, stored under its own key
      await client.indexRepo({}).done;
      expect(store.saves.sort()).toEqual(['index:memory:app', 'index:memory:lib']);
      const found = (
        await client.callTool<{ results: Array<{ path: string }> }>('codebase_search', {
          query: 'items prices',
        })
      ).results.map((r) => r.path);
      expect(found.sort()).toEqual(['app/src/checkout.ts', 'lib/lib/cart-total.ts']);
      const onlyLib = (
        await client.callTool<{ results: Array<{ path: string }> }>('codebase_search', {
          query: 'items prices',
          root: 'lib',
        })
      ).results.map((r) => r.path);
      expect(onlyLib).toEqual(['lib/lib/cart-total.ts']);
      const ranked = await client.callTool('ranked_view', { query: 'format money' });
      expect(ranked.hits[0]).toMatchObject({ path: 'lib/lib/money.ts', symbolName: 'formatMoney' });
      const related = await client.callTool('related_view', {
        path: 'app/src/checkout.ts',
        line: 2,
        limit: 5,
      });
      expect(related.seed).toMatchObject({ path: 'app/src/checkout.ts', symbolName: 'checkoutCart' });
      expect(related.results.map((r) => r.path)).toContain('app/src/cart.ts');

      // removing a root: the other keeps its index (no rebuild) and its paths lose the prefix
      expect(await client.closeRoot('memory:app')).toBe(true);
      expect(await client.closeRoot('memory:app')).toBe(false);
      expect(await searchPaths(client, 'cart')).toEqual(['lib/cart-total.ts']);
      expect((await client.indexStatus()).state).toBe('ready');
      const again = await client.indexRepo({ root: 'memory:lib' }).done;
      expect(again.stats.refreshMode).toBe('cache_hit');
      expect(store.saves.filter((k) => k === 'index:memory:lib')).toHaveLength(1);
      expect((await rejectionOf(client.indexRepo({ root: 'memory:app' }).done)).data).toMatchObject({
        reason: 'noSuchRoot',
      });
    } finally {
      client.dispose();
    }
  });

  it('a root closed during a build of every root: the job goes on with the others and ends normally', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      const many: Record<string, string> = {};
      for (let i = 0; i < 150; i++) many[`m/f${i}.ts`] = `export function f${i}() {\n  return ${i};\n}\n`;
      await client.openRepo({ kind: 'memory', name: 'big', files: many }).done;
      await client.openRepo({ kind: 'memory', name: 'app', files: APP }, { add: true }).done;
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }, { add: true }).done;
      let closed = false;
      const job = client.indexRepo({}).onProgress(() => {
        if (closed) return;
        closed = true;
        void client.closeRoot('memory:app'); // while the first root builds
      });
      const end = await job.done;
      expect(closed).toBe(true);
      expect(end.stats.ending).toBe('complete');
      expect((await client.roots()).map((r) => [r.key, r.indexStatus.state])).toEqual([
        ['memory:big', 'ready'],
        ['memory:lib', 'ready'],
      ]);
      // filters read paths within each root, in Ranked as in Text; a search's count limit spans the roots
      expect(
        (await client.callTool('ranked_view', { query: 'format money', include: ['lib/**'] })).hits.map(
          (h) => h.path,
        ),
      ).toEqual(['lib/lib/money.ts']);
      const counted = await client.search({
        pattern: 'return',
        mode: 'literal',
        maxResults: 2,
        countLimit: 3,
      }).done;
      expect(counted.stats).toMatchObject({ delivered: 2, total: 3, totalIsExact: false });
      const lastRoot = await client.search({
        pattern: 'prices',
        mode: 'literal',
        maxResults: 1,
        countLimit: 0,
      }).done; // nothing before the last root
      expect(lastRoot.stats).toMatchObject({ delivered: 1, total: 1 });
    } finally {
      client.dispose();
    }
  });

  it('opening without add replaces every root', async () => {
    const client = new EngineClient(() => inThreadTransport(createEngineApi()));
    try {
      await client.openRepo({ kind: 'memory', name: 'app', files: APP }).done;
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }, { add: true }).done;
      await client.openRepo({ kind: 'memory', name: 'app', files: APP }).done;
      expect((await client.roots()).map((r) => r.key)).toEqual(['memory:app']);
      expect(await searchPaths(client, 'cart')).toEqual(['src/cart.ts', 'src/checkout.ts']);
    } finally {
      client.dispose();
    }
  });
});

describe('the app views go through the tool dispatch', { timeout: 60_000 }, () => {
  it('Related answers bad input exactly as find_related does', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'app', files: APP }).done;
      await client.indexRepo({}).done;
      for (const [path, line] of [
        ['src/cart.ts', 0],
        ['src/cart.ts', 1.5],
        ['src/cart.ts', 99],
      ] as const) {
        const viaPanel = await rejectionOf(client.callTool('related_view', { path, line, limit: 5 }));
        const viaTool = await rejectionOf(client.callTool('find_related', { path, line, limit: 5 }));
        expect([viaPanel.code, viaPanel.message]).toEqual([viaTool.code, viaTool.message]);
      }
      expect(
        (await rejectionOf(client.callTool('related_view', { path: 'src/cart.ts', line: 0, limit: 5 }))).code,
      ).toBe('EngineError');
      expect(
        (await rejectionOf(client.callTool('ranked_view', { query: 'cart', limit: 0 }))).data,
      ).toMatchObject({
        field: 'limit',
      });
      expect(
        (await rejectionOf(client.callTool('ranked_view', { query: 'cart', include: 'src' }))).data,
      ).toMatchObject({ field: 'include' });
      expect((await rejectionOf(client.callTool('no_such_tool', {}))).message).toMatch(
        /ranked_view, semantic_search, related_view, flag_inventory/,
      );
      // `root` and a path in no root, as find_related takes them
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }, { add: true }).done;
      await client.indexRepo({}).done;
      const viaRoot = await client.callTool<{ seed: { path: string } }>('related_view', {
        path: 'src/checkout.ts',
        line: 2,
        root: 'app',
      });
      expect(viaRoot.seed.path).toBe('app/src/checkout.ts');
      const nowhere = await rejectionOf(
        client.callTool('related_view', { path: 'elsewhere/x.ts', line: 1, limit: 5 }),
      );
      const nowhereTool = await rejectionOf(
        client.callTool('find_related', { path: 'elsewhere/x.ts', line: 1 }),
      );
      expect([nowhere.code, nowhere.message]).toEqual([nowhereTool.code, nowhereTool.message]);
    } finally {
      client.dispose();
    }
  });

  it('codebase_search answers when storing its index fails (storage full), and keeps the index for the session', async () => {
    let saves = 0;
    const full: IndexStore = {
      load: async () => null,
      save: async () => {
        saves++;
        throw new Error('QuotaExceededError');
      },
    };
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader, indexStore: full })),
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }).done;
      type Out = { results: Array<{ path: string }>; index: { refreshMode: string } };
      const out = await client.callTool<Out>('codebase_search', { query: 'cents' });
      expect(out.results[0].path).toBe('lib/money.ts');
      expect(saves).toBeGreaterThan(0);
      expect((await client.callTool<Out>('codebase_search', { query: 'cents' })).index.refreshMode).toBe(
        'cache_hit',
      );
    } finally {
      client.dispose();
    }
  });
  it('codebase_search through the engine uses the session index (it once answered "No index is available")', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }).done;
      // no build was asked for: the tool builds the session's seed-004 index and keeps it
      type Out = { results: Array<{ path: string; symbolName: string }>; index: { refreshMode: string } };
      const out = await client.callTool<Out>('codebase_search', { query: 'cents' });
      expect(out.results[0]).toMatchObject({ path: 'lib/money.ts', symbolName: 'formatMoney' });
      expect(out.index.refreshMode).toBe('full');
      expect((await client.callTool<Out>('codebase_search', { query: 'cents' })).index.refreshMode).toBe(
        'cache_hit',
      );
    } finally {
      client.dispose();
    }
  });
  it("serves core's ranked_search and related_code from the sessions' indexes, ranked as the Ranked and Related views rank", async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'app', files: APP }).done;
      await client.openRepo({ kind: 'memory', name: 'lib', files: LIB }, { add: true }).done;
      // before the indexes are built: the view's own answer
      expect(await rejectionOf(client.callTool('ranked_search', { query: 'cart' }))).toMatchObject({
        code: 'NotFound',
        data: { reason: 'indexNotReady' },
      });
      await client.indexRepo({}).done;
      type Ranked = { results: Array<{ path: string; symbol: string; startLine: number; why: string }> };
      const ranked = await client.callTool<Ranked>('ranked_search', { query: 'cart total', limit: 5 });
      const view = await client.callTool('ranked_view', { query: 'cart total', limit: 5 });
      expect(ranked.results.map((r) => `${r.path}:${r.startLine}`)).toEqual(
        view.hits.map((h) => `${h.path}:${h.startLine}`),
      );
      expect(ranked.results[0]).toMatchObject({
        path: 'lib/lib/cart-total.ts',
        symbol: 'cartTotal',
        why: expect.stringContaining('exact symbol match'),
      });
      const onlyApp = await client.callTool<Ranked>('ranked_search', { query: 'cart', path: 'app/**' });
      expect(onlyApp.results.length).toBeGreaterThan(0);
      expect(onlyApp.results.every((r) => r.path.startsWith('app/'))).toBe(true);
      type Related = {
        seed: { path: string; symbol: string };
        results: Array<{ path: string; symbol: string }>;
      };
      const related = await client.callTool<Related>('related_code', {
        path: 'app/src/checkout.ts',
        line: 3,
      });
      const panel = await client.callTool('related_view', {
        path: 'app/src/checkout.ts',
        line: 3,
        limit: 10,
      });
      expect(related.seed).toMatchObject({ path: 'app/src/checkout.ts', symbol: 'checkoutCart' });
      expect(related.results.map((r) => r.path)).toEqual(panel.results.map((r) => r.path));
      expect(
        (await rejectionOf(client.callTool('related_code', { path: 'app/src/checkout.ts', line: 1 })))
          .message,
      ).toBe('No related chunks found for that location');
    } finally {
      client.dispose();
    }
  });
});

/**
 * The app's view tools, every host: `quarry call` (the real bin over two folders) and the
 * app's engine (callTool over the same two roots, opened as memory repositories) answer
 * ranked_view, related_view, flag_inventory and semantic_search the same way, and refuse the
 * same bad input with the same error. Before the views moved into core (core/tools/views) only
 * the app could call them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { nodeEmbeddingModel } from '../../src/adapters/node/model-files';
import { runCli } from '../../src/cli/main';
import { runToolCall } from '../../src/cli/mcp';
import { describeTools } from '../../src/core/tools';
import type { ToolContext } from '../../src/core/tools/types';
import { createEngineApi } from '../../src/worker/engine';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');

/** Two roots with different vocabularies and a few feature flags. */
const ROOTS: Record<string, Record<string, string>> = {
  shop: {
    'src/cart.ts':
      'export function addToCart(cart: string[], item: string) {\n  return [...cart, item];\n}\nexport function cartTotal(prices: number[]) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
    'src/user.ts':
      'export interface User { id: string; name: string }\nexport function findUserById(users: User[], id: string) {\n  return users.find((u) => u.id === id);\n}\n',
    'src/checkout.ts':
      "import { cartTotal } from './cart';\nexport function checkout(prices: number[]) {\n  const total = cartTotal(prices);\n  if (process.env.NEXT_PUBLIC_FEATURE_EXPRESS_CHECKOUT === 'true') return { total, express: true };\n  return { total, paid: false };\n}\n",
  },
  ledger: {
    'lib/users.py':
      'def load_user(user_id):\n    """Load one user record by id."""\n    return USERS.get(user_id)\n\n\ndef list_users():\n    return list(USERS.values())\n',
    'lib/money.ts':
      'export function formatMoney(cents: number) {\n  return (cents / 100).toFixed(2);\n}\nexport function parseMoney(text: string) {\n  return Math.round(Number(text) * 100);\n}\n',
    'lib/totals.ts':
      'export function ledgerTotal(rows: { cents: number }[]) {\n  if (process.env.FEATURE_LEDGER_ROUNDING) return Math.round(rows.reduce((s, r) => s + r.cents, 0));\n  return rows.reduce((sum, r) => sum + r.cents, 0);\n}\n',
  },
};

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['ranked_view', { query: 'user by id', limit: 10 }],
  ['ranked_view', { query: 'total', limit: 5, include: ['lib/**'] }],
  ['ranked_view', { query: 'money', extensions: ['ts'], exclude: ['src/**'] }],
  ['related_view', { path: 'shop/src/checkout.ts', line: 3 }],
  ['related_view', { path: 'src/cart.ts', line: 2, root: 'shop', limit: 3 }],
  ['flag_inventory', {}],
];

/** Bad input: the same error, word for word, from both hosts. */
const REFUSED: Array<[string, Record<string, unknown>]> = [
  ['ranked_view', { query: 'total', limt: 5 }],
  ['related_view', { path: 'shop/src/cart.ts', line: 2, lines: 1 }],
  ['flag_inventory', { all: true }],
  ['ranked_view', { query: 'total', include: 'lib/**' }],
  ['related_view', { path: 'nowhere/cart.ts', line: 2 }],
  ['related_view', { path: 'src/cart.ts', line: 2, root: 'warehouse' }],
  ['no_such_tool', {}],
];

let base = '';
let api: ReturnType<typeof createEngineApi>;

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'quarry-views-'));
  for (const [name, files] of Object.entries(ROOTS)) {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(base, name, rel)), { recursive: true });
      writeFileSync(path.join(base, name, rel), text);
    }
  }
  api = createEngineApi({ grammarLoader: nodeGrammarLoader, semanticModel: () => nodeEmbeddingModel() });
  for (const [i, name] of Object.keys(ROOTS).entries()) {
    const opened = await api.openRepo(
      `open-${i}`,
      () => {},
      { kind: 'memory', name, files: ROOTS[name] },
      undefined,
      {
        add: i > 0,
      },
    );
    expect(opened.ok).toBe(true);
  }
  expect((await api.indexRepo('index', () => {}, {})).ok).toBe(true);
}, 60_000);

const rootArgs = () => Object.keys(ROOTS).flatMap((name) => ['--root', path.join(base, name)]);

/** The real `quarry` binary over both folders: its exit code and its JSON answer. */
function bin(tool: string, args: Record<string, unknown>): { code: number | null; out: any } {
  const r = spawnSync(
    process.execPath,
    [BIN, 'call', tool, JSON.stringify(args), ...rootArgs(), '--no-cache'],
    {
      encoding: 'utf8',
      env: { ...process.env, QUARRY_ROOT: '' },
    },
  );
  return { code: r.status, out: r.stdout ? JSON.parse(r.stdout) : r.stderr };
}

/**
 * `quarry call` as the binary runs it (runCli, argv and all) in this process: the binary costs
 * 2-3 s a spawn, so the tables run here and the binary answers the cases below it.
 */
async function cli(tool: string, args: Record<string, unknown>): Promise<{ code: number; out: any }> {
  let out = '';
  // one cache for the file: the first call builds each root's index, the others read it
  const env = { QUARRY_ROOT: '', QUARRY_CACHE_DIR: path.join(base, '.cache') };
  const io = { stdout: (s: string) => void (out += s), stderr: () => {}, env };
  const code = await runCli(['call', tool, JSON.stringify(args), ...rootArgs()], io);
  return { code, out: JSON.parse(out) };
}

/** An answer without its timing (the one part that depends on the run). */
function comparable(answer: any): unknown {
  if (!answer || typeof answer !== 'object' || !('elapsedMs' in answer)) return answer;
  const { elapsedMs: _elapsed, ...rest } = answer;
  return rest;
}

describe('the view tools: the app and quarry call over the same two roots', { timeout: 120_000 }, () => {
  it.each(CALLS)('%s %j: the same answer', async (tool, args) => {
    const app = await api.callTool(tool, args);
    expect(app.ok, JSON.stringify(app)).toBe(true);
    const ours = await cli(tool, args);
    expect(ours.code, JSON.stringify(ours.out)).toBe(0);
    expect(comparable(ours.out)).toEqual(comparable(app.ok && app.value));
    // both roots take part where the call reaches them (the comparison is not of empty answers)
    expect(JSON.stringify(ours.out)).toMatch(/"(shop|ledger)\//);
  });

  it.each(REFUSED)('%s %j: the same error', async (tool, args) => {
    const app = await api.callTool(tool, args);
    expect(app.ok).toBe(false);
    const ours = await cli(tool, args);
    expect(ours.code).not.toBe(0);
    const { code, message, data } = (app as { error: { code: string; message: string; data?: object } })
      .error;
    expect(ours.out.error).toEqual({ code, message, ...(data && Object.keys(data).length ? { data } : {}) });
  });

  it('the binary: refuses an unknown field naming the fields there are, with exit 2', () => {
    // (the table above shows the app gives the same error)
    expect(bin('ranked_view', { query: 'total', limt: 5 })).toEqual({
      code: 2,
      out: {
        error: {
          code: 'InvalidArgument',
          message: 'Unknown field: limt (allowed: query, limit, include, exclude, extensions)',
          data: { field: 'limt' },
        },
      },
    });
  });

  it('semantic_search (hybrid, the default): the same hits, scores and why, with the model on either side', async () => {
    const args = { query: 'add an item to the shopping cart', limit: 3 };
    const app = await api.callTool('semantic_search', args);
    expect(app.ok, JSON.stringify(app)).toBe(true);
    const ours = await cli('semantic_search', args);
    expect(ours.code, JSON.stringify(ours.out)).toBe(0);
    expect(comparable(ours.out)).toEqual(comparable(app.ok && app.value));
    expect(ours.out.hits.map((h: any) => `${h.path}#${h.symbolName}`)).toContain(
      'shop/src/cart.ts#addToCart',
    );
  });

  it("quarry mcp lists and serves the contracts only (the views are the app's and quarry call's)", async () => {
    const names = describeTools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ranked_search', 'related_code', 'feature_status']));
    for (const view of ['ranked_view', 'semantic_search', 'related_view', 'flag_inventory']) {
      expect(names).not.toContain(view);
      // refused by name before anything of the context is read
      await expect(
        runToolCall({} as ToolContext, view, {}, new AbortController().signal),
      ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(`^Unknown tool "${view}"`) });
    }
  });
});

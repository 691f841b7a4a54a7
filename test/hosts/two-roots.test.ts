/**
 * One workspace, every host: the app's engine (sessions in a RepoWorkspace) and the `quarry`
 * CLI (LocalRoots in a RepoWorkspace) answer the index tools for the same two roots with the
 * same results, scores included. Before the workspace moved into core the CLI ranked several
 * roots as one index (one set of statistics) and the app each root on its own, so the scores
 * and the order differed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { EngineClient, inThreadTransport } from '../../src/worker/client';
import { createEngineApi } from '../../src/worker/engine';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');

/** Two roots with different vocabularies: statistics over both differ from each root's own. */
const ROOTS: Record<string, Record<string, string>> = {
  shop: {
    'src/cart.ts':
      'export function addToCart(cart: string[], item: string) {\n  return [...cart, item];\n}\nexport function cartTotal(prices: number[]) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
    'src/user.ts':
      'export interface User { id: string; name: string }\nexport function findUserById(users: User[], id: string) {\n  return users.find((u) => u.id === id);\n}\n',
    'src/checkout.ts':
      "import { cartTotal } from './cart';\nexport function checkout(prices: number[]) {\n  const total = cartTotal(prices);\n  return { total, paid: false };\n}\n",
  },
  ledger: {
    'lib/users.py':
      'def load_user(user_id):\n    """Load one user record by id."""\n    return USERS.get(user_id)\n\n\ndef list_users():\n    return list(USERS.values())\n',
    'lib/money.ts':
      'export function formatMoney(cents: number) {\n  return (cents / 100).toFixed(2);\n}\nexport function parseMoney(text: string) {\n  return Math.round(Number(text) * 100);\n}\n',
    'lib/totals.ts':
      'export function ledgerTotal(rows: { cents: number }[]) {\n  return rows.reduce((sum, r) => sum + r.cents, 0);\n}\n',
  },
};

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['ranked_search', { query: 'user by id', limit: 10 }],
  ['ranked_search', { query: 'total', limit: 10 }],
  ['ranked_search', { query: 'money', limit: 5, path: 'ledger/**' }],
  ['related_code', { path: 'shop/src/checkout.ts', line: 3 }],
  ['codebase_search', { query: 'total prices cart', limit: 10 }],
  ['find_related', { path: 'shop/src/cart.ts', line: 2 }],
];

let base = '';
let client: EngineClient;

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'quarry-hosts-'));
  for (const [name, files] of Object.entries(ROOTS)) {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(base, name, rel)), { recursive: true });
      writeFileSync(path.join(base, name, rel), text);
    }
  }
  client = new EngineClient(() => inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })));
  const names = Object.keys(ROOTS);
  for (const [i, name] of names.entries())
    await client.openRepo({ kind: 'memory', name, files: ROOTS[name] }, { add: i > 0 }).done;
  await client.indexRepo({}).done;
}, 60_000);
afterAll(() => client?.dispose());

function cli(tool: string, args: Record<string, unknown>): unknown {
  const roots = Object.keys(ROOTS).flatMap((name) => ['--root', path.join(base, name)]);
  const r = spawnSync(process.execPath, [BIN, 'call', tool, JSON.stringify(args), ...roots, '--no-cache'], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_ROOT: '' },
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The parts of an answer that do not depend on the host (seed 004's envelope reports timing and the refresh). */
function comparable(tool: string, answer: unknown): unknown {
  if (tool !== 'codebase_search' && tool !== 'find_related') return answer;
  const { results } = answer as { results: unknown[] };
  return results;
}

describe('search with root: reads only the roots it names', { timeout: 120_000 }, () => {
  // 'total' is in both roots; shop comes first, so its lines would fill a small limit
  it.each([
    ['total root:ledger', 2],
    ['total root:ledger', 50],
    ['total root:shop', 50],
  ])(
    '%s (limit %d): the named root only, counted alone, the same in the app and the CLI',
    async (query, limit) => {
      const root = query.split('root:')[1];
      const app = (await client.callTool('search', { query, limit })) as {
        results: { path: string }[];
        total: number;
        complete: boolean;
      };
      expect(cli('search', { query, limit })).toEqual(app);
      const expected = Object.entries(ROOTS[root]).flatMap(([rel, text]) =>
        text.split('\n').flatMap((line, i) => (/total/i.test(line) ? [`${root}/${rel}:${i + 1}`] : [])),
      );
      expect(app.total).toBe(expected.length);
      expect(app.results.map((r) => `${r.path}:${(r as { line?: number }).line}`).sort()).toEqual(
        expected.slice(0, limit).sort(),
      );
      expect(app.complete).toBe(true);
    },
  );
});

describe('the app and the CLI over the same two roots', { timeout: 120_000 }, () => {
  it.each(CALLS)('%s %j: the same answer', async (tool, args) => {
    const app = await client.callTool(tool, args);
    const ours = cli(tool, args);
    expect(comparable(tool, ours)).toEqual(comparable(tool, app));
    // both roots take part where the query reaches them (the comparison is not of empty answers)
    expect(JSON.stringify(app)).toMatch(/"(shop|ledger)\//);
  });
});

/**
 * The search tool through the real `quarry` bin (issue 35 point 5): one query in the query
 * language, typed results per type; type:commit and type:diff answered as the git CLI selects
 * commits (git log --grep / -G on the same repository); bad queries exit 2 with the parser's
 * message. Also served by `quarry mcp` (it lists every tool of core/tools: mcp.test.ts).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScratchRepo } from '../adapters/git/scratch-repo.testutil';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
let repo: ScratchRepo;

function search(args: Record<string, unknown>) {
  const r = spawnSync(
    process.execPath,
    [BIN, 'call', 'search', JSON.stringify(args), '--root', repo.dir, '--no-cache'],
    {
      encoding: 'utf8',
      env: { ...process.env, QUARRY_ROOT: '' },
    },
  );
  return {
    code: r.status,
    out: r.status === 0 ? JSON.parse(r.stdout) : null,
    stderr: r.stderr,
    stdout: r.stdout,
  };
}

const gitLog = (...args: string[]) =>
  repo
    .git(['log', '--format=%H', '--no-renames', ...args])
    .trim()
    .split('\n')
    .filter(Boolean);

beforeAll(() => {
  repo = new ScratchRepo();
  repo.commit('Add the cart', {
    'src/cart.ts': 'export function cartTotal(items: number[]) {\n  return 0;\n}\n',
    'src/cart.test.ts':
      "import { cartTotal } from './cart';\ntest('empty', () => expect(cartTotal([])).toBe(0));\n",
  });
  repo.commit('Fix rounding in totals\n\nThe total was off by a cent.', {
    'src/cart.ts':
      'export function cartTotal(items: number[]) {\n  return Math.round(items.reduce((a, b) => a + b, 0));\n}\n',
  });
  repo.commit('Add the wallet (TODO: limits)', {
    'src/wallet.py': 'class Wallet:\n    def deposit(self, amount):\n        return amount  # TODO limits\n',
  });
});
afterAll(() => repo.dispose());

describe('quarry call search', { timeout: 60_000 }, () => {
  it('text with filters and booleans: lang:, -file:, AND, select:file', () => {
    const r = search({ query: 'cartTotal -file:test lang:typescript' });
    expect(r.out).toMatchObject({ type: 'file', total: 1, complete: true });
    expect(r.out.results.map((m: { path: string; line: number }) => `${m.path}:${m.line}`)).toEqual([
      'src/cart.ts:1',
    ]);
    const both = search({ query: 'cartTotal AND toBe select:file' });
    expect(both.out).toMatchObject({
      type: 'file',
      select: 'file',
      results: [{ path: 'src/cart.test.ts', matches: 2 }],
    });
    const re = search({ query: 'return\\s+\\w+', mode: 'regex' });
    expect(re.out.results.map((m: { path: string }) => m.path)).toEqual(['src/cart.ts', 'src/wallet.py']);
  });

  it('type:symbol lists definitions with their kind and line', () => {
    const r = search({ query: 'type:symbol deposit' });
    expect(r.out).toMatchObject({
      type: 'symbol',
      results: [{ name: 'Wallet.deposit', kind: 'method', path: 'src/wallet.py', line: 2 }],
    });
  });

  it('type:commit and type:diff choose the commits git log --grep and -G choose', () => {
    const commits = search({ query: 'type:commit /off by|wallet/' });
    expect(commits.out.type).toBe('commit');
    expect(commits.out.results.map((c: { oid: string }) => c.oid)).toEqual(
      gitLog('-E', '-i', '--grep=off by|wallet'),
    );
    expect(commits.out).toMatchObject({ searched: 3, total: 3, shallow: false });

    const diff = search({ query: 'type:diff /return [0-9]/' });
    expect(diff.out.results.map((c: { oid: string }) => c.oid)).toEqual(gitLog('-G', 'return [0-9]'));
    expect(diff.out.results[0].files[0].lines).toMatchObject([{ side: '-', line: 2, text: '  return 0;' }]);
    const todo = search({ query: 'type:diff TODO file:\\.py$' });
    expect(todo.out.results.map((c: { oid: string }) => c.oid)).toEqual(gitLog('-G', 'TODO', '--', '*.py'));
  });

  it('a bad query exits 2 with the parser message; a filter typo gets a suggestion', () => {
    const r = search({ query: 'total lnag:python' });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain('unknown filter `lnag:` at column 7 — did you mean `lang:`?');
    expect(search({ query: 'type:diff' }).code).toBe(2);
  });
});

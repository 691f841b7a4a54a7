/**
 * ranked_search and related_code through callTool: their argument checks, real answers over
 * Quarry's tree-sitter chunks (the index Ranked mode and the Related panel use), the filters,
 * several roots, and a host without the code index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { rejectionOf } from '../../../test/rejection';
import { Chunker } from '../chunk';
import type { RankedChunkHit } from '../rank/ranked';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';
import { NO_RELATED } from './find-related';
import { whyRanked, type RankedSearchResult } from './ranked-search';
import type { RelatedCodeResult } from './related-code';
import type { ToolContext } from './types';
import { localWorkspace, type LocalRoot } from '../workspace/local-root';
import type { WorkspaceRoot } from '../workspace/root';

const FILES: Record<string, string> = {
  'src/users/repo.ts': `import { db } from '../db';

export function getUserById(id: string) {
  return db.users.find((u) => u.id === id);
}

export function listUsers() {
  return db.users.all();
}

export class UserRepository {
  findByEmail(email: string) {
    return db.users.find((u) => u.email === email);
  }
  findById(id: string) {
    return db.users.find((u) => u.id === id);
  }
  removeById(id: string) {
    return db.users.remove((u) => u.id === id);
  }
}
`,
  'src/orders/orders.ts': `export function getOrderById(id: string) {
  return db.orders.find((o) => o.id === id);
}
`,
  'scripts/users.py': `def fetch_user_record(user_id):
    return user_table[user_id]


def delete_user_record(user_id):
    del user_table[user_id]
`,
  'docs/users.md': '# Users\n\nA user is looked up by id in the user table.\n',
};

let chunker: Chunker;
beforeAll(async () => {
  chunker = await Chunker.create(nodeGrammarLoader);
});

/** A workspace over `roots` (one root: root-relative paths), each root with its own code index, as every host gives it. */
async function contextOf(
  roots: Record<string, Record<string, string>>,
): Promise<ToolContext & { refreshes: () => number }> {
  const workspace = new Workspace(
    Object.entries(roots).map(
      ([name, files]) => new MemorySource({ ...files }, { name, absoluteRoot: `/work/${name}` }),
    ),
  );
  let refreshes = 0;
  const counted = (r: LocalRoot): WorkspaceRoot => ({
    key: r.key,
    source: r.source,
    codeIndexReady: false,
    state: r.state,
    seedIndex: (signal) => r.seedIndex(signal),
    codeIndex: (signal) => {
      refreshes++;
      return r.codeIndex(signal);
    },
    lines: (path) => r.lines(path),
    close: () => r.close(),
  });
  return {
    workspace,
    roots: localWorkspace(workspace, () => ({ chunker: async () => chunker })).toolRoots(counted),
    refreshes: () => refreshes,
  };
}

const ranked = async (ctx: ToolContext, args: Record<string, unknown>) =>
  ((await callTool('ranked_search', args, ctx)) as { results: RankedSearchResult[] }).results;
const related = async (ctx: ToolContext, args: Record<string, unknown>) =>
  (await callTool('related_code', args, ctx)) as {
    seed: Omit<RelatedCodeResult, 'score' | 'sharedTerms' | 'reasons'>;
    results: RelatedCodeResult[];
  };

describe('ranked_search and related_code: arguments', () => {
  const rows: Array<[string, string, Record<string, unknown>, string, string]> = [
    ['missing query', 'ranked_search', {}, 'InvalidArgument', 'Missing required field: query'],
    ['blank query', 'ranked_search', { query: '  ' }, 'InvalidArgument', 'query must not be empty'],
    ['query not a string', 'ranked_search', { query: 3 }, 'InvalidArgument', 'query must be a string'],
    [
      'limit 0',
      'ranked_search',
      { query: 'user', limit: 0 },
      'InvalidArgument',
      'limit must be an integer from 1 to 100',
    ],
    [
      'limit 101',
      'ranked_search',
      { query: 'user', limit: 101 },
      'InvalidArgument',
      'limit must be an integer from 1 to 100',
    ],
    [
      'limit 2.5',
      'ranked_search',
      { query: 'user', limit: 2.5 },
      'InvalidArgument',
      'limit must be an integer from 1 to 100',
    ],
    [
      'path glob not a string',
      'ranked_search',
      { query: 'user', path: ['src/**'] },
      'InvalidArgument',
      'path must be a string',
    ],
    [
      'path glob unbalanced',
      'ranked_search',
      { query: 'user', path: 'src/{a,b' },
      'InvalidGlob',
      `path has an unclosed '{' in glob "src/{a,b"`,
    ],
    [
      'unknown field',
      'ranked_search',
      { query: 'user', lang: 'go' },
      'InvalidArgument',
      'Unknown field: lang (allowed: query, limit, path, language)',
    ],
    ['missing path', 'related_code', { line: 3 }, 'InvalidArgument', 'Missing required field: path'],
    [
      'missing line',
      'related_code',
      { path: 'src/users/repo.ts' },
      'InvalidArgument',
      'Missing required field: line',
    ],
    [
      'line 0',
      'related_code',
      { path: 'src/users/repo.ts', line: 0 },
      'InvalidArgument',
      'line must be an integer >= 1',
    ],
    [
      'line a string',
      'related_code',
      { path: 'src/users/repo.ts', line: '3' },
      'InvalidArgument',
      'line must be an integer >= 1',
    ],
    [
      'related limit 101',
      'related_code',
      { path: 'src/users/repo.ts', line: 3, limit: 101 },
      'InvalidArgument',
      'limit must be an integer from 1 to 100',
    ],
    [
      'related unknown field',
      'related_code',
      { path: 'a.ts', line: 3, root: 'x' },
      'InvalidArgument',
      'Unknown field: root (allowed: path, line, limit)',
    ],
    [
      'path escaping the root',
      'related_code',
      { path: '../etc/passwd', line: 1 },
      'PathOutsideRoot',
      'path escapes the root: "../etc/passwd"',
    ],
  ];
  it.each(rows)('%s', async (_name, tool, args, code, message) => {
    const ctx = await contextOf({ repo: FILES });
    const err = await rejectionOf(callTool(tool, args, ctx));
    expect([err.code, err.message]).toEqual([code, message]);
    expect(err.data.field).toBeDefined();
    expect(ctx.refreshes()).toBe(0); // refused before the index is looked at
  });

  it('refuses an unknown language, listing the ones it takes', async () => {
    const err = await rejectionOf(
      callTool('ranked_search', { query: 'user', language: 'cobol' }, await contextOf({ repo: FILES })),
    );
    expect(err.code).toBe('InvalidArgument');
    expect(err.data.field).toBe('language');
    expect(err.message).toMatch(
      /^language must be one of: typescript, ts, tsx, javascript, .*python.*go.*markdown/,
    );
  });

  it('says so when the host has no code index', async () => {
    const workspace = new Workspace([new MemorySource(FILES, { name: 'repo', absoluteRoot: '/work/repo' })]);
    const err = await rejectionOf(callTool('ranked_search', { query: 'user' }, { workspace }));
    expect([err.code, err.message]).toEqual([
      'EngineError',
      "ranked_search needs the workspace's code index, and this host provides none",
    ]);
    const rel = await rejectionOf(
      callTool('related_code', { path: 'src/users/repo.ts', line: 3 }, { workspace }),
    );
    expect([rel.code, rel.message]).toEqual([
      'EngineError',
      "related_code needs the workspace's code index, and this host provides none",
    ]);
  });
});

describe('ranked_search', () => {
  it('ranks identifiers by their parts, with the snippet and why', async () => {
    const results = await ranked(await contextOf({ repo: FILES }), { query: 'user by id' });
    expect(results[0]).toEqual({
      path: 'src/users/repo.ts',
      startLine: 3,
      endLine: 5,
      symbol: 'getUserById',
      kind: 'function',
      score: expect.any(Number),
      snippet: 'export function getUserById(id: string) {\n  return db.users.find((u) => u.id === id);\n}',
      // "by" is a stopword of this sentence; "user" also matched its plural
      why: 'matched "user" (in getuserbyid, users), "id" (in getuserbyid); symbol name has "user", "id"',
    });
    const exact = await ranked(await contextOf({ repo: FILES }), { query: 'getUserById', limit: 1 });
    expect(exact.map((r) => [r.symbol, r.why])).toEqual([
      [
        'getUserById',
        'exact symbol match: getUserById is the query as one identifier; matched "get" (in getuserbyid), "user" (in getuserbyid, users), "by" (in getuserbyid), "id" (in getuserbyid); symbol name has "get", "user", "by", "id"',
      ],
    ]);
    expect(results.length).toBeGreaterThan(3);
    expect(results.length).toBeLessThanOrEqual(10);
    for (let i = 1; i < results.length; i++)
      expect(results[i].score).toBeLessThanOrEqual(results[i - 1].score);
    for (const r of results) expect(Number.isInteger(r.score * 1e4)).toBe(true); // rounded to 4 decimals
    expect(await ranked(await contextOf({ repo: FILES }), { query: 'user', limit: 2 })).toHaveLength(2);
  });

  it('filters by a path glob and by language before the limit', async () => {
    const ctx = await contextOf({ repo: FILES });
    const all = await ranked(ctx, { query: 'user record id', limit: 100 });
    expect(new Set(all.map((r) => r.path))).toEqual(
      new Set(['src/users/repo.ts', 'src/orders/orders.ts', 'scripts/users.py', 'docs/users.md']),
    );
    const py = await ranked(ctx, { query: 'user record id', language: 'python' });
    expect(py.map((r) => r.symbol)).toEqual(['fetch_user_record', 'delete_user_record']);
    expect(py.every((r) => r.path === 'scripts/users.py')).toBe(true);
    const globbed = await ranked(ctx, { query: 'user record id', path: 'src/**', limit: 1 });
    expect(globbed.map((r) => r.path)).toEqual(['src/users/repo.ts']);
    const byName = await ranked(ctx, { query: 'user record id', path: '*.md' }); // no '/': the file name at any depth
    expect(byName.map((r) => r.path)).toEqual(['docs/users.md']);
    expect(await ranked(ctx, { query: 'user', path: 'lib/**' })).toEqual([]);
    const ts = await ranked(ctx, { query: 'order', language: 'ts' });
    expect(ts.map((r) => r.symbol)).toEqual(['getOrderById']);
  });

  it('spans several roots, paths prefixed by the root name, and the glob reads the prefixed path', async () => {
    const ctx = await contextOf({
      shop: { 'src/cart.ts': FILES['src/orders/orders.ts'] },
      ledger: { 'lib/users.ts': FILES['src/users/repo.ts'] },
    });
    const results = await ranked(ctx, { query: 'get by id' });
    expect(results.map((r) => r.path)).toContain('shop/src/cart.ts');
    expect(results.map((r) => r.path)).toContain('ledger/lib/users.ts');
    expect(
      (await ranked(ctx, { query: 'get by id', path: 'ledger/**' })).every((r) =>
        r.path.startsWith('ledger/'),
      ),
    ).toBe(true);
  });

  it('merges per-root indexes by score', async () => {
    const a = await contextOf({ repo: { 'a.ts': FILES['src/orders/orders.ts'] } });
    const b = await contextOf({ repo: { 'b.py': FILES['scripts/users.py'] } });
    const ctx: ToolContext = {
      workspace: a.workspace,
      roots: [
        { prefix: 'one/', name: 'one', root: a.roots![0].root },
        { prefix: 'two/', name: 'two', root: b.roots![0].root },
      ],
    };
    const results = await ranked(ctx, { query: 'user id order' });
    expect(new Set(results.map((r) => r.path))).toEqual(new Set(['one/a.ts', 'two/b.py']));
    for (let i = 1; i < results.length; i++)
      expect(results[i].score).toBeLessThanOrEqual(results[i - 1].score);
  });

  it('whyRanked names the words, the terms they matched through, the name boost and the missing words', () => {
    const hit = {
      chunk: { symbolName: 'listUsers' },
      score: 1,
      exactSymbol: false,
      prior: 1,
      discounts: [],
      components: [
        {
          word: 'list',
          via: ['list'],
          termFrequency: 1,
          documentFrequency: 1,
          idf: 1,
          bm25: 1,
          symbolBoost: 1.5,
        },
        {
          word: 'user',
          via: ['listusers', 'users', 'user', 'userid', 'username'],
          termFrequency: 1,
          documentFrequency: 1,
          idf: 1,
          bm25: 1,
          symbolBoost: 0,
        },
      ],
    } as unknown as RankedChunkHit;
    expect(whyRanked(hit, ['list', 'user', 'all'])).toBe(
      'matched "list", "user" (in listusers, users, userid +1 more); symbol name has "list"; no match for "all"',
    );
    const inTest = { ...hit, prior: 0.55 * 0.7, discounts: ['block', 'test file'] } as RankedChunkHit;
    expect(whyRanked(inTest, ['list', 'user'])).toBe(
      'matched "list", "user" (in listusers, users, userid +1 more); symbol name has "list"; weighed x0.39 as block, test file',
    );
  });
});

describe('related_code', () => {
  it('answers the chunks related to the one at path:line, siblings first, with shared terms and reasons', async () => {
    const ctx = await contextOf({ repo: FILES });
    const r = await related(ctx, { path: 'src/users/repo.ts', line: 16 });
    expect(r.seed).toEqual({
      path: 'src/users/repo.ts',
      startLine: 15,
      endLine: 17,
      symbol: 'UserRepository.findById',
      kind: 'method',
    });
    expect(r.results.length).toBeGreaterThan(1);
    const first = r.results[0];
    expect(first.path).toBe('src/users/repo.ts');
    expect(first.symbol).toMatch(/^UserRepository\.(findByEmail|removeById)$/);
    expect(first.reasons).toContain('same class');
    expect(first.sharedTerms).toEqual(expect.arrayContaining(['db', 'users']));
    expect(r.results.map((x) => x.symbol)).not.toContain('UserRepository'); // the seed's container is left out
    for (let i = 1; i < r.results.length; i++)
      expect(r.results[i].score).toBeLessThanOrEqual(r.results[i - 1].score);
    expect((await related(ctx, { path: './src/users/repo.ts', line: 16, limit: 1 })).results).toHaveLength(1);
    expect((await related(ctx, { path: '/work/repo/src/users/repo.ts', line: 16 })).seed.symbol).toBe(
      'UserRepository.findById',
    );
  });

  it('with several roots, takes a path prefixed by the root name', async () => {
    const ctx = await contextOf({
      shop: { 'src/cart.ts': FILES['src/orders/orders.ts'] },
      ledger: { 'lib/users.ts': FILES['src/users/repo.ts'] },
    });
    const r = await related(ctx, { path: 'ledger/lib/users.ts', line: 16 });
    expect(r.seed.path).toBe('ledger/lib/users.ts');
    expect(r.results.every((x) => x.path.startsWith('ledger/') || x.path.startsWith('shop/'))).toBe(true);
  });

  it("answers find_related's words for a line in no chunk, a file not indexed, a line past the end", async () => {
    const ctx = await contextOf({ repo: FILES });
    for (const args of [
      { path: 'src/users/repo.ts', line: 1 }, // the import line: no symbol there
      { path: 'src/nope.ts', line: 3 },
      { path: 'src/users/repo.ts', line: 999 },
    ]) {
      const err = await rejectionOf(callTool('related_code', args, ctx));
      expect([err.code, err.message]).toEqual(['EngineError', NO_RELATED]);
      expect(err.data).toMatchObject({ ...args, reason: 'noChunk' });
    }
  });
});

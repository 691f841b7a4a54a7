/**
 * codebase_search and find_related against seed 004, through the tool layer. The chunks are
 * the seed engine's (src/core/seed004); test/parity runs the engine itself side by side.
 */
import { describe, expect, it } from 'vitest';
import { MemoryIndexStore } from '../rank/persist';
import { CodebaseIndexService } from '../codebase-index/service';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';
import { NO_RELATED } from './find-related';
import { rejectionOf } from '../../../test/rejection';
import { seedOnlyRoots } from '../workspace/roots.testutil';

const FILES = {
  'src/auth/session.ts': `import { db } from '../db';

/** Check a request's session token. */
export function authenticate(request: Request): boolean {
  const token = request.headers.get('authorization');
  return token !== null && db.sessions.has(token);
}

export function logout(request: Request) {
  db.sessions.delete(request.headers.get('authorization'));
}
`,
  'src/auth/tokens.ts': `export function parseToken(header: string) {
  return header.replace('Bearer ', '');
}

export function authenticateToken(token: string, request: Request) {
  return parseToken(token).length > 0 && request !== null;
}
`,
  'src/users.tsx': `export function UserCard({ user }: { user: { name: string } }) {
  return <div className="card">{user.name}</div>;
}
`,
  'lib/tool.py': `class Agent:
    def run(self, request):
        return authenticate(request)
`,
  'docs/guide.md': `# Guide

## Authentication
Every request is authenticated with a session token.
`,
  'src/notes.txt': 'authenticate request (not an indexed extension)\n',
  'node_modules/x/index.ts': 'export function authenticate(request) {}\n',
};

function ctx(files: Record<string, string> = FILES, store = new MemoryIndexStore()) {
  const workspace = new Workspace([new MemorySource(files, { name: 'repo', absoluteRoot: '/repo' })]);
  const seedIndex = new CodebaseIndexService(workspace, store);
  return { workspace, roots: seedOnlyRoots(seedIndex), seedIndex };
}

describe('codebase_search validation (seed 004 messages, word for word)', () => {
  const rows: Array<[string, Record<string, unknown>, string]> = [
    ['query absent', {}, 'Missing required field: query'],
    ['query blank', { query: '' }, 'query must not be empty'],
    ['query whitespace', { query: '  \t' }, 'query must not be empty'],
    ['query not a string', { query: 42 }, 'query must be a string'],
    ['query null', { query: null }, 'query must be a string'],
    ['limit wrong type', { query: 'x', limit: '5' }, 'limit must be an integer from 1 to 100'],
    ['limit 0', { query: 'x', limit: 0 }, 'limit must be an integer from 1 to 100'],
    ['limit 101', { query: 'x', limit: 101 }, 'limit must be an integer from 1 to 100'],
    ['limit null', { query: 'x', limit: null }, 'limit must be an integer from 1 to 100'],
    ['limit 2.5', { query: 'x', limit: 2.5 }, 'limit must be an integer from 1 to 100'],
    [
      'include_content not a boolean',
      { query: 'x', include_content: 'no' },
      'include_content must be a boolean',
    ],
    [
      'extension with a dot inside',
      { query: 'x', file_extensions: ['d.ts'] },
      'file_extensions contains an invalid extension',
    ],
    [
      'extension empty',
      { query: 'x', file_extensions: [''] },
      'file_extensions contains an invalid extension',
    ],
    [
      'extension just a dot',
      { query: 'x', file_extensions: ['.'] },
      'file_extensions contains an invalid extension',
    ],
    [
      'extension with a slash',
      { query: 'x', file_extensions: ['a/b'] },
      'file_extensions contains an invalid extension',
    ],
    [
      'extension with a backslash',
      { query: 'x', file_extensions: ['a\\b'] },
      'file_extensions contains an invalid extension',
    ],
    [
      'extension with whitespace',
      { query: 'x', file_extensions: ['t s'] },
      'file_extensions contains an invalid extension',
    ],
  ];
  it.each(rows)('%s', async (_n, args, message) => {
    const c = ctx();
    const e = await rejectionOf(callTool('codebase_search', args, c));
    expect(e.message).toBe(message);
    expect(c.seedIndex.lastStats).toBeNull(); // parser failures happen before the index refresh
  });

  const filters: Array<[string, Record<string, unknown>, string]> = [
    ['file_extensions empty', { file_extensions: [] }, 'file_extensions'],
    ['file_extensions not an array', { file_extensions: 'ts' }, 'file_extensions'],
    ['file_extensions null', { file_extensions: null }, 'file_extensions'],
    ['file_extensions with a number', { file_extensions: ['ts', 1] }, 'file_extensions'],
    ['exclude_paths empty', { exclude_paths: [] }, 'exclude_paths'],
    ['exclude_paths not strings', { exclude_paths: [null] }, 'exclude_paths'],
    ['path_filter blank', { path_filter: ' ' }, 'path_filter'],
    ['path_filter not a string', { path_filter: 3 }, 'path_filter'],
  ];
  it.each(filters)('INVALID_FILTER naming the field: %s', async (_n, args, field) => {
    const e = await rejectionOf(callTool('codebase_search', { query: 'x', ...args }, ctx()));
    expect(e.code).toBe('InvalidFilter');
    expect(e.message).toMatch(/^INVALID_FILTER/);
    expect(e.message).toContain(field);
    expect(e.data.field).toBe(field);
  });
});

describe('codebase_search results', () => {
  it('returns the full envelope with BM25 hits over symbol chunks', async () => {
    const r = (await callTool('codebase_search', { query: 'authenticate request' }, ctx())) as any;
    expect(Object.keys(r)).toEqual([
      'envelope_version',
      'status',
      'tool',
      'product',
      'product_version',
      'engine',
      'route',
      'warnings',
      'gaps',
      'confidence',
      'query',
      'results',
      'search',
      'index',
    ]);
    expect(r).toMatchObject({
      envelope_version: '1',
      status: 'ok',
      tool: 'codebase_search',
      product: 'quarry',
      route: 'rust-tfidf',
      warnings: [],
      gaps: [],
      confidence: { kind: 'deterministic', notes: [] },
      query: 'authenticate request',
      search: { route: 'rust-tfidf' },
      index: { filesScanned: 5, refreshMode: 'full', filesRemoved: 0 },
    });
    // the seed's chunks: a symbol at the start of a line; the lines before the first one (imports,
    // the doc comment) lead every chunk of the file; an indented `def` is no symbol
    const top = r.results.find((h: any) => h.symbolName === 'authenticate');
    expect(top).toMatchObject({
      path: 'src/auth/session.ts',
      startLine: 4,
      endLine: 8,
      symbolName: 'authenticate',
      chunkType: 'function',
    });
    expect(top.matchedTerms).toEqual(['authenticate', 'request']);
    expect(
      top.snippet.startsWith(
        "import { db } from '../db';\n\n/** Check a request's session token. */\nexport function authenticate(",
      ),
    ).toBe(true);
    expect(top.snippet.endsWith('}\n')).toBe(true); // its last line is the blank one before logout
    expect(r.results.find((h: any) => h.path === 'lib/tool.py')).toMatchObject({
      startLine: 1,
      endLine: 3,
      symbolName: 'Agent',
      chunkType: 'class',
    });
    const guide = r.results.find((h: any) => h.path === 'docs/guide.md');
    expect(guide).toMatchObject({ startLine: 1, endLine: 4, chunkType: 'file' });
    expect('symbolName' in guide && guide.symbolName !== undefined).toBe(false);
    for (const c of top.scoreComponents)
      expect(Object.keys(c)).toEqual(['term', 'termFrequency', 'documentFrequency', 'idf', 'bm25']);
    const sum = top.scoreComponents.reduce((s: number, c: any) => s + c.bm25, 0);
    expect(top.score).toBeCloseTo(sum, 12);
    expect(r.results.some((h: any) => h.path.startsWith('node_modules/') || h.path.endsWith('.txt'))).toBe(
      false,
    );
    for (let i = 1; i < r.results.length; i++)
      expect(r.results[i - 1].score).toBeGreaterThanOrEqual(r.results[i].score);
  });
  it('include_content false sets snippet to null and keeps the other fields', async () => {
    const r = (await callTool(
      'codebase_search',
      { query: 'authenticate', include_content: false },
      ctx(),
    )) as any;
    expect(r.results.length).toBeGreaterThan(0);
    for (const h of r.results) {
      expect(h.snippet).toBeNull();
      expect(h.matchedTerms.length).toBeGreaterThan(0);
    }
  });
  it('file_extensions: ts and .ts alike, final extension only, case-sensitive; filters before limit', async () => {
    const c = ctx();
    const ts = (await callTool(
      'codebase_search',
      { query: 'authenticate request', file_extensions: ['ts'] },
      c,
    )) as any;
    const dotted = (await callTool(
      'codebase_search',
      { query: 'authenticate request', file_extensions: ['.ts'] },
      c,
    )) as any;
    expect(ts.results).toEqual(dotted.results);
    expect(ts.results.every((h: any) => h.path.endsWith('.ts'))).toBe(true);
    const upper = (await callTool(
      'codebase_search',
      { query: 'authenticate request', file_extensions: ['TS'] },
      c,
    )) as any;
    expect(upper.results).toEqual([]);
    const py = (await callTool(
      'codebase_search',
      { query: 'authenticate request', file_extensions: ['py'], limit: 1 },
      c,
    )) as any;
    expect(py.results.map((h: any) => h.path)).toEqual(['lib/tool.py']);
  });
  it('path_filter and exclude_paths are case-sensitive substrings; backslashes become slashes', async () => {
    const c = ctx();
    const only = (await callTool(
      'codebase_search',
      { query: 'authenticate request', path_filter: 'src\\auth' },
      c,
    )) as any;
    expect(new Set(only.results.map((h: any) => h.path))).toEqual(
      new Set(['src/auth/session.ts', 'src/auth/tokens.ts']),
    );
    const none = (await callTool('codebase_search', { query: 'authenticate', path_filter: 'SRC' }, c)) as any;
    expect(none.results).toEqual([]);
    const ex = (await callTool(
      'codebase_search',
      { query: 'authenticate', exclude_paths: ['src/auth/'] },
      c,
    )) as any;
    expect(ex.results.some((h: any) => h.path.startsWith('src/auth/'))).toBe(false);
    expect(ex.results.length).toBeGreaterThan(0);
  });
  it('a query with no token is ok with no results', async () => {
    for (const query of ['...', 'a', '!! ?']) {
      const r = (await callTool('codebase_search', { query }, ctx())) as any;
      expect(r.status).toBe('ok');
      expect(r.results).toEqual([]);
    }
  });
  it('reports refresh modes: full, cache_hit, incremental', async () => {
    const store = new MemoryIndexStore();
    const files = { ...FILES };
    const c = ctx(files, store);
    expect(((await callTool('codebase_search', { query: 'token' }, c)) as any).index.refreshMode).toBe(
      'full',
    );
    expect(((await callTool('codebase_search', { query: 'token' }, c)) as any).index.refreshMode).toBe(
      'cache_hit',
    );
    (c.workspace.roots[0] as MemorySource).write(
      'src/new.ts',
      'export function brandNewThing() { return 1; }\n',
    );
    const inc = (await callTool('codebase_search', { query: 'brandNewThing' }, c)) as any;
    expect(inc.index).toMatchObject({ refreshMode: 'incremental', filesChanged: 1, filesRemoved: 0 });
    expect(inc.results[0].path).toBe('src/new.ts');
  });
});

describe('find_related (seed 004)', () => {
  it('scores by shared tokens over the union and sorts by score then path', async () => {
    const r = (await callTool('find_related', { path: 'src/auth/session.ts', line: 5 }, ctx())) as any;
    expect(r.route).toBe('rust-related');
    expect(r.search.route).toBe('rust-tfidf');
    expect(r.tool).toBe('find_related');
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.some((h: any) => h.path === 'src/auth/session.ts' && h.startLine === 4)).toBe(false); // not the seed itself
    for (const h of r.results) {
      expect(h.scoreComponents).toEqual([]);
      expect(h.snippet.length).toBeLessThanOrEqual(360);
    }
    for (let i = 1; i < r.results.length; i++) {
      const [a, b] = [r.results[i - 1], r.results[i]];
      expect(a.score > b.score || (a.score === b.score && a.path <= b.path)).toBe(true);
    }
  });
  it('limit 0 becomes 1; there is no upper cap', async () => {
    const one = (await callTool(
      'find_related',
      { path: 'src/auth/session.ts', line: 5, limit: 0 },
      ctx(),
    )) as any;
    expect(one.results).toHaveLength(1);
    const many = (await callTool(
      'find_related',
      { path: 'src/auth/session.ts', line: 5, limit: 500 },
      ctx(),
    )) as any;
    expect(many.results.length).toBeGreaterThan(1);
  });
  it('gives the seed errors', async () => {
    const c = ctx();
    for (const args of [
      { path: 'src/auth/session.ts', line: 1 }, // preamble
      { path: 'src/auth/session.ts', line: 3 }, // the doc comment before the first symbol: preamble too
      { path: 'src/auth/session.ts', line: 12 }, // past the last line
      { path: 'src/auth/missing.ts', line: 3 }, // no such path
      { path: 'src/notes.txt', line: 1 }, // not indexed
      { path: './src/auth/session.ts', line: 5 }, // not exactly the indexed path
    ]) {
      const e = await rejectionOf(callTool('find_related', args, c));
      expect(e.message).toBe(NO_RELATED);
      expect(e.message).toBe('No related chunks found for that location');
    }
    const zero = await rejectionOf(callTool('find_related', { path: 'src/auth/session.ts', line: 0 }, c));
    expect(zero.message).toBe('line must be a positive integer');
    expect(zero.code).toBe('EngineError');
    const missing = await rejectionOf(callTool('find_related', { line: 3 }, ctx()));
    expect(missing.code).toBe('InvalidArgument');
    expect(missing.message).toBe('Missing required field: path');
    const noLine = await rejectionOf(callTool('find_related', { path: 'a.ts' }, ctx()));
    expect(noLine.message).toBe('Missing required field: line');
  });
});

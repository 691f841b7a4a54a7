/**
 * The `quarry` CLI: the real bin (bin/quarry.mjs) spawned the way a user or an agent runs it,
 * wherever the process is what is checked (exit codes as the process ends, QUARRY_ROOT from its
 * environment, the threads and the model started from the bundle, the cache left for the next
 * process); the rest runs runCli in this process (`inProcess`), the bin's own entry
 * (src/cli/index.ts) minus the process: a spawn costs ~0.6 s of CPU, this file had 37 of them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDir } from '../../test/fixtures/repo';
import { runCli } from './main';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
let root = '';

function quarry(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_ROOT: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runCli in this process with what the bin would be given: its arguments and its environment. */
async function inProcess(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: { ...process.env, QUARRY_ROOT: '', ...env },
  });
  return { code, stdout, stderr };
}

beforeAll(() => {
  root = writeFixtureDir();
});

describe('quarry CLI', () => {
  it('semantic_code_search answers both types from the bundled model, offline, and embeds only once per folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-semantic-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(
      path.join(dir, 'src/session.ts'),
      '// renews the access token when it has expired\nexport function refreshExpiredSession(token: string) {\n  return renew(token);\n}\n',
    );
    writeFileSync(
      path.join(dir, 'src/csv.py'),
      'def parse_csv(text):\n    """Split comma separated text into rows."""\n    return [l.split(",") for l in text.splitlines()]\n',
    );
    const env = { QUARRY_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'quarry-semantic-cache-')) };
    const first = quarry(
      [
        'call',
        'semantic_code_search',
        JSON.stringify({ query: 'renew a login that timed out', type: 'semantic', limit: 1 }),
        '--root',
        dir,
      ],
      env,
    );
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('quarry: embedding 2 chunk views for semantic search');
    expect(JSON.parse(first.stdout)).toMatchObject([
      {
        path: 'src/session.ts',
        symbol: 'refreshExpiredSession',
        language: 'typescript',
        why: { similarity: expect.any(Number) },
      },
    ]);
    const hybrid = quarry(
      [
        'call',
        'semantic_code_search',
        JSON.stringify({ query: 'parse_csv', language: 'python' }),
        '--root',
        dir,
      ],
      env,
    );
    expect(hybrid.code).toBe(0);
    expect(hybrid.stderr).not.toContain('embedding'); // the vectors came from the cache
    expect(JSON.parse(hybrid.stdout)).toMatchObject([
      { path: 'src/csv.py', symbol: 'parse_csv', why: { exactIdentifier: true, lexicalRank: 1 } },
    ]);
    const bad = await inProcess(
      ['call', 'semantic_code_search', JSON.stringify({ query: 'x', type: 'keyword' }), '--root', dir],
      env,
    );
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.message).toBe('type must be one of "semantic", "hybrid"');
  }, 120_000);
  it('ranked_search and related_code answer from the code index, cached under index-<key>, with their filters and errors', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-ranked-'));
    mkdirSync(path.join(dir, 'src'));
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(
      path.join(dir, 'src/users.ts'),
      'export function getUserById(id: string) {\n  return db.users.find((u) => u.id === id);\n}\n\nexport function getUserByEmail(email: string) {\n  return db.users.find((u) => u.email === email);\n}\n',
    );
    writeFileSync(
      path.join(dir, 'scripts/users.py'),
      'def load_record(user_id):\n    return user_table[user_id]\n',
    );
    const cache = mkdtempSync(path.join(tmpdir(), 'quarry-ranked-cache-'));
    const env = { QUARRY_CACHE_DIR: cache };
    const r = quarry(['call', 'ranked_search', '{"query":"user by id"}', '--root', dir], env);
    expect(r.code).toBe(0);
    const { results } = JSON.parse(r.stdout);
    expect(results[0]).toEqual({
      path: 'src/users.ts',
      startLine: 1,
      endLine: 3,
      symbol: 'getUserById',
      kind: 'function',
      score: expect.any(Number),
      snippet: 'export function getUserById(id: string) {\n  return db.users.find((u) => u.id === id);\n}',
      why: expect.stringContaining('symbol name has "user", "id"'),
    });
    expect(results.map((x: any) => x.path)).toContain('scripts/users.py');
    expect(readdirSync(cache).filter((f) => f.startsWith('index-'))).toHaveLength(1); // the code index, stored for the next call
    // the filters and errors in this process, from the index the bin left in the cache
    const py = await inProcess(
      ['call', 'ranked_search', '{"query":"user by id","language":"python"}', '--root', dir],
      env,
    );
    expect(JSON.parse(py.stdout).results.map((x: any) => x.symbol)).toEqual(['load_record']);
    const glob = await inProcess(
      ['call', 'ranked_search', '{"query":"user by id","path":"src/**"}', '--root', dir],
      env,
    );
    expect(JSON.parse(glob.stdout).results.every((x: any) => x.path === 'src/users.ts')).toBe(true);
    const rel = await inProcess(
      ['call', 'related_code', '{"path":"src/users.ts","line":2}', '--root', dir],
      env,
    );
    expect(rel.code).toBe(0);
    const related = JSON.parse(rel.stdout);
    expect(related.seed).toEqual({
      path: 'src/users.ts',
      startLine: 1,
      endLine: 3,
      symbol: 'getUserById',
      kind: 'function',
    });
    expect(related.results[0]).toMatchObject({
      path: 'src/users.ts',
      symbol: 'getUserByEmail',
      reasons: expect.arrayContaining(['same file']),
    });
    const none = quarry(['call', 'related_code', '{"path":"src/users.ts","line":4}', '--root', dir], env);
    expect(none.code).toBe(1); // the bin's exit 1
    expect(JSON.parse(none.stdout).error).toMatchObject({
      code: 'EngineError',
      message: 'No related chunks found for that location',
    });
    const bad = await inProcess(['call', 'ranked_search', '{"query":"x","limit":101}', '--root', dir], env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error).toEqual({
      code: 'InvalidArgument',
      message: 'limit must be an integer from 1 to 100',
      data: { field: 'limit', value: 101 },
    });
  }, 120_000);
  it('chunks --seed004 prints the chunks codebase_search ranks; plain chunks prints Quarry symbol chunks', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-chunks-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(
      path.join(dir, 'src/pool.ts'),
      "import { Pool } from 'pg';\n\nexport function createPool() {\n  return new Pool();\n}\n\nexport class PoolManager {\n  get() {}\n}\n",
    );
    writeFileSync(path.join(dir, 'README.md'), '# Title\nwords\n');
    const seed = quarry(['chunks', '--seed004', '--root', dir]);
    expect(seed.code).toBe(0);
    expect(
      seed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { path: 'README.md', startLine: 1, endLine: 2, chunkType: 'file' },
      { path: 'src/pool.ts', startLine: 3, endLine: 6, symbolName: 'createPool', chunkType: 'function' },
      { path: 'src/pool.ts', startLine: 7, endLine: 9, symbolName: 'PoolManager', chunkType: 'class' },
    ]);
    const own = quarry(['chunks', '--root', dir])
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(own).toContainEqual({
      path: 'src/pool.ts',
      startLine: 8,
      endLine: 8,
      symbolName: 'PoolManager.get',
      chunkType: 'method',
    });
  });
  it('chunks --stats says what the index covers, and why each text-only file is text only', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-stats-'));
    mkdirSync(path.join(dir, 'src'));
    mkdirSync(path.join(dir, 'tools'));
    writeFileSync(path.join(dir, 'src/pool.ts'), 'export function createPool() {\n  return 1;\n}\n');
    writeFileSync(path.join(dir, 'src/commit.c'), 'int parse_commit(int x) {\n  return x;\n}\n');
    writeFileSync(path.join(dir, 'tools/report.pl'), 'sub total {\n  return 1;\n}\n');
    writeFileSync(path.join(dir, 'tools/build.tcl'), 'proc build {} {\n  return 1\n}\n');
    writeFileSync(path.join(dir, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
    writeFileSync(path.join(dir, 'app.min.js'), 'var a=function(b,c){return b+c};'.repeat(100) + '\n');
    const r = quarry(['chunks', '--stats', '--root', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'Ranked: 4 of 6 files; 2 parsed, 2 as blocks (no parser for .pl, .tcl), 2 text only (minified 1, generated 1)',
      'Chunks: 4',
      'As blocks (no parser), by extension:',
      '  .pl\t1',
      '  .tcl\t1',
      'Text only, per file:',
      '  app.min.js\tminified\t1 line of 3,201 characters', // the file's characters, its newline too
      '  package-lock.json\tgenerated\tlockfile',
      '',
    ]);
    const json = JSON.parse(quarry(['chunks', '--stats', '--json', '--root', dir]).stdout);
    expect(json.coverage).toMatchObject({
      textFiles: 6,
      symbols: 2,
      blocks: 2,
      textOnly: { minified: 1, generated: 1, failed: 0 },
    });
  });
  it('tools prints every tool quarry call serves as {name, description, inputSchema}', async () => {
    const r = await inProcess(['tools']);
    expect(r.code).toBe(0);
    const tools = JSON.parse(r.stdout);
    expect(tools.map((t: any) => t.name)).toEqual([
      'code_search',
      'semantic_code_search',
      'read_file',
      'list_directory',
      'search_files',
      'search_corpus',
      'codebase_search',
      'find_related',
      'ranked_search',
      'related_code',
      'find_components',
      'get_routes',
      'feature_status',
      'explore',
      'search',
      // the app's view tools (not listed over MCP)
      'ranked_view',
      'semantic_search',
      'related_view',
      'flag_inventory',
    ]);
    for (const t of tools) expect(Object.keys(t).sort()).toEqual(['description', 'inputSchema', 'name']);
  });

  it('call prints a JSON result and exits 0', () => {
    const r = quarry(['call', 'code_search', '{"query":"calculateTotal","fileType":"ts"}', '--root', root]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.total).toBe(2);
    expect(out.matches[0]).toEqual({
      path: 'src/app.ts',
      line: 4,
      content: 'export function calculateTotal(items: number[]): number {',
    });
  });

  it('search_files prints the seed text format on a real directory', async () => {
    const r = await inProcess([
      'call',
      'search_files',
      '{"path":".","regex":"TODO|FIXME","file_pattern":"*.ts"}',
      '--root',
      root,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '# src/auth.ts\n 13 | // Some code here\n 14 | // TODO: Add proper validation\n',
    );
    expect(r.stdout).not.toContain('node_modules');
    expect(r.stdout).not.toContain('generated/out.ts');
  });

  it('uses QUARRY_ROOT when no --root is given, and --root is repeatable', async () => {
    const viaEnv = quarry(['call', 'read_file', '{"filePath":"README.md"}'], { QUARRY_ROOT: root });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout).content).toBe('# Fixture repo\n\nTODO: write the docs');
    const two = await inProcess([
      'call',
      'list_directory',
      '{"directoryPath":"."}',
      '--root',
      path.join(root, 'src'),
      '--root',
      path.join(root, 'lib'),
    ]);
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout).items.map((i: any) => i.name)).toEqual(['src', 'lib']);
  });

  it('two roots at once: the tools span both, paths prefixed by the root name, `root` picks one', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'quarry-two-roots-'));
    const shop = path.join(base, 'shop');
    const ledger = path.join(base, 'ledger');
    mkdirSync(path.join(shop, 'src'), { recursive: true });
    mkdirSync(path.join(ledger, 'lib'), { recursive: true });
    writeFileSync(
      path.join(shop, 'src', 'cart.ts'),
      'export function cartTotal(prices: number[]) {\n  return formatMoney(prices.length);\n}\n',
    );
    writeFileSync(
      path.join(ledger, 'lib', 'money.ts'),
      'export function formatMoney(cents: number) {\n  return (cents / 100).toFixed(2);\n}\n',
    );
    const env = { QUARRY_CACHE_DIR: path.join(base, 'cache') };
    const roots = ['--root', shop, '--root', ledger];
    const grep = quarry(['call', 'code_search', '{"query":"formatMoney"}', ...roots], env);
    expect(grep.code).toBe(0);
    expect(JSON.parse(grep.stdout).matches.map((m: any) => `${m.path}:${m.line}`)).toEqual([
      'shop/src/cart.ts:2',
      'ledger/lib/money.ts:1',
    ]);
    const ranked = await inProcess(['call', 'codebase_search', '{"query":"cents prices"}', ...roots], env);
    expect(
      JSON.parse(ranked.stdout)
        .results.map((r: any) => r.path)
        .sort(),
    ).toEqual(['ledger/lib/money.ts', 'shop/src/cart.ts']);
    const one = await inProcess(
      ['call', 'codebase_search', '{"query":"cents prices","root":"ledger"}', ...roots],
      env,
    );
    expect(JSON.parse(one.stdout).results.map((r: any) => r.path)).toEqual(['ledger/lib/money.ts']);
    const read = await inProcess(
      ['call', 'read_file', '{"filePath":"ledger/lib/money.ts","lineStart":1,"lineEnd":1}', ...roots],
      env,
    );
    expect(JSON.parse(read.stdout).content).toBe('export function formatMoney(cents: number) {');
    const bad = await inProcess(['call', 'codebase_search', '{"query":"x","root":"nowhere"}', ...roots], env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error).toMatchObject({
      code: 'InvalidArgument',
      message: 'root is not an open repository: nowhere',
    });
  }, 60_000);

  const invalid: Array<[string, string[], string]> = [
    ['a missing required field', ['call', 'code_search', '{}'], 'InvalidArgument'],
    ['arguments that are not JSON', ['call', 'code_search', '{query:'], 'InvalidArgument'],
    ['an unknown tool', ['call', 'no_such_tool', '{}'], 'InvalidArgument'],
    ['an invalid regex', ['call', 'search_files', '{"path":".","regex":"(a"}'], 'InvalidPattern'],
    ['a path escaping the root', ['call', 'read_file', '{"filePath":"../../etc/passwd"}'], 'PathOutsideRoot'],
    [
      'lineStart > lineEnd',
      ['call', 'read_file', '{"filePath":"README.md","lineStart":3,"lineEnd":1}'],
      'InvalidArgument',
    ],
  ];
  it.each(invalid)('exits 2 with {"error":{code,message}} for %s', async (_n, args, code) => {
    const r = await inProcess([...args, '--root', root]);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.error.code).toBe(code);
    expect(typeof out.error.message).toBe('string');
  });

  it('refuses an unknown field (exit 2) before any index is built, and keeps aliases', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'quarry-strict-cache-'));
    const r = await inProcess(
      ['call', 'codebase_search', '{"query":"auth","maxresults":1}', '--root', root],
      {
        QUARRY_CACHE_DIR: cache,
      },
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        code: 'InvalidArgument',
        message:
          'Unknown field: maxresults (allowed: query, root, limit, include_content, file_extensions, path_filter, exclude_paths)',
        data: { field: 'maxresults' },
      },
    });
    expect(readdirSync(cache)).toEqual([]); // no index was refreshed (nor written)
    const typo = await inProcess([
      'call',
      'search_files',
      '{"path":".","regex":"TODO","file_patern":"*.ts"}',
      '--root',
      root,
    ]);
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stdout).error).toMatchObject({
      message: 'Unknown field: file_patern (allowed: path, regex, file_pattern)',
      data: { field: 'file_patern' },
    });
    const alias = await inProcess([
      'call',
      'search_corpus',
      '{"corpus_path":"src","query":"TODO"}',
      '--root',
      root,
    ]);
    expect(alias.code).toBe(0);
    expect(JSON.parse(alias.stdout).result.total).toBeGreaterThan(0);
  });

  it('exits 2 without a root and for a root that does not exist', () => {
    const none = quarry(['call', 'code_search', '{"query":"x"}']);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout).error.message).toMatch(/--root/);
    const missing = quarry(['call', 'code_search', '{"query":"x"}', '--root', path.join(root, 'nope')]);
    expect(missing.code).toBe(2);
  });
});

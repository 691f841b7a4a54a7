import { describe, expect, it } from 'vitest';
import { fixtureTree } from '../../../test/fixtures/repo';
import { QuarryError } from '../errors';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool, describeTools } from '.';
import { SEARCH_FILES_NOTICE } from './search-files';

const ws = (tree: MemoryTree = fixtureTree()) => ({
  workspace: new Workspace([new MemorySource(tree, { name: 'repo', absoluteRoot: '/work/repo' })]),
});

async function expectError(p: Promise<unknown>, code: string, field?: string, message?: string | RegExp) {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(QuarryError);
    const qe = e as QuarryError;
    expect(qe.code).toBe(code);
    if (field) expect(qe.data.field).toBe(field);
    if (typeof message === 'string') expect(qe.message).toBe(message);
    else if (message) expect(qe.message).toMatch(message);
    return qe;
  }
  throw new Error('expected an error');
}

describe('tool registry', () => {
  it('describes every tool with a JSON schema', () => {
    const tools = describeTools();
    expect(tools.map((t) => t.name)).toEqual([
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
    ]);
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.inputSchema.type).toBe('object');
    }
  });
  it('refuses an unknown tool', async () => {
    await expectError(callTool('nope', {}, ws()), 'InvalidArgument', 'tool');
  });
  it('refuses arguments that are not an object', async () => {
    await expectError(callTool('code_search', [1], ws()), 'InvalidArgument', '(arguments)');
    await expectError(callTool('code_search', 'x', ws()), 'InvalidArgument', '(arguments)');
  });
});

describe('code_search (seed 000)', () => {
  it('returns {matches:[{path,line,content}], total} with total counting every match', async () => {
    const r = (await callTool('code_search', { query: 'TODO' }, ws())) as any;
    expect(r.matches).toHaveLength(10); // default maxResults
    expect(r.total).toBeGreaterThan(10);
    expect(r.truncated).toBe(true);
    expect(r.matches[0]).toEqual({ path: 'README.md', line: 3, content: 'TODO: write the docs' });
    for (const m of r.matches) expect(Object.keys(m).sort()).toEqual(['content', 'line', 'path']);
  });
  it('filters by fileType (with or without dot) and honours maxResults', async () => {
    const r = (await callTool('code_search', { query: 'TODO', fileType: 'ts', maxResults: 20 }, ws())) as any;
    expect(r.matches.map((m: any) => `${m.path}:${m.line}`)).toEqual([
      'packages/a/sub/local.ts:1',
      'src/app.ts:3',
      'src/auth.ts:14',
      'src/auth.ts:16',
      'src/crlf.ts:2',
      'src/util/strings.ts:6',
    ]);
    expect(r.total).toBe(6);
    expect(r.truncated).toBe(false);
    const dotted = (await callTool(
      'code_search',
      { query: 'TODO', fileType: '.ts', maxResults: 20 },
      ws(),
    )) as any;
    expect(dotted.total).toBe(6);
    const one = (await callTool(
      'code_search',
      { query: 'TODO', fileType: 'ts', maxResults: 1 },
      ws(),
    )) as any;
    expect(one.matches).toHaveLength(1);
    expect(one.total).toBe(6);
  });
  it('searches regexes (Rust syntax)', async () => {
    const r = (await callTool(
      'code_search',
      { query: 'function\\s+calculate\\w+', fileType: 'ts' },
      ws(),
    )) as any;
    expect(r.matches.map((m: any) => m.line)).toEqual([4, 10]);
    expect(r.mode).toBe('regex');
  });
  it('searches an invalid regex as literal text and says so', async () => {
    const tree = { 'a.ts': 'const x = foo(bar;\nfoo(\n' };
    const r = (await callTool('code_search', { query: 'foo(' }, ws(tree))) as any;
    expect(r.mode).toBe('literal');
    expect(r.note).toMatch(/not a valid regex/);
    expect(r.matches.map((m: any) => m.line)).toEqual([1, 2]);
    expect(r.total).toBe(2);
  });
  it('is case-sensitive like ripgrep', async () => {
    const r = (await callTool('code_search', { query: 'todo', fileType: 'ts' }, ws())) as any;
    expect(r.matches.map((m: any) => m.path)).toEqual(['src/util/strings.ts']);
  });
  const bad: Array<[string, unknown, string, string]> = [
    ['missing query', {}, 'query', 'Missing required field: query'],
    ['query not a string', { query: 3 }, 'query', 'query must be a string'],
    ['blank query', { query: '  ' }, 'query', 'query must not be empty'],
    ['maxResults 0', { query: 'x', maxResults: 0 }, 'maxResults', 'maxResults must be an integer >= 1'],
    [
      'maxResults not an integer',
      { query: 'x', maxResults: 2.5 },
      'maxResults',
      'maxResults must be an integer >= 1',
    ],
    [
      'fileType with a slash',
      { query: 'x', fileType: 'a/b' },
      'fileType',
      'fileType must be a file extension without dot, got "a/b"',
    ],
    ['fileType not a string', { query: 'x', fileType: 1 }, 'fileType', 'fileType must be a string'],
  ];
  it.each(bad)('rejects %s', async (_n, args, field, message) => {
    await expectError(callTool('code_search', args, ws()), 'InvalidArgument', field, message);
  });
});

describe('search_files (seed 001)', () => {
  it('prints the seed format: headers, padded numbers, merged blocks, separators', async () => {
    const out = await callTool('search_files', { path: 'src', regex: 'TODO', file_pattern: '*.ts' }, ws());
    expect(out).toBe(
      [
        '# src/app.ts',
        '  2 | ',
        '  3 | // TODO: support discounts',
        '  4 | export function calculateTotal(items: number[]): number {',
        '----',
        '',
        '# src/auth.ts',
        ' 13 | // Some code here',
        ' 14 | // TODO: Add proper validation',
        ' 15 | function validateUser(credentials: Credentials) {',
        ' 16 |   // TODO: Implement rate limiting',
        ' 17 |   return checkDatabase(credentials);',
        '----',
        '',
        '# src/crlf.ts',
        '  1 | const a = 1;',
        '  2 | const b = 2; // TODO crlf',
        '----',
        '',
        '# src/util/strings.ts',
        "  5 | export const SNAKE_CASE_NAME = 'getUserById';",
        '  6 | export const todoCount = 0; // not a TODO marker: lower case',
        '----',
      ].join('\n'),
    );
  });
  it('expands braces in file_pattern and keeps separate blocks apart', async () => {
    const out = (await callTool(
      'search_files',
      { path: '.', regex: 'TODO|FIXME', file_pattern: '*.{js,ts}' },
      ws(),
    )) as string;
    expect(out).toContain(
      '# src/legacy.js\n  1 | var x = 1; // TODO remove\n  2 | module.exports = x;\n----',
    );
    // line 3 (TODO) and line 11 (FIXME) of app.ts are far apart: two blocks
    expect(out).toContain(
      ' 10 | export function calculateTax(total: number): number {\n 11 |   // FIXME: tax rate is hard-coded\n 12 |   return total * 0.2;\n----',
    );
    expect(out).not.toContain('README.md');
  });
  it('caps at 300 results with the seed notice', async () => {
    const tree: MemoryTree = {
      'many.ts': Array.from({ length: 400 }, (_, i) => `hit ${i}`).join('\n') + '\n',
    };
    const out = (await callTool('search_files', { path: '.', regex: 'hit' }, ws(tree))) as string;
    const numbered = out.split('\n').filter((l) => / \| hit /.test(l));
    expect(numbered).toHaveLength(301); // 300 matches + 1 line of context after the last
    expect(out.endsWith(`\n\n${SEARCH_FILES_NOTICE}`)).toBe(true);
    expect(SEARCH_FILES_NOTICE).toBe(
      '# Showing first 300 of 300+ results. Use a more specific search if necessary.',
    );
    const few = (await callTool('search_files', { path: '.', regex: 'hit 1\\b' }, ws(tree))) as string;
    expect(few).not.toContain('Showing first');
  });
  describe('the 300-result cap (a result is a matching line)', () => {
    const lines = (n: number, line: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';
    /** `n` matches on every other line: context lines never match, so matching rows are results. */
    const spaced = (n: number, from = 0) => lines(2 * n, (i) => (i % 2 ? 'quiet' : `hit ${from + i / 2}`));
    const run = async (tree: MemoryTree) => {
      const out = (await callTool('search_files', { path: '.', regex: 'hit' }, ws(tree))) as string;
      return { out, results: out.split('\n').filter((l) => /^ *\d+ \| hit /.test(l)).length };
    };
    const onePerFile = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`f${String(i).padStart(3, '0')}.ts`, `hit ${i}\n`]),
      );

    it.each<[string, MemoryTree]>([
      ['557 in one file', { 'a.ts': spaced(557) }],
      [
        '557 over two files, the 300th the last of the first',
        { 'a.ts': spaced(300), 'b.ts': spaced(257, 300) },
      ],
      ['557 files of one match each', onePerFile(557)],
    ])('557 matches (%s): the first 300, then a blank line and the notice', async (_name, tree) => {
      const { out, results } = await run(tree);
      expect(results).toBe(300);
      expect(out).toContain('hit 299\n');
      expect(out).not.toMatch(/\| hit 300$/m);
      expect(out.endsWith(`----\n\n${SEARCH_FILES_NOTICE}`)).toBe(true);
      expect(out.split(SEARCH_FILES_NOTICE)).toHaveLength(2); // once
    });
    it.each<[string, MemoryTree]>([
      ['in one file', { 'a.ts': spaced(300) }],
      ['over two files', { 'a.ts': spaced(150), 'b.ts': spaced(150, 150) }],
      ['one per file', onePerFile(300)],
    ])('exactly 300 matches (%s): all of them, no notice', async (_name, tree) => {
      const { out, results } = await run(tree);
      expect(results).toBe(300);
      expect(out).not.toContain('Showing first');
      expect(out.endsWith('----')).toBe(true);
    });
    it.each<[string, MemoryTree]>([
      ['in one file', { 'a.ts': spaced(301) }],
      ['the 301st alone in a second file', { 'a.ts': spaced(300), 'b.ts': spaced(1, 300) }],
      ['one per file', onePerFile(301)],
    ])('301 matches (%s): 300 of them and the notice', async (_name, tree) => {
      const { out, results } = await run(tree);
      expect(results).toBe(300);
      expect(out.endsWith(`----\n\n${SEARCH_FILES_NOTICE}`)).toBe(true);
    });
    it('stops reading files once a 301st match is found', async () => {
      const source = new MemorySource(onePerFile(557), { name: 'repo', absoluteRoot: '/work/repo' });
      const read = new Set<string>();
      const readOne = source.read.bind(source);
      source.read = (p: string) => (read.add(p), readOne(p));
      const out = (await callTool(
        'search_files',
        { path: '.', regex: 'hit' },
        { workspace: new Workspace([source]) },
      )) as string;
      expect(out.endsWith(SEARCH_FILES_NOTICE)).toBe(true);
      expect(read.size).toBe(301);
    });
  });
  it('cuts lines over 500 characters with [truncated...]', async () => {
    const long = 'x'.repeat(600);
    const out = (await callTool(
      'search_files',
      { path: '.', regex: 'x+' },
      ws({ 'l.txt': long + '\n' }),
    )) as string;
    expect(out).toBe(`# l.txt\n  1 | ${'x'.repeat(500)} [truncated...]\n----`);
  });
  it('answers "No results found" when nothing matches', async () => {
    expect(await callTool('search_files', { path: '.', regex: 'zzz_nothing' }, ws())).toBe(
      'No results found',
    );
  });
  it('rejects bad input naming the field', async () => {
    await expectError(callTool('search_files', { regex: 'x' }, ws()), 'InvalidArgument', 'path');
    await expectError(callTool('search_files', { path: '.' }, ws()), 'InvalidArgument', 'regex');
    await expectError(callTool('search_files', { path: '.', regex: '(unclosed' }, ws()), 'InvalidPattern');
    await expectError(
      callTool('search_files', { path: '.', regex: 'x', file_pattern: '*.{ts' }, ws()),
      'InvalidGlob',
      'file_pattern',
    );
    await expectError(
      callTool('search_files', { path: '../outside', regex: 'x' }, ws()),
      'PathOutsideRoot',
      'path',
    );
    await expectError(callTool('search_files', { path: 'no/such/dir', regex: 'x' }, ws()), 'NotFound');
  });
});

describe('search_corpus (seed 002)', () => {
  // The seed's seven suggested tests, over a fixture with a .git directory.
  const corpus = (): MemoryTree => ({
    'pkg/agent.py': 'class Agent:\n    def run(self):\n        pass\n\n    def stop(self):\n        pass\n',
    'pkg/other.py': 'from agent import Agent\nclass AgentFactory:\n    pass\n',
    '.git/objects/ab': 'class Agent: in git internals\n',
    'huge.py': 'class Agent:\n' + '#'.repeat(600_000) + '\n',
    'many.txt': Array.from({ length: 100 }, (_, i) => `needle ${i}`).join('\n') + '\n',
    'case.txt': 'Needle\nneedle\nNEEDLE\n',
  });
  const run = (args: Record<string, unknown>) =>
    callTool('search_corpus', args, ws(corpus())) as Promise<any>;

  it('test_search_corpus_literal_match: matches "class Agent" in a known file', async () => {
    const r = await run({ path: 'pkg', pattern: 'class Agent' });
    expect(r.success).toBe(true);
    expect(r.result.matches.map((m: any) => [m.file, m.line])).toEqual([
      ['pkg/agent.py', 1],
      ['pkg/other.py', 2],
    ]);
    expect(r.result.matches[0]).toEqual({
      file: 'pkg/agent.py',
      line: 1,
      content: 'class Agent:',
      context_before: [],
      context_after: ['    def run(self):', '        pass'],
    });
  });
  it('test_search_corpus_regex_mode: def .*\\(self\\) finds methods', async () => {
    const r = await run({ path: '.', pattern: 'def .*\\(self\\)', mode: 'regex' });
    expect(r.result.matches.map((m: any) => m.content.trim())).toEqual(['def run(self):', 'def stop(self):']);
    expect(r.result.matches[1].context_before).toEqual(['        pass', '']);
  });
  it('test_search_corpus_skips_dot_git: .git is never searched', async () => {
    const r = await run({ path: '.', pattern: 'class Agent', max_file_size: 10_000_000 });
    expect(r.result.matches.some((m: any) => m.file.startsWith('.git/'))).toBe(false);
    expect(r.result.files_searched).toBe(5); // agent.py, other.py, huge.py, many.txt, case.txt
  });
  it('test_search_corpus_max_results_truncation: 100 matches with max_results=10', async () => {
    const r = await run({
      path: '.',
      pattern: 'needle',
      case_sensitive: true,
      max_results: 10,
      file_glob: 'many.txt',
    });
    expect(r.result.matches).toHaveLength(10);
    expect(r.result.truncated).toBe(true);
    expect(r.result.total).toBe(100);
  });
  it('test_search_corpus_max_file_size_skips_huge_files', async () => {
    const r = await run({ path: '.', pattern: 'class Agent' });
    expect(r.result.matches.some((m: any) => m.file === 'huge.py')).toBe(false);
    expect(r.result.files_skipped).toBe(1);
    const big = await run({ path: '.', pattern: 'class Agent', max_file_size: 700_000 });
    expect(big.result.matches.some((m: any) => m.file === 'huge.py')).toBe(true);
    expect(big.result.files_skipped).toBe(0);
  });
  it('test_search_corpus_case_sensitivity: same query, two flag values, two counts', async () => {
    const insensitive = await run({ path: '.', pattern: 'needle', file_glob: 'case.txt' });
    const sensitive = await run({
      path: '.',
      pattern: 'needle',
      file_glob: 'case.txt',
      case_sensitive: true,
    });
    expect(insensitive.result.total).toBe(3);
    expect(sensitive.result.total).toBe(1);
  });
  it('test_search_corpus_field_aliases: corpus_path and query (and search) are accepted', async () => {
    const a = await run({ corpus_path: 'pkg', query: 'class Agent' });
    const b = await run({ corpus_path: 'pkg', search: 'class Agent' });
    const c = await run({ path: 'pkg', pattern: 'class Agent' });
    expect(a.result.matches).toEqual(c.result.matches);
    expect(b.result.matches).toEqual(c.result.matches);
  });
  it('has every result field and a readable text_view', async () => {
    const r = await run({ path: 'pkg', pattern: 'Agent', context_lines: 1 });
    expect(Object.keys(r.result).sort()).toEqual([
      'files_searched',
      'files_skipped',
      'matches',
      'text_view',
      'total',
      'truncated',
    ]);
    expect(r.result.text_view).toBe(
      [
        '3 matches.',
        'pkg/agent.py:1:class Agent:',
        'pkg/agent.py-2-    def run(self):',
        '--',
        'pkg/other.py:1:from agent import Agent',
        'pkg/other.py:2:class AgentFactory:',
        'pkg/other.py-3-    pass',
      ].join('\n'),
    );
  });
  it('treats the pattern literally by default', async () => {
    const r = (await callTool(
      'search_corpus',
      { path: '.', pattern: 'a.b' },
      ws({ 'x.txt': 'a.b\naxb\n' }),
    )) as any;
    expect(r.result.total).toBe(1);
  });
  const bad: Array<[string, Record<string, unknown>, string, string]> = [
    ['missing path', { pattern: 'x' }, 'InvalidArgument', 'path'],
    ['missing pattern', { path: '.' }, 'InvalidArgument', 'pattern'],
    ['bad mode', { path: '.', pattern: 'x', mode: 'fuzzy' }, 'InvalidArgument', 'mode'],
    ['negative context', { path: '.', pattern: 'x', context_lines: -1 }, 'InvalidArgument', 'context_lines'],
    ['zero max_results', { path: '.', pattern: 'x', max_results: 0 }, 'InvalidArgument', 'max_results'],
    [
      'non-boolean case_sensitive',
      { path: '.', pattern: 'x', case_sensitive: 'yes' },
      'InvalidArgument',
      'case_sensitive',
    ],
    ['bad glob', { path: '.', pattern: 'x', file_glob: '[a' }, 'InvalidGlob', 'file_glob'],
    ['escaping path', { path: '../..', pattern: 'x' }, 'PathOutsideRoot', 'path'],
  ];
  it.each(bad)('rejects %s', async (_n, args, code, field) => {
    await expectError(run(args), code, field);
  });
  it('rejects an invalid regex in regex mode', async () => {
    await expectError(run({ path: '.', pattern: '(x', mode: 'regex' }), 'InvalidPattern');
  });
});

describe('read_file (seed 000)', () => {
  it('reads a whole file with every seed field', async () => {
    const r = (await callTool('read_file', { filePath: 'src/util/strings.ts' }, ws())) as any;
    expect(r).toEqual({
      content: fixtureTree()['src/util/strings.ts'].toString().replace(/\n$/, ''),
      filePath: 'src/util/strings.ts',
      absolutePath: '/work/repo/src/util/strings.ts',
      lineStart: 1,
      lineEnd: 6,
      totalLines: 6,
      found: true,
    });
  });
  it('reads a 1-based inclusive range, clamped to the end', async () => {
    const r = (await callTool(
      'read_file',
      { filePath: 'src/app.ts', lineStart: 3, lineEnd: 4 },
      ws(),
    )) as any;
    expect(r.content).toBe(
      '// TODO: support discounts\nexport function calculateTotal(items: number[]): number {',
    );
    expect([r.lineStart, r.lineEnd, r.totalLines]).toEqual([3, 4, 15]);
    const tail = (await callTool(
      'read_file',
      { filePath: 'src/app.ts', lineStart: 15, lineEnd: 99 },
      ws(),
    )) as any;
    expect([tail.lineStart, tail.lineEnd, tail.content]).toEqual([
      15,
      15,
      'export const label = formatMoney(calculateTotal([1, 2, 3]));',
    ]);
  });
  it('accepts absolute paths under the root and ./ prefixes, strips CR', async () => {
    const r = (await callTool('read_file', { filePath: '/work/repo/src/crlf.ts' }, ws())) as any;
    expect(r.content).toBe('const a = 1;\nconst b = 2; // TODO crlf');
    const dotted = (await callTool('read_file', { filePath: './src/../src/crlf.ts' }, ws())) as any;
    expect(dotted.filePath).toBe('src/crlf.ts');
  });
  it('answers found:false for a missing file', async () => {
    const r = (await callTool('read_file', { filePath: 'src/missing.ts' }, ws())) as any;
    expect(r).toMatchObject({ found: false, content: '', filePath: 'src/missing.ts', totalLines: 0 });
  });
  it('decodes UTF-16 and flags binary files', async () => {
    const u = (await callTool('read_file', { filePath: 'encodings/utf16le.txt' }, ws())) as any;
    expect(u.content).toBe('hello TODO utf16le\nsecond line');
    const b = (await callTool('read_file', { filePath: 'assets/logo.png' }, ws())) as any;
    expect(b).toMatchObject({ found: true, binary: true, content: '' });
  });
  const bad: Array<[string, Record<string, unknown>, string, string]> = [
    ['missing filePath', {}, 'InvalidArgument', 'filePath'],
    [
      'lineStart > lineEnd',
      { filePath: 'src/app.ts', lineStart: 5, lineEnd: 2 },
      'InvalidArgument',
      'lineStart',
    ],
    ['lineStart 0', { filePath: 'src/app.ts', lineStart: 0 }, 'InvalidArgument', 'lineStart'],
    ['lineEnd not an integer', { filePath: 'src/app.ts', lineEnd: '3' }, 'InvalidArgument', 'lineEnd'],
    ['lineStart past the end', { filePath: 'src/app.ts', lineStart: 99 }, 'InvalidArgument', 'lineStart'],
    ['path escaping the root', { filePath: '../etc/passwd' }, 'PathOutsideRoot', 'filePath'],
    ['absolute path outside the root', { filePath: '/etc/passwd' }, 'PathOutsideRoot', 'filePath'],
    ['a directory', { filePath: 'src' }, 'InvalidArgument', 'filePath'],
  ];
  it.each(bad)('rejects %s', async (_n, args, code, field) => {
    await expectError(callTool('read_file', args, ws()), code, field);
  });
});

describe('list_directory (seed 000)', () => {
  it('lists one level with the seed item shape, under the walk policy', async () => {
    const r = (await callTool('list_directory', { directoryPath: 'src' }, ws())) as any;
    expect(r).toMatchObject({ directoryPath: 'src', absolutePath: '/work/repo/src', found: true, count: 5 });
    expect(r.items).toEqual([
      { name: 'app.ts', path: 'src/app.ts', type: 'file', isFile: true, isDirectory: false },
      { name: 'auth.ts', path: 'src/auth.ts', type: 'file', isFile: true, isDirectory: false },
      { name: 'crlf.ts', path: 'src/crlf.ts', type: 'file', isFile: true, isDirectory: false },
      { name: 'legacy.js', path: 'src/legacy.js', type: 'file', isFile: true, isDirectory: false },
      { name: 'util', path: 'src/util', type: 'directory', isFile: false, isDirectory: true },
    ]);
  });
  it('lists recursively, leaving out noisy and ignored paths', async () => {
    const r = (await callTool('list_directory', { directoryPath: '.', recursive: true }, ws())) as any;
    const paths = r.items.map((i: any) => i.path);
    expect(paths).toContain('src/util');
    expect(paths).toContain('src/util/strings.ts');
    expect(paths).toContain('big/huge.txt'); // large files are listed, just not searched
    expect(paths).not.toContain('node_modules');
    expect(paths).not.toContain('debug.log');
    expect(paths.some((p: string) => p === '.git' || p.startsWith('.git/'))).toBe(false);
    expect(paths).toContain('.gitignore');
    expect(r.count).toBe(r.items.length);
  });
  it('answers found:false for a missing directory', async () => {
    const r = (await callTool('list_directory', { directoryPath: 'nope' }, ws())) as any;
    expect(r).toMatchObject({ found: false, count: 0, items: [] });
  });
  it('rejects a file, an escaping path and a missing field', async () => {
    await expectError(
      callTool('list_directory', { directoryPath: 'src/app.ts' }, ws()),
      'InvalidArgument',
      'directoryPath',
    );
    await expectError(
      callTool('list_directory', { directoryPath: '../x' }, ws()),
      'PathOutsideRoot',
      'directoryPath',
    );
    await expectError(callTool('list_directory', {}, ws()), 'InvalidArgument', 'directoryPath');
    await expectError(
      callTool('list_directory', { directoryPath: 'src', recursive: 'yes' }, ws()),
      'InvalidArgument',
      'recursive',
    );
  });
});

describe('several roots', () => {
  it('prefixes paths with the root name', async () => {
    const two = {
      workspace: new Workspace([
        new MemorySource({ 'a.ts': 'TODO a\n' }, { name: 'web' }),
        new MemorySource({ 'b.ts': 'TODO b\n' }, { name: 'api' }),
      ]),
    };
    const r = (await callTool('code_search', { query: 'TODO' }, two)) as any;
    expect(r.matches.map((m: any) => m.path)).toEqual(['web/a.ts', 'api/b.ts']);
    const f = (await callTool('read_file', { filePath: 'api/b.ts' }, two)) as any;
    expect(f.content).toBe('TODO b');
    const l = (await callTool('list_directory', { directoryPath: '.' }, two)) as any;
    expect(l.items.map((i: any) => i.path)).toEqual(['web', 'api']);
  });
});

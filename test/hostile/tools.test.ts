/**
 * Issue #14 through every tool, in process, over the hostile repository (fixture.testutil.ts):
 * nothing outside the root, nothing hangs, no entry stops a search, every listed path reads back.
 * The permission rows (EACCES, a locked directory) run as `nobody` in cli.test.ts.
 */
import { spawnSync } from 'node:child_process';
import * as nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { sharedSourceParsers } from '../../src/core/analyze/parsers';
import { MemoryIndexStore } from '../../src/core/rank/persist';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { MAX_PATH_CHARS, MAX_QUERY_CHARS, READ_FILE_MAX_BYTES } from '../../src/core/limits';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import type { ToolContext } from '../../src/core/tools/types';
import { rejectionOf } from '../rejection';
import {
  BIG_LOG_LINES,
  bigLogLine,
  buildHostileRepo,
  HOSTILE_NAMES,
  SECRET,
  WIDE_FILES,
  type HostileRepo,
} from './fixture.testutil';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';

const BIN = nodePath.resolve(__dirname, '../../bin/quarry.mjs');
const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
let repo: HostileRepo;
let source: NodeFsSource & { wholeReads: string[] };
let ctx: ToolContext;
let seedIndex: CodebaseIndexService;

class CountingSource extends NodeFsSource {
  wholeReads: string[] = [];
  override async read(rel: string): Promise<Uint8Array> {
    this.wholeReads.push(rel);
    return super.read(rel);
  }
}

beforeAll(() => {
  repo = buildHostileRepo();
  source = new CountingSource(repo.root);
  const workspace = new Workspace([source]);
  seedIndex = new CodebaseIndexService(workspace, new MemoryIndexStore());
  ctx = {
    workspace,
    roots: seedOnlyRoots(seedIndex),
    parsers: () => sharedSourceParsers(nodeGrammarLoader),
  };
}, 120_000);
afterAll(() => repo?.cleanup());

const call = (tool: string, args: unknown) => callTool(tool, args, ctx) as Promise<any>;

describe('row 1: nothing outside the root is read or listed', () => {
  it.each([
    ['outside_link/secret.ts'],
    ['secret_link.ts'],
    ['src/relative_secret.ts'],
    ['root_link/etc/passwd'],
    ['inside_link/../outside_link/secret.ts'],
  ])('read_file %s is refused (PathOutsideRoot)', async (filePath) => {
    const err = await rejectionOf(call('read_file', { filePath }));
    expect(err.code).toBe('PathOutsideRoot');
    expect(err.message).not.toContain(SECRET);
  });

  it('links that stay inside are followed', async () => {
    expect(
      (await call('read_file', { filePath: 'inside_link/app.ts', lineStart: 1, lineEnd: 1 })).content,
    ).toBe('export function validateUser(name: string) {');
    expect((await call('read_file', { filePath: 'src/app_alias.ts' })).found).toBe(true);
  });

  it('list_directory leaves the outside links out and says why; listing through one is refused', async () => {
    const listing = await call('list_directory', { directoryPath: '', recursive: true });
    const paths: string[] = listing.items.map((i: any) => i.path);
    expect(paths).toContain('inside_link/app.ts');
    expect(
      paths.some(
        (p) =>
          p.startsWith('root_link') ||
          p.startsWith('outside_link') ||
          p === 'secret_link.ts' ||
          p === 'zero_link',
      ),
    ).toBe(false);
    const outside = listing.skipped.filter((s: any) => s.reason === 'outsideRoot').map((s: any) => s.path);
    expect(outside.sort()).toEqual([
      'inside_link/relative_secret.ts',
      'outside_link',
      'root_link',
      'secret_link.ts',
      'src/relative_secret.ts',
      'zero_link',
    ]);
    expect((await rejectionOf(call('list_directory', { directoryPath: 'root_link/etc' }))).code).toBe(
      'PathOutsideRoot',
    );
  });

  it('no search finds text that lives outside the root', async () => {
    expect((await call('code_search', { query: SECRET })).total).toBe(0);
    expect((await call('search_files', { path: '.', regex: SECRET })).toString()).toContain(
      'No results found',
    );
    const corpus = await call('search_corpus', { path: '.', pattern: SECRET });
    expect(corpus.result.total).toBe(0);
    expect(corpus.result.files_skipped).toBeGreaterThanOrEqual(3); // the outside links, counted
    const ranked = await call('codebase_search', { query: SECRET });
    expect(JSON.stringify(ranked.results)).not.toContain(SECRET);
  });
});

describe('the analyzers over the hostile repository', () => {
  it('find_components, get_routes and feature_status answer, and nothing of theirs comes from outside the root', async () => {
    const outside = ['outside_link', 'root_link', 'secret_link.ts', 'relative_secret.ts', 'zero_link'];
    const answers = [
      await call('find_components', {}),
      await call('get_routes', {}),
      await call('feature_status', { featureName: 'marker', includeInventory: true }),
    ];
    for (const a of answers) {
      const text = JSON.stringify(a);
      expect(text).not.toContain(SECRET);
      for (const o of outside) expect(text).not.toContain(`"${o}`);
    }
    await expect(rejectionOf(call('find_components', { directory: 'root_link/etc' }))).resolves.toMatchObject(
      { code: 'PathOutsideRoot' },
    );
  });
});

describe('row 1, later: a directory swapped for a link after it was read', () => {
  it('a read through it is refused, though the directory was checked before (the kernel says where the file is)', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = path.join(repo.root, 'swap');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'secret.ts'), 'inside\n');
    try {
      expect((await call('read_file', { filePath: 'swap/secret.ts' })).content).toBe('inside');
      fs.rmSync(dir, { recursive: true });
      fs.symlinkSync(repo.outside, dir); // outside/secret.ts exists there too
      const err = await rejectionOf(call('read_file', { filePath: 'swap/secret.ts' }));
      expect(err.code).toBe('PathOutsideRoot');
      expect(JSON.stringify(err)).not.toContain(SECRET);
      // the adapter alone, with its directory check still cached: the kernel's answer after opening refuses it
      fs.rmSync(dir);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'secret.ts'), 'inside\n');
      const fresh = new NodeFsSource(repo.root);
      expect(new TextDecoder().decode(await fresh.read('swap/secret.ts'))).toBe('inside\n');
      fs.rmSync(dir, { recursive: true });
      fs.symlinkSync(repo.outside, dir);
      expect((await rejectionOf(fresh.read('swap/secret.ts'))).code).toBe('PathOutsideRoot');
      fresh.forgetChecks();
      expect((await rejectionOf(fresh.readTransient('swap/secret.ts'))).code).toBe('PathOutsideRoot');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('row 7, the other way: a backslash path with .. is never read literally', () => {
  it('..\\ climbs (refused), and a\\b/../c means a/c', () => {
    const ws = ctx.workspace;
    expect(() => ws.resolveAll('..\\..\\outside\\secret.ts', 'filePath')).toThrow(/escapes the root/);
    expect(ws.resolveAll('src\\lib/../app.ts', 'filePath').map((c) => c.rel)).toEqual(['src/app.ts']);
    expect(ws.resolveAll('names\\x.ts', 'filePath').map((c) => c.rel)).toEqual(['names\\x.ts', 'names/x.ts']);
  });
});

describe('row 2: a FIFO is refused at once', () => {
  // in a child process: before the fix the open blocked the whole thread, so no test timeout could fire
  it.skipIf(!HAS_MKFIFO)(
    'read_file on a FIFO answers with a reason (and does not hang)',
    () => {
      const r = spawnSync(
        process.execPath,
        [BIN, 'call', 'read_file', '{"filePath":"pipe.ts"}', '--root', repo.root, '--no-cache'],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      );
      expect(r.signal, 'the read hung').toBeNull();
      expect(r.status).toBe(2);
      const err = JSON.parse(r.stdout).error;
      expect(err).toMatchObject({ code: 'InvalidArgument', data: { reason: 'notRegular' } });
      expect(err.message).toContain('not a regular file (FIFO)');
    },
    30_000,
  );

  it.skipIf(!HAS_MKFIFO)(
    'a walk lists the FIFO as skipped (not a regular file) and goes on',
    async () => {
      const corpus = await call('search_corpus', { path: '.', pattern: 'validateUser' });
      expect(corpus.result.total).toBeGreaterThan(0);
      const listing = await call('list_directory', { directoryPath: '' });
      expect(listing.skipped.map((s: any) => [s.path, s.reason])).toContainEqual(['pipe.ts', 'notRegular']);
    },
    10_000,
  );
});

describe('row 4: read_file on a large file', () => {
  it('a line range streams the file: the lines asked, the exact total, no whole read', async () => {
    source.wholeReads.length = 0;
    const r = await call('read_file', { filePath: 'logs/big.log', lineStart: 500_000, lineEnd: 500_001 });
    expect(r.content).toBe(`${bigLogLine(500_000)}\n${bigLogLine(500_001)}`);
    expect(r).toMatchObject({ lineStart: 500_000, lineEnd: 500_001, totalLines: BIG_LOG_LINES, found: true });
    const tail = await call('read_file', { filePath: 'logs/big.log', lineStart: BIG_LOG_LINES });
    expect(tail.content).toBe(bigLogLine(BIG_LOG_LINES));
    expect(source.wholeReads).not.toContain('logs/big.log');
    expect(
      (await rejectionOf(call('read_file', { filePath: 'logs/big.log', lineStart: BIG_LOG_LINES + 1 })))
        .message,
    ).toContain('past the end');
  });

  it('a whole read over the cap is refused with a message that suggests a line range', async () => {
    const err = await rejectionOf(call('read_file', { filePath: 'logs/big.log' }));
    expect(err.code).toBe('InvalidArgument');
    expect(err.message).toContain(`over read_file's limit of ${READ_FILE_MAX_BYTES} bytes`);
    expect(err.message).toContain('ask for a line range (lineStart, lineEnd)');
  });
});

describe('row 6: a folder of 20,000 files', () => {
  it('list_directory says it was truncated, with the total', async () => {
    const r = await call('list_directory', { directoryPath: 'wide' });
    expect(r).toMatchObject({ count: 10_000, truncated: true, total: WIDE_FILES });
    expect(r.items[0].path).toBe('wide/f00000.txt');
    const all = await call('list_directory', { directoryPath: '', recursive: true });
    expect(all.truncated).toBe(true);
    expect(all.total).toBeGreaterThan(WIDE_FILES);
  });
});

describe('row 7: every listed path can be passed back to every tool', () => {
  it('each hostile name reads, searches and relates under the path it is listed as', async () => {
    const listed: string[] = (await call('list_directory', { directoryPath: 'names' })).items.map(
      (i: any) => i.path,
    );
    expect(listed.sort()).toEqual(HOSTILE_NAMES.map((n) => `names/${n}`).sort());
    const found: string[] = (
      await call('code_search', { query: 'hostile-name-marker', maxResults: 50 })
    ).matches.map((m: any) => m.path);
    expect(found.sort()).toEqual(listed.sort());
    for (const p of listed) {
      const r = await call('read_file', { filePath: p });
      expect(r, p).toMatchObject({
        found: true,
        filePath: p,
        content: "export const marker = 'hostile-name-marker';",
      });
      expect((await call('read_file', { filePath: r.absolutePath })).found, r.absolutePath).toBe(true);
      if (!p.endsWith('.ts')) continue; // seed 004 indexes code extensions only (not .exe)
      const related = await call('find_related', { path: p, line: 1 }).catch((e) => e);
      expect(related.results?.length, `${p}: ${related.message}`).toBeGreaterThan(0);
    }
    // the directory form of a backslash-named path, as a search scope
    const scoped = await call('search_corpus', { path: 'names', pattern: 'marker' });
    expect(scoped.result.matches.map((m: any) => m.path ?? m.file)).toHaveLength(HOSTILE_NAMES.length);
  });
});

describe('row 13: user mistakes get short, specific messages', () => {
  it.each([
    ['a NUL in filePath', { filePath: 'src/app.ts\u0000.png' }, 'filePath must not contain a NUL character'],
    [
      'a 5,000-character path',
      { filePath: 'a/'.repeat(2500) },
      `filePath is too long: 5000 characters (the limit is ${MAX_PATH_CHARS})`,
    ],
    [
      'a 100 KB path',
      { filePath: 'x'.repeat(100_000) },
      `filePath is too long: 100000 characters (the limit is ${MAX_QUERY_CHARS})`,
    ],
  ])('%s', async (_name, args, message) => {
    const err = await rejectionOf(call('read_file', args));
    expect(err).toMatchObject({ code: 'InvalidArgument', message });
  });

  it('a 40,000-character case-insensitive literal', async () => {
    const err = await rejectionOf(
      call('search_corpus', { path: '.', pattern: 'a'.repeat(40_000), case_sensitive: false }),
    );
    expect(err).toMatchObject({
      code: 'InvalidArgument',
      message: `pattern is too long: 40000 characters (the limit is ${MAX_QUERY_CHARS})`,
    });
  });

  it('a query at the cap is still answered', async () => {
    const r = await call('search_corpus', {
      path: '.',
      pattern: 'a'.repeat(MAX_QUERY_CHARS),
      case_sensitive: false,
    });
    expect(r.result.total).toBe(0);
  });
});

describe('the deep tree and the minified bundle', () => {
  it('a 20-level deep file is found; the 5 MB bundle is skipped as too large and counted', async () => {
    const found = await call('code_search', { query: 'deepest' });
    expect(found.matches[0].path).toBe(Array.from({ length: 20 }, (_, i) => `d${i}`).join('/') + '/deep.ts');
    const corpus = await call('search_corpus', {
      path: 'vendor',
      pattern: 'function m12345(',
      max_file_size: 1_000_000,
    });
    expect(corpus.result).toMatchObject({ total: 1, files_skipped: 1 }); // small.js found, bundle.min.js too large
    expect(
      (await call('code_search', { query: 'function m12345(' })).matches.map((m: any) => m.path),
    ).toEqual(['vendor/small.js']);
  });

  it('row 9: the 900 KB minified file is text only: no chunks, reported, never related', async () => {
    const stats = await seedIndex.refresh();
    expect(stats.skipped).toContainEqual(
      expect.objectContaining({ path: 'vendor/small.js', reason: 'minified' }),
    );
    const related = await call('find_related', { path: 'src/app.ts', line: 1, limit: 50 }).catch(() => ({
      results: [],
    }));
    expect(JSON.stringify(related.results)).not.toContain('vendor/small.js');
    const ranked = await call('codebase_search', { query: 'function return m12345', limit: 50 });
    expect(JSON.stringify(ranked.results)).not.toContain('vendor/small.js');
  });
});

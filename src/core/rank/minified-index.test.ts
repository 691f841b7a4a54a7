/**
 * A minified file in both indexes: no symbol chunks (so nothing of it in codebase_search or
 * find_related), reported as skipped with reason 'minified' on every refresh, and still found
 * by the text search.
 */
import { describe, expect, it } from 'vitest';
import { minifiedDetail } from '../chunk/minified';
import { oneLineBundle } from '../chunk/minified.testutil';
import type { Chunk } from '../chunk/types';
import { CodebaseIndexService } from '../codebase-index/service';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '../tools';
import { splitLinesForIndex } from './lines';
import { MemoryIndexStore } from './persist';
import { CodeIndexService, type ChunkerLike } from './service';
import { seedOnlyRoots } from '../workspace/roots.testutil';

const BUNDLE = oneLineBundle(1_048_000); // a 1 MB one-line minified file (under the 1 MiB walk limit)
const FILES: Record<string, string> = {
  'src/a.ts':
    'export function alpha() {\n  return a1 + a2 + a31337;\n}\n\nfunction beta() { return alpha(); }\n',
  'src/b.ts': 'export function gamma(x) {\n  return alpha() + x;\n}\n',
  'src/data.ts': `export const ROWS = [\n${Array.from({ length: 200 }, (_, i) => `  [${Array.from({ length: 400 }, (_, k) => i + k).join(', ')}],\n`).join('')}];\n\nexport function row(i) {\n  return ROWS[i];\n}\n`,
  'public/bundle.js': BUNDLE,
};
const SKIP = {
  path: 'public/bundle.js',
  reason: 'minified',
  detail: `1 line of ${BUNDLE.length.toLocaleString('en-US')} characters`,
};

describe('a minified file in the seed-004 index', () => {
  it('has no chunks, is reported as minified on every refresh, and never comes up in find_related or codebase_search', async () => {
    expect(BUNDLE.length).toBeGreaterThan(1_000_000);
    const source = new MemorySource({ ...FILES });
    const store = new MemoryIndexStore();
    const workspace = new Workspace([source]);
    const seedIndex = new CodebaseIndexService(workspace, store);
    const stats = await seedIndex.refresh();
    expect(stats.skipped).toEqual([SKIP]);
    expect(seedIndex.index!.chunksOf('public/bundle.js')).toEqual([]);
    expect(seedIndex.index!.paths()).toContain('public/bundle.js'); // in the table: not re-read until it changes
    expect(stats.chunksIndexed).toBe(5); // alpha, beta, gamma; ROWS and row: data.ts has long lines but is not minified
    expect(seedIndex.index!.chunksOf('src/data.ts').map((c) => c.symbolName)).toEqual(['ROWS', 'row']);

    const ctx = { workspace, roots: seedOnlyRoots(seedIndex) };
    const related = (await callTool('find_related', { path: 'src/a.ts', line: 2, limit: 50 }, ctx)) as {
      results: Array<{ path: string }>;
    };
    expect([...new Set(related.results.map((r) => r.path))].sort()).toEqual([
      'src/a.ts',
      'src/b.ts',
      'src/data.ts',
    ]);
    const search = (await callTool(
      'codebase_search',
      { query: 'function return a31337', limit: 50 },
      ctx,
    )) as { results: Array<{ path: string }> };
    expect(search.results.map((r) => r.path)).not.toContain('public/bundle.js');
    // the text search still finds text in it
    const text = (await callTool('code_search', { query: 'function a31337(' }, { workspace })) as {
      matches: Array<{ path: string }>;
    };
    expect(text.matches.map((m) => m.path)).toEqual(['public/bundle.js']);

    // loaded from the store: a cache hit that still says so
    const again = await new CodebaseIndexService(new Workspace([source]), store).refresh();
    expect(again).toMatchObject({ refreshMode: 'cache_hit', skipped: [SKIP] });
    // rewritten as readable code: chunked, no longer reported
    source.write('public/bundle.js', 'function one() {}\nfunction two() {}\n', Date.now() + 1000);
    const after = await seedIndex.refresh();
    expect(after).toMatchObject({ refreshMode: 'incremental', skipped: [] });
    expect(seedIndex.index!.chunksOf('public/bundle.js')).toHaveLength(2);
  });
});

describe("a minified file in Quarry's index", () => {
  it('never reaches the chunker, has no chunks, stays in the trigram index, and is reported as minified', async () => {
    const chunked: string[] = [];
    // a stand-in for the parsers: a chunk at each line's first `function NAME` (the parsers would find every one:
    // tens of thousands of chunks, each holding the whole 1 MB line)
    const chunker: ChunkerLike = {
      chunkFile(path, text) {
        chunked.push(path);
        const out: Chunk[] = [];
        splitLinesForIndex(text).forEach((line, i) => {
          const m = /function (\w+)/.exec(line);
          if (m)
            out.push({ path, startLine: i + 1, endLine: i + 1, symbolName: m[1], chunkType: 'function' });
        });
        return out;
      },
    };
    const source = new MemorySource({ ...FILES });
    const store = new MemoryIndexStore();
    const svc = new CodeIndexService(new Workspace([source]), async () => chunker, store);
    const stats = await svc.refresh();
    expect(chunked.sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/data.ts']);
    expect(stats.skipped).toEqual([SKIP]);
    expect(svc.index!.chunksOf('public/bundle.js')).toEqual([]);
    expect(svc.index!.search('a31337 return function', 50).map((h) => h.chunk.path)).toEqual([
      'src/a.ts',
      'src/a.ts',
      'src/b.ts',
      'src/data.ts',
    ]);
    const seed = svc.index!.chunkAt('src/a.ts', 1)!;
    expect(
      svc.index!.related(seed, 'export function alpha() return a1 a2 a31337', 50).map((r) => r.chunk.path),
    ).not.toContain('public/bundle.js');
    // text search: the trigram index holds it
    const pre = svc.prefilter()!;
    expect(pre.has('public/bundle.js')).toBe(true);
    expect([...(svc.trigrams!.candidates({ requiredLiterals: ['a31337('] }) ?? new Map()).keys()]).toEqual([
      'public/bundle.js',
    ]);

    const reopened = new CodeIndexService(new Workspace([source]), async () => chunker, store);
    expect(await reopened.refresh()).toMatchObject({ refreshMode: 'cache_hit', skipped: [SKIP] });
    expect(chunked).toHaveLength(3);
  });
});

describe('the detail', () => {
  it('is what minifiedDetail says', () => {
    expect(minifiedDetail('public/bundle.js', BUNDLE)).toBe(SKIP.detail);
  });
});

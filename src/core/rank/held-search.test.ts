/**
 * File contents held in memory (holdContents): an indexed search reads no file, answers exactly
 * as the scan does, follows a refresh's changes, fills after a reopen from the store, and past
 * its budget reads the files it does not hold.
 */
import { describe, expect, it } from 'vitest';
import { searchAll } from '../grep/search';
import type { GrepRequest } from '../grep/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { MemoryIndexStore } from './persist';
import { CodeIndexService } from './service';

const noChunks = async () => ({ chunkFile: () => [] });

/** A MemorySource that counts the reads of file contents. */
class CountingSource extends MemorySource {
  reads: string[] = [];
  override async read(path: string) {
    this.reads.push(path);
    return super.read(path);
  }
  async readTransient(path: string) {
    this.reads.push(path);
    return super.read(path);
  }
  async readRanges(path: string, _r: ReadonlyArray<readonly [number, number]>, size: number) {
    this.reads.push(path);
    const b = await super.read(path);
    return b.byteLength === size ? b : null;
  }
}

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const lines = Array.from({ length: 30 + i }, (_, k) =>
      k % 7 === 3 ? `  return computeTotal(${i}, ${k}); // needle ${k}` : `const value${k} = ${i * k};`,
    );
    files[`src/mod${i}.ts`] = lines.join('\n') + '\n';
  }
  files['docs/readme.md'] = '# Readme\nThe needle is here.\n';
  files['bin/data.bin'] = 'abc\u0000def needle';
  return files;
}

const QUERIES: GrepRequest[] = [
  { pattern: 'needle', mode: 'literal' },
  { pattern: 'computeTotal', mode: 'literal', contextBefore: 1, contextAfter: 2 },
  { pattern: 'return\\s+\\w+\\(1\\d', mode: 'regex' },
  { pattern: 'RETURN', mode: 'literal', caseMode: 'insensitive' },
  { pattern: 'value2\\b', mode: 'regex', wholeWord: true },
  { pattern: 'nothing-like-this', mode: 'literal' },
];

async function indexed(files: Record<string, string>, holdContents: boolean | number, segmentChars?: number) {
  const source = new CountingSource(files);
  const ws = new Workspace([source]);
  const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { holdContents, segmentChars });
  await svc.refresh();
  return { source, ws, svc };
}

describe('indexed search over held contents', () => {
  it('reads no file, and answers as the scan does (matches, context, totals)', async () => {
    for (const segmentChars of [undefined, 64]) {
      const { source, ws, svc } = await indexed(tree(), true, segmentChars);
      expect(svc.contents!.stats()).toMatchObject({ files: 41, missedFiles: 0 }); // not the binary file
      const read = await indexed(tree(), false, segmentChars);
      for (const req of QUERIES) {
        const plain = await searchAll(ws, req);
        const fromFiles = await searchAll(read.ws, req, { prefilter: read.svc.prefilter() });
        source.reads = [];
        const held = await searchAll(ws, req, { prefilter: svc.prefilter() });
        expect(source.reads).toEqual([]);
        expect(held.matches).toEqual(plain.matches);
        expect(held.summary.total).toBe(plain.summary.total);
        // (the direct path lists the index's candidates: the binary file is not among them)
        expect(held.summary.skipped).toEqual(fromFiles.summary.skipped);
        expect(held.summary.strategy).toBe(fromFiles.summary.strategy);
      }
    }
  });

  it('without holdContents the same search reads its candidates (what the test above rules out)', async () => {
    const { source, ws, svc } = await indexed(tree(), false);
    source.reads = [];
    await searchAll(ws, QUERIES[0], { prefilter: svc.prefilter() });
    expect(source.reads.length).toBeGreaterThan(0);
    expect(svc.contents).toBeNull();
  });

  it('follows a refresh: a changed file is searched as it is now, a removed one is gone, others stay held', async () => {
    const { source, ws, svc } = await indexed(tree(), true);
    source.write('src/mod1.ts', 'export const changed = "needle moved";\n', Date.now() + 5000);
    source.remove('src/mod2.ts');
    source.write('src/new.ts', 'needle new\n', Date.now() + 5000);
    source.reads = [];
    const stats = await svc.refresh();
    expect(stats.refreshMode).toBe('incremental');
    expect(source.reads.sort()).toEqual(['src/mod1.ts', 'src/new.ts']);
    source.reads = [];
    const held = await searchAll(ws, { pattern: 'needle', mode: 'literal' }, { prefilter: svc.prefilter() });
    expect(source.reads).toEqual([]);
    const plain = await searchAll(ws, { pattern: 'needle', mode: 'literal' });
    expect(held.matches).toEqual(plain.matches);
    expect(held.matches.some((m) => m.path === 'src/mod1.ts' && m.text.includes('moved'))).toBe(true);
    expect(held.matches.some((m) => m.path === 'src/mod2.ts')).toBe(false);
    expect(svc.contents!.stats().files).toBe(41); // 41 - mod2 + new.ts
  });

  it('reopened from the store it holds nothing until holdIndexedContents, then reads no file', async () => {
    const store = new MemoryIndexStore();
    const source = new CountingSource(tree());
    const ws = new Workspace([source]);
    const first = new CodeIndexService(ws, noChunks, store);
    await first.refresh();
    const svc = new CodeIndexService(ws, noChunks, store, 'index', { holdContents: true });
    expect((await svc.refresh()).refreshMode).toBe('cache_hit');
    expect(svc.contents!.stats().files).toBe(0);
    source.reads = [];
    await searchAll(ws, QUERIES[0], { prefilter: svc.prefilter() });
    expect(source.reads.length).toBeGreaterThan(0); // read from the source meanwhile
    expect(await svc.holdIndexedContents()).toMatchObject({ files: 41 });
    source.reads = [];
    const held = await searchAll(ws, QUERIES[1], { prefilter: svc.prefilter() });
    expect(source.reads).toEqual([]);
    expect(held.matches).toEqual((await searchAll(ws, QUERIES[1])).matches);
  });

  it('past its budget holds what fits, says what it left out, and reads only those files', async () => {
    const { source, ws, svc } = await indexed(tree(), 20_000);
    const stats = svc.contents!.stats();
    expect(stats.bytes).toBeLessThanOrEqual(20_000);
    expect(stats.missedFiles).toBeGreaterThan(0);
    source.reads = [];
    const held = await searchAll(ws, QUERIES[1], { prefilter: svc.prefilter() });
    const reads = source.reads;
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((p) => !svc.contents!.has(p))).toBe(true);
    expect(held.matches).toEqual((await searchAll(ws, QUERIES[1])).matches);
  });
});

import { describe, expect, it } from 'vitest';
import { searchAll } from '../grep/search';
import { CodebaseIndexService } from '../codebase-index/service';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { INDEX_MAX_TEXT_BYTES } from '../limits';
import type { Chunk } from '../chunk/types';
import { applyIndexBudget } from './budget';
import { splitLinesForIndex } from './lines';
import { CodeIndexService, type ChunkerLike } from './service';

/** Ten files of 100 bytes each, a.ts .. j.ts in walk order; each names its own function. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of 'abcdefghij')
    out[`${c}.ts`] = `export function fn_${c}() {\n  return '${c}';\n}\n`.padEnd(99, '/') + '\n';
  return out;
}

const chunker: ChunkerLike = {
  chunkFile: (path: string, text: string): Chunk[] => [
    {
      path,
      startLine: 1,
      endLine: splitLinesForIndex(text).length,
      symbolName: /fn_\w/.exec(text)![0],
      chunkType: 'function',
    } as Chunk,
  ],
};

describe('the index text budget', () => {
  it('keeps the first files in walk order up to the budget and reports the rest', () => {
    const seen = new Map(['a', 'b', 'c', 'd'].map((n) => [n, { size: 40 }]));
    const skipped: Parameters<typeof applyIndexBudget>[1] = [];
    applyIndexBudget(seen, skipped, 100);
    expect([...seen.keys()]).toEqual(['a', 'b']);
    expect(skipped.map((s) => [s.path, s.reason])).toEqual([
      ['c', 'indexBudget'],
      ['d', 'indexBudget'],
    ]);
    expect(INDEX_MAX_TEXT_BYTES).toBe(256 * 1024 * 1024);
  });

  it("Quarry's index holds the first files; text search still finds the rest (scanned), exactly", async () => {
    const ws = new Workspace([new MemorySource(files())]);
    const svc = new CodeIndexService(ws, async () => chunker, undefined, 'index', { maxTextBytes: 450 });
    const stats = await svc.refresh();
    expect(stats.skipped.filter((s) => s.reason === 'indexBudget').map((s) => s.path)).toEqual([
      'e.ts',
      'f.ts',
      'g.ts',
      'h.ts',
      'i.ts',
      'j.ts',
    ]);
    expect(svc.index!.search('fn_b', 5).map((h) => h.chunk.path)).toEqual(['b.ts']);
    expect(svc.index!.search('fn_h', 5)).toEqual([]);
    const prefilter = svc.prefilter()!;
    for (const needle of ['fn_b', 'fn_h']) {
      const { matches } = await searchAll(
        ws,
        { pattern: needle, mode: 'literal', caseMode: 'sensitive' },
        { prefilter },
      );
      expect(matches.map((m) => m.path)).toEqual([`${needle.slice(3)}.ts`]);
    }
  });

  it('a refresh that ends early (cancelled) leaves the prefilter describing the indexes it has', async () => {
    const controller = new AbortController();
    let abortOnRead = false;
    const source = new (class extends MemorySource {
      override async read(path: string) {
        if (abortOnRead) controller.abort(); // the walk is done: cancelled while reading
        return super.read(path);
      }
    })(files());
    const ws = new Workspace([source]);
    const svc = new CodeIndexService(ws, async () => chunker, undefined, 'index', { maxTextBytes: 450 });
    await svc.refresh(); // a..d indexed, e..j over the budget
    for (const c of 'abcdef') source.remove(`${c}.ts`); // now everything would fit
    abortOnRead = true;
    await expect(svc.refresh({ signal: controller.signal })).rejects.toMatchObject({ code: 'Cancelled' });
    const { matches } = await searchAll(
      ws,
      { pattern: 'fn_h', mode: 'literal', caseMode: 'sensitive' },
      { prefilter: svc.prefilter()! },
    );
    expect(matches.map((m) => m.path)).toEqual(['h.ts']); // scanned: the old index does not hold it
  });

  it("seed 004's index ranks the files within the budget only, and says so", async () => {
    const ws = new Workspace([new MemorySource(files())]);
    const svc = new CodebaseIndexService(ws, undefined, 'seed004', 250);
    const stats = await svc.refresh();
    expect(stats.skipped.filter((s) => s.reason === 'indexBudget')).toHaveLength(8);
    expect(svc.index!.paths().sort()).toEqual(['a.ts', 'b.ts']);
  });
});

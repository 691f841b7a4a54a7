import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunk/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { ChunkIndex, idf } from './bm25';
import { splitLinesForIndex } from './lines';
import { decodeIndex, encodeIndex, MemoryIndexStore } from './persist';
import { CodeIndexService, type ChunkerLike } from './service';
import type { SyncChunker } from '../chunk/any';
import { lineChunker } from './line-chunker.testutil';
import { splitIdentifier } from './identifier-parts';
import { tokenize } from './tokenize';
import { rankChunks } from './ranked';

function indexOf(files: Record<string, string>): ChunkIndex {
  const index = new ChunkIndex();
  for (const [path, text] of Object.entries(files))
    index.setFile(
      path,
      { size: text.length, mtimeMs: 1 },
      lineChunker.chunkFile(path, text),
      splitLinesForIndex(text),
    );
  return index;
}

describe('tokenize (seed 004)', () => {
  const cases: Array<[string, string[]]> = [
    ['authenticate request', ['authenticate', 'request']],
    ['getUserById(id)', ['getuserbyid', 'id']],
    ['a b c', []],
    ['...', []],
    ['snake_case_name x2 __init__', ['snake_case_name', 'x2', '__init__']],
    ['café naïve', ['caf', 'na', 've'].filter((t) => t.length > 1)],
    ['kebab-case-word', ['kebab', 'case', 'word']],
    ['ÀB12', ['b12']],
  ];
  it.each(cases)('%j', (text, want) => expect(tokenize(text)).toEqual(want));
});

describe('people analyzer', () => {
  it('splits camelCase, PascalCase, acronyms, digits and snake_case', () => {
    expect(splitIdentifier('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    expect(splitIdentifier('parseHTTPResponse')).toEqual(['parse', 'http', 'response']);
    expect(splitIdentifier('snake_case_name')).toEqual(['snake', 'case', 'name']);
    expect(splitIdentifier('utf8Decode')).toEqual(['utf', 'decode']);
  });
});

describe('BM25 (hand-computed on a tiny corpus)', () => {
  // A: alpha beta beta (dl 3)  B: beta gamma (dl 2)  C: gamma delta x (x is one char: dl 2)
  const index = indexOf({
    'a.ts': 'fn A\nalpha beta beta\n',
    'b.ts': 'fn B\nbeta gamma\n',
    'c.ts': 'fn C\ngamma delta x\n',
  });
  // (the "fn A" line is in the chunk text: tokens fn + a-letter names are 1 char except "fn")
  it('uses the Lucene idf over the full index', () => {
    expect(idf(3, 2)).toBeCloseTo(0.47000362924573563, 12);
    expect(idf(3, 1)).toBeCloseTo(0.9808292530117263, 12);
  });
  it('scores with k1 = 1.2, b = 0.75 and avgdl over all chunks', () => {
    // every chunk also has the token "fn": dl A = 4, B = 3, C = 3, avgdl = 10/3
    const N = 3;
    const avg = 10 / 3;
    const s = (tf: number, dl: number, df: number) =>
      (idf(N, df) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / avg));
    expect(s(2, 4, 2)).toBeCloseTo(0.611839, 6); // hand-computed: idf 0.4700036, tf 2, dl 4, avgdl 10/3
    const hits = index.search('beta', 10);
    expect(hits.map((h) => h.chunk.path)).toEqual(['a.ts', 'b.ts']);
    expect(hits[0].score).toBeCloseTo(0.611839, 6);
    expect(hits[1].score).toBeCloseTo(0.4900512, 6);
    expect(hits[0].scoreComponents).toEqual([
      { term: 'beta', termFrequency: 2, documentFrequency: 2, idf: idf(3, 2), bm25: hits[0].score },
    ]);
  });
  it('sums over unique query terms and reports matched terms', () => {
    const hits = index.search('gamma delta delta', 10);
    expect(hits[0].chunk.path).toBe('c.ts');
    expect(hits[0].matchedTerms).toEqual(['gamma', 'delta']);
    expect(hits[0].score).toBeCloseTo(hits[0].scoreComponents[0].bm25 + hits[0].scoreComponents[1].bm25, 12);
  });
  it('applies filters before the limit without changing N or df', () => {
    const all = index.search('beta', 10);
    const filtered = index.search('beta', 1, (c) => c.path === 'b.ts');
    expect(filtered).toHaveLength(1);
    expect(filtered[0].score).toBe(all[1].score);
  });
  it('returns nothing for a query without tokens', () => {
    expect(index.search('... a', 10)).toEqual([]);
  });
});

describe('related score (seed 004, not Jaccard)', () => {
  const index = indexOf({
    'seed.ts': 'fn alpha\nalpha beta\n',
    'b.ts': 'fn gamma\nbeta gamma\n',
    'd.ts': 'fn beta\nbeta beta alpha fn\n',
    'z.ts': 'fn zeta\nnothing shared here\n',
  });
  it('counts candidate tokens with repeats over the union of unique sets', () => {
    const seed = index.chunkAt('seed.ts', 2)!;
    const seedText = 'fn alpha\nalpha beta';
    const r = index.related(seed, seedText, 10);
    // seed set {fn, alpha, beta}; d: fn beta beta beta alpha fn -> 6 shared / |{fn,alpha,beta}| 3 = 2
    // b: fn gamma beta gamma -> fn, beta = 2 / 4 = 0.5; z: fn zeta nothing shared here -> 1 / 7
    expect(r.map((x) => [x.chunk.path, x.score])).toEqual([
      ['d.ts', 2],
      ['b.ts', 0.5],
      ['z.ts', 1 / 7],
    ]);
  });
  it('finds the innermost chunk containing a line, and none in the preamble', () => {
    expect(index.chunkAt('seed.ts', 1)?.symbolName).toBe('alpha');
    const pre = indexOf({ 'p.ts': 'import x\n\nfn f\nbody\n' });
    expect(pre.chunkAt('p.ts', 1)).toBeNull();
    expect(pre.chunkAt('p.ts', 4)?.symbolName).toBe('f');
  });
});

describe('CodeIndexService refresh modes and persistence', () => {
  // every text file is ranked (issue 15): x.txt too, as blocks where no parser knows it
  const files = () => ({
    'src/a.ts': 'fn one\nalpha\n',
    'src/b.py': 'fn two\nbeta\n',
    'README.md': 'fn three\ngamma\n',
    'x.txt': 'fn four\n',
  });
  it('full, then cache_hit, then incremental, then removal', async () => {
    const source = new MemorySource(files());
    const store = new MemoryIndexStore();
    const svc = new CodeIndexService(new Workspace([source]), async () => lineChunker, store);
    const first = await svc.refresh();
    expect(first).toMatchObject({
      refreshMode: 'full',
      filesScanned: 4,
      chunksIndexed: 4,
      filesChanged: 4,
      filesRemoved: 0,
    });
    expect((await svc.refresh()).refreshMode).toBe('cache_hit');
    // a new service over the same store loads the saved index: cache_hit without re-chunking
    let chunked = 0;
    const counting: SyncChunker = { chunkFile: (p, t) => (chunked++, lineChunker.chunkFile(p, t)) };
    const reopened = new CodeIndexService(new Workspace([source]), async () => counting, store);
    expect((await reopened.refresh()).refreshMode).toBe('cache_hit');
    expect(chunked).toBe(0);
    source.write('src/a.ts', 'fn one\nalpha delta\n', Date.now() + 1000);
    const inc = await reopened.refresh();
    expect(inc).toMatchObject({ refreshMode: 'incremental', filesChanged: 1, filesRemoved: 0 });
    expect(chunked).toBe(1);
    expect(reopened.index!.search('delta', 10).map((h) => h.chunk.path)).toEqual(['src/a.ts']);
    source.remove('README.md');
    expect(await reopened.refresh()).toMatchObject({
      refreshMode: 'incremental',
      filesRemoved: 1,
      chunksIndexed: 3,
    });
  });
  it('rebuilds fully when the stored format version differs', async () => {
    const source = new MemorySource(files());
    const store = new MemoryIndexStore();
    await store.save('index', encodeIndex({ json: {}, sections: [] }, 1));
    const svc = new CodeIndexService(new Workspace([source]), async () => lineChunker, store);
    expect((await svc.refresh()).refreshMode).toBe('full');
    expect(() => decodeIndex(new TextEncoder().encode('{ not an index }'))).toThrow(/not readable/);
  });
  it('keeps the old index when a refresh is cancelled', async () => {
    const source = new MemorySource(files());
    const svc = new CodeIndexService(new Workspace([source]), async () => lineChunker);
    await svc.refresh();
    const before = svc.index!.search('alpha', 10);
    source.write('src/a.ts', 'fn one\nomega\n', Date.now() + 5000);
    const ac = new AbortController();
    ac.abort();
    await expect(svc.refresh({ signal: ac.signal })).rejects.toThrow();
    expect(svc.index!.search('alpha', 10)).toEqual(before);
  });
  it('ends a cancelled refresh at once while the parsers are still loading', async () => {
    // the app restarts a worker whose cancelled job runs on: loading grammars takes seconds
    let loaded!: (c: ChunkerLike) => void;
    const slowChunker = new Promise<ChunkerLike>((r) => (loaded = r));
    const svc = new CodeIndexService(new Workspace([new MemorySource(files())]), () => slowChunker);
    const ac = new AbortController();
    const run = svc.refresh({ signal: ac.signal });
    await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    await expect(run).rejects.toMatchObject({ code: 'Cancelled', message: 'Indexing was cancelled' });
    expect(svc.index).toBeNull();
    // the parsers arrive later: the next refresh uses them
    loaded(lineChunker);
    expect((await svc.refresh()).refreshMode).toBe('full');
  });
});

describe('properties', () => {
  const word = fc.constantFrom(
    'alpha',
    'beta',
    'gamma',
    'delta',
    'eps',
    'fn',
    'zz',
    'q',
    'getAlpha',
    'beta_gamma',
    'DeltaEps',
  );
  const fileText = fc
    .array(
      fc.array(word, { minLength: 0, maxLength: 6 }).map((ws) => ws.join(' ')),
      { minLength: 1, maxLength: 8 },
    )
    .map((lines) => ['fn f', ...lines, 'fn g', ...lines.slice(1)].join('\n') + '\n');
  const fileSet = fc.dictionary(fc.constantFrom('a.ts', 'b.ts', 'c.py', 'd/e.go', 'f.md'), fileText, {
    minKeys: 1,
  });

  it('an incrementally refreshed index answers exactly like a rebuilt one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileSet,
        fileSet,
        fc.array(word, { minLength: 1, maxLength: 3 }),
        async (before, after, q) => {
          const source = new MemorySource(before);
          const store = new MemoryIndexStore();
          await new CodeIndexService(new Workspace([source]), async () => lineChunker, store).refresh();
          // reopen from the stored index, so the incremental refresh runs on a loaded index
          const svc = new CodeIndexService(new Workspace([source]), async () => lineChunker, store);
          await svc.refresh();
          for (const p of Object.keys(before)) if (!(p in after)) source.remove(p);
          for (const [p, t] of Object.entries(after))
            if (before[p] !== t) source.write(p, t, Date.now() + Math.random() * 1000 + 1);
          await svc.refresh();
          const rebuilt = new CodeIndexService(
            new Workspace([new MemorySource(after)]),
            async () => lineChunker,
          );
          await rebuilt.refresh();
          const query = q.join(' ');
          const strip = (hs: ReturnType<ChunkIndex['search']>) =>
            hs.map((h) => [h.chunk.path, h.chunk.startLine, h.score, h.matchedTerms]);
          expect(strip(svc.index!.search(query, 100))).toEqual(strip(rebuilt.index!.search(query, 100)));
          // Ranked mode too: identifier parts of terms first seen in an incremental refresh count
          const people = (i: ChunkIndex) =>
            rankChunks(i, query, 100).map((h) => [h.chunk.path, h.chunk.startLine, h.score]);
          expect(people(svc.index!)).toEqual(people(rebuilt.index!));
          expect(svc.index!.chunkCount).toBe(rebuilt.index!.chunkCount);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('load(save(index)) answers the same', () => {
    fc.assert(
      fc.property(fileSet, fc.array(word, { minLength: 1, maxLength: 3 }), (files, q) => {
        const index = indexOf(files);
        const { lengths, ids, tfs, ...json } = index.toState();
        const back = decodeIndex(encodeIndex({ json, sections: [lengths, ids, tfs] }));
        const loaded = ChunkIndex.fromState({
          ...(back.json as typeof json),
          lengths: back.sections[0],
          ids: back.sections[1],
          tfs: back.sections[2],
        });
        const query = q.join(' ');
        expect(loaded.search(query, 100)).toEqual(index.search(query, 100));
      }),
      { numRuns: 60 },
    );
  });
});

describe('BM25 search against a naive reference (every chunk scored, stable sort)', () => {
  it('returns the same hits, scores and tie order for any limit and filter (property)', () => {
    const word = fc.constantFrom(
      'alpha',
      'beta',
      'Gamma',
      'delta',
      'eps',
      'zeta_eta',
      'thetaIota',
      'x',
      'ALPHA',
    );
    const file = fc.array(
      fc.array(word, { minLength: 0, maxLength: 6 }).map((ws) => ws.join(' ')),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(
        fc.array(file, { minLength: 1, maxLength: 12 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        (files, queryWords, limit, filtered) => {
          const texts: Record<string, string> = {};
          // duplicate texts under different paths make exact score ties
          files.forEach(
            (lines, i) =>
              (texts[`d${i % 3}/f${i}.ts`] = lines
                .map((l, k) => (k % 3 === 0 ? `fn f${k}\n${l}` : l))
                .join('\n')),
          );
          const index = indexOf(texts);
          const query = queryWords.join(' ');
          const filter = filtered ? (c: { path: string }) => !c.path.startsWith('d1/') : undefined;
          const got = index
            .search(query, limit, filter)
            .map((h) => [h.chunk.path, h.chunk.startLine, h.score]);
          // reference
          const chunks: Array<{ path: string; startLine: number; tokens: string[] }> = [];
          for (const [path, text] of Object.entries(texts)) {
            const lines = splitLinesForIndex(text);
            for (const c of lineChunker.chunkFile(path, text))
              chunks.push({
                path,
                startLine: c.startLine,
                tokens: tokenize(lines.slice(c.startLine - 1, c.endLine).join('\n')),
              });
          }
          const N = chunks.length;
          const avgdl = chunks.reduce((n, c) => n + c.tokens.length, 0) / N;
          const scores = new Map<number, number>();
          for (const term of new Set(tokenize(query))) {
            const df = chunks.filter((c) => c.tokens.includes(term)).length;
            if (!df) continue;
            const w = idf(N, df);
            chunks.forEach((c, id) => {
              const tf = c.tokens.filter((t) => t === term).length;
              if (!tf) return;
              scores.set(
                id,
                (scores.get(id) ?? 0) +
                  (w * (tf * (1.2 + 1))) / (tf + 1.2 * (1 - 0.75 + (0.75 * c.tokens.length) / avgdl)),
              );
            });
          }
          const want = [...scores]
            .filter(([id]) => !filter || filter(chunks[id]))
            .sort(
              (a, b) =>
                b[1] - a[1] ||
                (chunks[a[0]].path < chunks[b[0]].path
                  ? -1
                  : chunks[a[0]].path > chunks[b[0]].path
                    ? 1
                    : chunks[a[0]].startLine - chunks[b[0]].startLine),
            )
            .slice(0, limit)
            .map(([id, score]) => [chunks[id].path, chunks[id].startLine, score]);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('stored format parts', () => {
  it('round-trips records through JSON parts, and rejects a damaged part as unreadable', async () => {
    const { jsonParts, fromJsonParts, packU16, unpackU16 } = await import('./persist');
    const items = Array.from({ length: 500 }, (_, i) => [
      `p${i}/\u00e9\ud83d\ude00\ud800`,
      i,
      'x'.repeat(i % 37),
    ]);
    const parts = jsonParts(items, 1000);
    expect(parts.length).toBeGreaterThan(5);
    expect(fromJsonParts(parts)).toEqual(items);
    const damaged = parts.map((p) => p.slice());
    damaged[2][3] ^= 0xffff;
    expect(() => fromJsonParts(damaged)).toThrow(/not readable/);
    const tfs = Uint16Array.from([1, 2, 65535, 7, 9]);
    expect(Array.from(unpackU16(packU16(tfs), tfs.length))).toEqual(Array.from(tfs));
  });
});

describe('splitIdentifier, direct path', () => {
  it('splits word tokens exactly like the regex definition (property)', async () => {
    const { splitIdentifierRegex } = await import('./identifier-parts');
    const unit = fc.constantFrom(
      'a',
      'b',
      'z',
      'A',
      'B',
      'Z',
      '0',
      '9',
      '_',
      'ab',
      'AB',
      'Ab',
      'aB',
      'HTTP',
      'Id',
      '8',
      '__',
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 12 }).map((u) => u.join('')),
        (token) => {
          expect(splitIdentifier(token)).toEqual(splitIdentifierRegex(token));
        },
      ),
      { numRuns: 5000 },
    );
    for (const t of [
      'getUserById',
      'parseHTTPResponse',
      'snake_case_name',
      'utf8Decode',
      'ABCdEFg',
      'a1A',
      'X',
      '',
      '_',
      'aB9c',
      'HTMLElement2D',
      'x y',
      'é_ab',
    ]) {
      expect(splitIdentifier(t)).toEqual(splitIdentifierRegex(t));
    }
  });
});

describe('nested and overlapping chunks', () => {
  it('count exactly the tokens of their own text, lines shared or not (property)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'Gamma', 'x', 'ALPHA', 'delta_1', 'eps', '(', ' ', '  ');
    const lineArb = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
    const range = fc.tuple(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 }));
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 12 }),
        fc.array(range, { minLength: 1, maxLength: 6 }),
        (lines, ranges) => {
          const chunks: Chunk[] = ranges.map(([a, b], i) => ({
            path: 'f.ts',
            startLine: Math.min(a, b) + 1,
            endLine: Math.max(a, b) + 1,
            symbolName: `c${i}`,
            chunkType: 'class',
          }));
          const index = new ChunkIndex();
          index.setFile(
            'other.ts',
            { size: 1, mtimeMs: 1 },
            [{ path: 'other.ts', startLine: 1, endLine: 1, symbolName: 'o', chunkType: 'function' }],
            ['alpha beta'],
          );
          index.setFile('f.ts', { size: 1, mtimeMs: 1 }, chunks, lines);
          const got = index.chunksOf('f.ts');
          expect(got).toHaveLength(chunks.length);
          got.forEach((c, i) => {
            const want = tokenize(lines.slice(chunks[i].startLine - 1, chunks[i].endLine).join('\n'));
            expect([c.tokenCount, c.uniqueCount]).toEqual([want.length, new Set(want).size]);
            for (const term of new Set(want)) {
              let tf = 0;
              index.forEachPosting(index.termIdOf(term)!, (id, n) => {
                if (index.chunkById(id) === c) tf = n;
              });
              expect(tf).toBe(want.filter((t) => t === term).length);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

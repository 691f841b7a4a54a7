import { describe, expect, it } from 'vitest';
import type { IndexedChunk } from '../rank/bm25';
import type { RankedChunkHit } from '../rank/ranked';
import { fuse, FUSION_DEPTH, isExactIdentifier, queryIdentifiers, type FusedHit } from './fusion';
import type { SemanticHit } from './index';

let nextLine = 1;
const chunk = (symbolName: string, path = `src/${symbolName || 'anon'}.ts`): IndexedChunk => {
  const startLine = nextLine;
  nextLine += 10;
  return {
    path,
    startLine,
    endLine: startLine + 5,
    symbolName,
    chunkType: 'function',
    tokenCount: 10,
    uniqueCount: 8,
    snippet: `function ${symbolName}() {}`,
  };
};

const lex = (c: IndexedChunk, via: string[][] = [], exactSymbol = false): RankedChunkHit => ({
  chunk: c,
  score: 1,
  components: via.map((v, i) => ({
    word: `w${i}`,
    via: v,
    termFrequency: 1,
    documentFrequency: 1,
    idf: 1,
    bm25: 1,
    symbolBoost: 0,
  })),
  exactSymbol,
  prior: 1,
  discounts: [],
  role: 'source',
  declaration: false,
});
const vec = (c: IndexedChunk, similarity = 0.5): SemanticHit => ({ chunk: c, similarity });
const names = (hits: readonly FusedHit[]) => hits.map((h) => h.chunk.symbolName);

describe('queryIdentifiers', () => {
  it.each([
    ['where is writeBlob called', ['writeBlob']],
    ['who reads user_id from the session', ['user_id']],
    ['what does KeepAlive.setup do', ['KeepAlive.setup']],
    ['callers of Foo::bar and Widget#render', ['Foo::bar', 'Widget#render']],
    ['HTTPServer start', ['HTTPServer']],
    ['where is $store made', ['$store']],
    ['utf8 decoding', ['utf8']],
    ['writeBlob then writeBlob again', ['writeBlob']],
  ])('spells out code-shaped tokens: %j', (query, want) => expect(queryIdentifiers(query)).toEqual(want));

  it('takes a one-word query as an identifier, whatever its shape', () => {
    expect(queryIdentifiers('parse')).toEqual(['parse']);
    expect(queryIdentifiers('  Session  ')).toEqual(['Session']);
    expect(queryIdentifiers('writeBlob()')).toEqual(['writeBlob']);
  });

  it('does not take plain words of a question as identifiers', () => {
    expect(queryIdentifiers('how do we parse the csv file')).toEqual([]);
    expect(queryIdentifiers('Where is the URL Session built')).toEqual([]);
    expect(queryIdentifiers('')).toEqual([]);
  });
});

describe('isExactIdentifier', () => {
  it('matches the whole symbol or its last segment, case-insensitively', () => {
    expect(isExactIdentifier(chunk('writeBlob'), ['writeblob'])).toBe(true);
    expect(isExactIdentifier(chunk('KeepAlive.setup'), ['setup'])).toBe(true);
    expect(isExactIdentifier(chunk('KeepAlive.setup'), ['keepalive.SETUP'])).toBe(true);
    expect(isExactIdentifier(chunk('net.KeepAlive.setup'), ['KeepAlive.setup'])).toBe(true);
    expect(isExactIdentifier(chunk('Widget::render'), ['render'])).toBe(true);
    expect(isExactIdentifier(chunk('Widget#render'), ['Widget#render'])).toBe(true);
  });

  it('does not match a part of a name, another segment, no identifiers or a nameless chunk', () => {
    expect(isExactIdentifier(chunk('writeBlobFile'), ['writeBlob'])).toBe(false);
    expect(isExactIdentifier(chunk('KeepAlive.setup'), ['KeepAlive'])).toBe(false);
    expect(isExactIdentifier(chunk('KeepAlive.setup'), ['Other.setup'])).toBe(false);
    expect(isExactIdentifier(chunk('writeBlob'), [])).toBe(false);
    expect(isExactIdentifier(chunk(''), ['writeBlob'])).toBe(false);
  });

  it('does not match a dotted identifier that ends inside a segment', () => {
    expect(isExactIdentifier(chunk('KeepAlive.setup'), ['Alive.setup'])).toBe(false);
  });
});

describe('fuse', () => {
  it('interleaves: lexical 1st, vector 1st not yet taken, lexical 2nd, and so on; scores 1/place', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => chunk(n));
    const out = fuse('how it works', [lex(a), lex(b), lex(c)], [vec(d, 0.9), vec(a, 0.8), vec(e, 0.7)], 10);
    expect(names(out)).toEqual(['a', 'd', 'b', 'e', 'c']);
    expect(out.map((h) => h.score)).toEqual([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5]);
  });

  it('keeps interleaving when one list runs out', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => chunk(n));
    expect(names(fuse('q r', [lex(a)], [vec(b), vec(c), vec(d)], 10))).toEqual(['a', 'b', 'c', 'd']);
    expect(names(fuse('q r', [lex(a), lex(b), lex(c)], [vec(e)], 10))).toEqual(['a', 'e', 'b', 'c']);
    expect(names(fuse('q r', [], [vec(e), vec(a)], 10))).toEqual(['e', 'a']);
    expect(fuse('q r', [], [], 10)).toEqual([]);
  });

  it('places a chunk in both lists once, with both ranks, its similarity and its lexical terms', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => chunk(n));
    // a copy of the chunk object (as another list would hold it) is the same chunk
    const out = fuse(
      'how it works',
      [lex(a), lex(b, [['blob', 'writeblob'], ['blob']])],
      [vec(c, 0.9), vec({ ...b }, 0.75)],
      10,
    );
    expect(names(out)).toEqual(['a', 'c', 'b']);
    const hb = out.find((h) => h.chunk.symbolName === 'b')!;
    expect(hb).toMatchObject({ lexicalRank: 2, semanticRank: 2, similarity: 0.75, exactIdentifier: false });
    expect(hb.terms).toEqual(['blob', 'writeblob']);
    const hc = out.find((h) => h.chunk.symbolName === 'c')!;
    expect(hc.lexicalRank).toBeUndefined();
    expect(hc).toMatchObject({ semanticRank: 1, similarity: 0.9, terms: [] });
    const ha = out.find((h) => h.chunk.symbolName === 'a')!;
    expect(ha.semanticRank).toBeUndefined();
    expect(ha.similarity).toBeUndefined();
  });

  it('tells apart chunks of one file by their lines', () => {
    const one = { ...chunk('one', 'src/x.ts'), startLine: 1, endLine: 5 };
    const two = { ...chunk('two', 'src/x.ts'), startLine: 6, endLine: 9 };
    expect(names(fuse('q r', [lex(one)], [vec(two)], 10))).toEqual(['one', 'two']);
  });

  it('puts the exact identifiers the query spells out first, in lexical order', () => {
    const [x, readBlob, y, writeBlob, z] = ['x', 'readBlob', 'y', 'writeBlob', 'z'].map((n) => chunk(n));
    const out = fuse(
      'how do writeBlob and readBlob differ',
      [lex(x), lex(readBlob), lex(y), lex(writeBlob)],
      [vec(writeBlob, 0.9), vec(z, 0.8)],
      10,
    );
    // merged: x, writeBlob, readBlob, z, y; the exact ones go first by their lexical rank
    expect(names(out)).toEqual(['readBlob', 'writeBlob', 'x', 'z', 'y']);
    expect(out.map((h) => h.exactIdentifier)).toEqual([true, true, false, false, false]);
    expect(out.map((h) => h.score)).toEqual([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5]);
  });

  it('takes the lexical ranking’s exact symbol as an exact identifier, and puts vector-only exact ones after the lexical ones', () => {
    const [x, parseCsv, y, writeBlob] = ['x', 'parseCsv', 'y', 'writeBlob'].map((n) => chunk(n));
    // "write blob" spells no identifier, but the ranking says the chunk's name is the query's words joined
    const out = fuse(
      'write blob parseCsv',
      [lex(x), lex(writeBlob, [], true)],
      [vec(y, 0.9), vec(parseCsv, 0.8)],
      10,
    );
    expect(names(out)).toEqual(['writeBlob', 'parseCsv', 'x', 'y']);
    expect(out[0]).toMatchObject({ exactIdentifier: true, lexicalRank: 2 });
    expect(out[1]).toMatchObject({ exactIdentifier: true, semanticRank: 2 });
    expect(out[1].lexicalRank).toBeUndefined();
  });

  it('cuts to the limit after ordering', () => {
    const [a, b, c, d, writeBlob] = ['a', 'b', 'c', 'd', 'writeBlob'].map((n) => chunk(n));
    const out = fuse('where is writeBlob', [lex(a), lex(b), lex(c), lex(writeBlob)], [vec(d)], 2);
    expect(names(out)).toEqual(['writeBlob', 'a']);
    expect(out.map((h) => h.score)).toEqual([1, 1 / 2]);
    expect(fuse('where is writeBlob', [lex(a)], [vec(d)], 0)).toEqual([]);
  });

  it(`reads only the top ${FUSION_DEPTH} of each list`, () => {
    const lexical = Array.from({ length: FUSION_DEPTH + 10 }, (_, i) => lex(chunk(`lex${i}`)));
    const vector = Array.from({ length: FUSION_DEPTH + 10 }, (_, i) => vec(chunk(`vec${i}`)));
    const out = fuse('q r', lexical, vector, 1000);
    expect(out.length).toBe(2 * FUSION_DEPTH);
    expect(names(out)).not.toContain(`lex${FUSION_DEPTH}`);
    expect(names(out)).not.toContain(`vec${FUSION_DEPTH}`);
    expect(names(out).slice(-2)).toEqual([`lex${FUSION_DEPTH - 1}`, `vec${FUSION_DEPTH - 1}`]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunk/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { ChunkIndex } from './bm25';
import { LineTerms } from './line-terms';
import { splitLinesForIndex } from './lines';
import { markTerms } from './mark-terms';
import { queryWords, rankChunks } from './ranked';
import { MemoryIndexStore } from './persist';
import { CodeIndexService, type ChunkerLike } from './service';
import { TermTable } from './term-table';
import {
  forEachToken,
  isTokenCode,
  MIN_TOKEN_CHARS,
  seedTerm,
  seedTokenizer,
  TOKEN_FOLD,
  tokenize,
  tokenizeRaw,
  type Tokenizer,
} from './tokenize';

/** Seed 004's rule read literally: runs of ASCII letters, digits and `_`, longer than one character, lowercased. */
const reference = (text: string): string[] =>
  (text.match(/[A-Za-z0-9_]+/g) ?? []).filter((t) => t.length > 1).map((t) => t.toLowerCase());

/** The snippet marker the worker had before core's (src/worker/engine-api.ts), as the reference. */
function referenceMarks(text: string, terms: Set<string>): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const re = /[A-Za-z0-9_]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length > 1 && terms.has(m[0].toLowerCase())) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

/** Any UTF-16 text, weighted to token edges: ASCII word units, separators, lone and paired surrogates, non-ASCII with ASCII case forms (U+212A KELVIN SIGN lowercases to "k", U+0130 to "i̇"). */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'Z', 'K', 'k', '_', '0', '9', 'ab', 'Ab_1') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(' ', '-', '.', '\n', '\r', '\t', '(', '@', '`', '[', '{', '\u007f'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0080',
      '\u00ff',
      'é',
      'ß',
      '\u212a',
      '\u0130',
      '\u017f',
      'ａ',
      '😀',
      '\ud800',
      '\udc00',
      '\u00a0',
    ),
  },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);
const text = fc.array(unit, { maxLength: 40 }).map((u) => u.join(''));

describe('the tokenizer (seed 004, written once)', () => {
  it('gives the regex definition for any text (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(tokenize(t)).toEqual(reference(t));
        expect(tokenizeRaw(t).map((r) => r.toLowerCase())).toEqual(reference(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the tokens of a range as the tokens of its slice, at their offsets (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const from = Math.min(a, b) % (t.length + 1);
        const to = from + ((Math.max(a, b) - Math.min(a, b)) % (t.length - from + 1));
        const got: string[] = [];
        forEachToken(t, from, to, (s, e) => {
          expect(s).toBeGreaterThanOrEqual(from);
          expect(e).toBeLessThanOrEqual(to);
          got.push(t.slice(s, e));
        });
        expect(got.map(seedTerm)).toEqual(reference(t.slice(from, to)));
      }),
      { numRuns: 2000 },
    );
  });

  it('has an ASCII-only class that TOKEN_FOLD covers, and tokens of at least MIN_TOKEN_CHARS', () => {
    expect(MIN_TOKEN_CHARS).toBe(2);
    for (let c = 0; c < 0x10000; c++) {
      const s = String.fromCharCode(c);
      expect(isTokenCode(c)).toBe(/^[A-Za-z0-9_]$/.test(s));
      if (c < 128) expect(TOKEN_FOLD[c]).toBe(isTokenCode(c) ? s.toLowerCase().charCodeAt(0) : 0);
    }
    expect(TOKEN_FOLD.length).toBe(128);
    expect(tokenize('a b_ _c x1 Q')).toEqual(['b_', '_c', 'x1']);
  });
});

describe("BM25's line tokenization (the fast path)", () => {
  /** The terms LineTerms gives for each line, through a fresh table. */
  function lineTerms(lines: string[], tokenizer: Tokenizer = seedTokenizer): string[][] {
    const table = new TermTable();
    const raws: string[] = [];
    const lt = new LineTerms(tokenizer);
    lt.reset(lines.length);
    const add = (term: string, raw: string, h: number) => {
      expect(h).toBe(TermTable.hashString(term)); // hashed from the line as from the term
      raws.push(raw);
      return table.add(term, h);
    };
    // lines in an order that revisits some, as nested chunks do
    for (const l of [...lines.keys(), ...lines.keys()].reverse()) lt.line(l, lines[l], table, add);
    for (const [t, raw] of raws.entries()) expect(seedTerm(raw)).toBe(table.terms[t]);
    return lines.map((_, l) => Array.from(lt.ids.subarray(lt.from[l], lt.to[l]), (t) => table.terms[t]));
  }

  it("yields exactly tokenize()'s tokens for every line (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          text.map((t) => t.replace(/\n/g, ' ')),
          { minLength: 1, maxLength: 6 },
        ),
        (lines) => {
          expect(lineTerms(lines)).toEqual(lines.map((l) => tokenize(l)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('answers exactly like the general path with a copy of the seed tokenizer (property)', () => {
    const copy: Tokenizer = { forEachToken, term: seedTerm }; // not seedTokenizer: no fast path
    const word = fc.constantFrom(
      'alpha',
      'Beta',
      'getAlpha',
      'beta_gamma',
      'x',
      'é',
      'K',
      '\u212aelvin',
      ' ',
      '(',
      'HTTPServer2',
    );
    const lineArb = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.array(lineArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (files, q) => {
          const fast = new ChunkIndex();
          const general = new ChunkIndex({ tokenizer: copy });
          files.forEach((lines, i) => {
            const chunks: Chunk[] = [
              {
                path: `f${i}.ts`,
                startLine: 1,
                endLine: lines.length,
                symbolName: 'whole',
                chunkType: 'class',
              },
              { path: `f${i}.ts`, startLine: 1, endLine: 1, symbolName: 'first', chunkType: 'function' },
            ];
            for (const index of [fast, general])
              index.setFile(`f${i}.ts`, { size: 1, mtimeMs: 1 }, chunks, lines);
          });
          expect(lineTerms(files.flat(), copy)).toEqual(lineTerms(files.flat()));
          const query = q.join(' ');
          expect(general.search(query, 50)).toEqual(fast.search(query, 50));
          expect(rankChunks(general, query, 50)).toEqual(rankChunks(fast, query, 50));
          for (const term of new Set(tokenize(files.flat().join('\n')))) {
            expect(general.termIdOf(term)).toBe(fast.termIdOf(term));
            const postings = (index: ChunkIndex) => {
              const out: number[][] = [];
              index.forEachPosting(index.termIdOf(term)!, (id, tf) => out.push([id, tf]));
              return out;
            };
            expect(postings(general)).toEqual(postings(fast));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('markTerms (the snippet marker)', () => {
  const cases: Array<[string, string[], Array<[number, number]>]> = [
    [
      'authenticate(request)',
      ['authenticate', 'request'],
      [
        [0, 12],
        [13, 20],
      ],
    ],
    [
      'GetUser getuser GETUSER',
      ['getuser'],
      [
        [0, 7],
        [8, 15],
        [16, 23],
      ],
    ],
    // tokens of length 1 are never marked, even when asked for
    ['x = a + b; xy', ['x', 'a', 'b', 'xy'], [[11, 13]]],
    // non-ASCII ends a token: "café" holds the token "caf"; U+212A (Kelvin) is no "k"
    [
      'café naïve',
      ['caf', 'na', 've', 'café'],
      [
        [0, 3],
        [5, 7],
        [8, 10],
      ],
    ],
    [
      '\u212aey key',
      ['key', 'ey'],
      [
        [1, 3],
        [4, 7],
      ],
    ],
    // offsets are UTF-16 code units: the emoji takes two
    [
      '😀 id_token 😀id',
      ['id_token', 'id'],
      [
        [3, 11],
        [14, 16],
      ],
    ],
    [
      'snake_case and snake case',
      ['snake', 'case'],
      [
        [15, 20],
        [21, 25],
      ],
    ],
    [
      'multi\nline\r\ntext',
      ['line', 'text'],
      [
        [6, 10],
        [12, 16],
      ],
    ],
    ['nothing here', [], []],
    ['', ['a'], []],
  ];
  it.each(cases)('%j marks %j', (t, terms, want) => expect(markTerms(t, new Set(terms))).toEqual(want));

  it('marks what the worker marked, for any text and terms (property)', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.constantFrom('ab', 'a', 'k', 'kk', 'ab_1', 'z', 'zk', '9', 'é', 'caf'), { maxLength: 5 }),
        (t, terms) => {
          const set = new Set(terms);
          expect(markTerms(t, set)).toEqual(referenceMarks(t, set));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('marks with an injected tokenizer', () => {
    const stem: Tokenizer = { forEachToken, term: (raw) => raw.toLowerCase().replace(/s$/, '') };
    expect(markTerms('Users and user', new Set(['user']), stem)).toEqual([
      [0, 5],
      [10, 14],
    ]);
  });
});

describe('an injected tokenizer', () => {
  /** Plural-blind: a token's term drops one final "s". */
  const stem: Tokenizer = { forEachToken, term: (raw) => raw.toLowerCase().replace(/s$/, '') };
  /** Every ASCII word run, one character long too. */
  const single: Tokenizer = {
    forEachToken(t, from, to, onToken) {
      const re = /[A-Za-z0-9_]+/g;
      re.lastIndex = from;
      for (let m = re.exec(t); m && m.index < to; m = re.exec(t))
        onToken(m.index, Math.min(to, m.index + m[0].length));
    },
    term: seedTerm,
  };
  const chunk = (path: string, n: number, name: string): Chunk => ({
    path,
    startLine: 1,
    endLine: n,
    symbolName: name,
    chunkType: 'function',
  });

  it('is what the index, its queries, related() and the people ranker count', () => {
    const files: Record<string, string[]> = {
      'a.ts': ['fn listUsers', 'return users'],
      'b.ts': ['fn one', 'x y z'],
    };
    const build = (tokenizer?: Tokenizer) => {
      const index = new ChunkIndex({ tokenizer });
      for (const [p, lines] of Object.entries(files))
        index.setFile(
          p,
          { size: 1, mtimeMs: 1 },
          [chunk(p, lines.length, p === 'a.ts' ? 'listUsers' : 'one')],
          lines,
        );
      return index;
    };
    expect(build().search('user', 5)).toEqual([]);
    expect(
      build(stem)
        .search('user', 5)
        .map((h) => [h.chunk.path, h.matchedTerms]),
    ).toEqual([['a.ts', ['user']]]);
    expect(build(stem).search('users', 5)[0].scoreComponents[0].termFrequency).toBe(1);
    expect(build().search('x', 5)).toEqual([]);
    expect(
      build(single)
        .search('x', 5)
        .map((h) => h.chunk.path),
    ).toEqual(['b.ts']);
    expect(build(single).chunksOf('b.ts')[0].tokenCount).toBe(5); // fn one x y z
    const seed = build(single).chunkAt('a.ts', 1)!;
    expect(
      build(single)
        .related(seed, 'x y', 5)
        .map((r) => [r.chunk.path, r.sharedTerms]),
    ).toEqual([['b.ts', ['x', 'y']]]);
    expect(build().related(seed, 'x y', 5)).toEqual([]);
    // the people ranker reads the query with the index's tokenizer, identifier parts included
    expect(queryWords('listUsers', stem).words).toEqual(['list', 'user']);
    const people = rankChunks(build(stem), 'user', 5);
    expect(people.map((h) => h.chunk.path)).toEqual(['a.ts']);
    expect(people[0].components[0].via.sort()).toEqual(['listuser', 'user']);
    expect(people[0].components[0].symbolBoost).toBeGreaterThan(0);
  });

  it('cannot be stored: toState refuses, the service neither loads nor saves', async () => {
    const index = new ChunkIndex({ tokenizer: stem });
    expect(() => index.toState()).toThrow(/custom tokenizer/);
    expect(() => new ChunkIndex({ tokenizer: seedTokenizer }).toState()).not.toThrow();
    const chunker: ChunkerLike = { chunkFile: (p, t) => [chunk(p, splitLinesForIndex(t).length, 'f')] };
    const source = new MemorySource({ 'a.ts': 'fn listUsers\nusers\n' });
    const store = new MemoryIndexStore();
    await new CodeIndexService(new Workspace([source]), async () => chunker, store).refresh(); // a seed index, stored
    expect(store.data.size).toBe(1);
    const stored = store.data.get('index');
    const svc = new CodeIndexService(new Workspace([source]), async () => chunker, store, 'index', {
      tokenizer: stem,
    });
    expect((await svc.refresh()).refreshMode).toBe('full'); // the stored seed index is not its own
    expect(svc.index!.search('user', 5)).toHaveLength(1);
    expect(store.data.get('index')).toBe(stored); // and nothing was saved over it
    source.write('a.ts', 'fn listUser\n', Date.now() + 1000);
    expect((await svc.refresh()).refreshMode).toBe('incremental');
    expect(store.data.get('index')).toBe(stored);
  });
});

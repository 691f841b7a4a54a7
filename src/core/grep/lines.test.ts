/** Literal-anchored line search never changes results: same as decoding and scanning whole files (property). */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { LITERAL_LINES } from './byte-search';
import { byteFinder, countNewlines, SKIP_SEARCH } from './lines';
import { SIMD_FIND, simdModule } from './simd-find';
import { compileMatcher } from './regex';
import { LINE_WINDOWS, literalLineFinders, searchAll } from './search';
import type { GrepRequest } from './types';

const enc = new TextEncoder();
// the literal-line path for every literal, short ones too (a scan takes pieces for those by default)
const minBytes = LITERAL_LINES.minBytes;
beforeEach(() => {
  LITERAL_LINES.minBytes = 0;
});
afterEach(() => {
  LITERAL_LINES.minBytes = minBytes;
});
const piece = fc.constantFrom(
  'a',
  'b',
  'k',
  'K',
  'S',
  's',
  'é',
  'É',
  '\u212a',
  '\u017f',
  '€',
  '😀',
  ' ',
  '(',
  '\n',
  '\r\n',
  '\r',
  'ab',
  'Ab',
  'kés',
  'abab',
  '\ufeff',
  'x_y',
);
const textFile = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));
const fileBytes = fc.oneof(
  textFile.map((t) => enc.encode(t)),
  // a UTF-8 byte-order mark
  textFile.map((t) => new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(t)])),
  // invalid UTF-8 sprinkled in, next to line ends too
  fc
    .tuple(
      textFile,
      fc.constantFrom([0xe2, 0x82], [0xff], [0xc3], [0x80, 0x80], [0xe2, 0x82, 0x0a], [0xf0, 0x9f]),
      textFile,
    )
    .map(([t, bad, u]) => new Uint8Array([...enc.encode(t), ...bad, ...enc.encode(u)])),
  // binary (a NUL early) and UTF-16LE with BOM
  textFile.map((t) => new Uint8Array([...enc.encode(t.slice(0, 3)), 0, ...enc.encode(t)])),
  textFile.map((t) => {
    const out = [0xff, 0xfe];
    for (const ch of t)
      for (let i = 0; i < ch.length; i++) out.push(ch.charCodeAt(i) & 0xff, ch.charCodeAt(i) >> 8);
    return new Uint8Array(out);
  }),
);
const files = fc.dictionary(fc.constantFrom('a.ts', 'b.txt', 'c/d.md', 'c/e.js'), fileBytes, { minKeys: 1 });
const atom = fc.constantFrom(
  'a',
  'b',
  'k',
  's',
  'é',
  '€',
  '😀',
  'ab',
  'kés',
  'A',
  'Ks',
  'sk',
  'abk',
  '(?i:ab)',
  '(?i:k)é',
  'a(?i:b)',
  '\\w',
  '.',
  '[ké]',
  '\\b',
  '\\B',
  '^',
  '$',
  '\\z',
  '\\s*',
  'b+',
  '(ab|ba)',
  'a|b',
  '[^a]',
  '\\W',
  '\\pL',
  '[a-k]+',
  'x_y',
  '\\(',
  '.*',
);
const request = fc.record({
  pattern: fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join('')),
  mode: fc.constantFrom<'regex' | 'literal'>('regex', 'literal'),
  caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive', 'smart'),
  wholeWord: fc.boolean(),
  maxResults: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  countLimit: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  maxLineChars: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  contextBefore: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  contextAfter: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

/**
 * The literal-anchored line path, with byte and text windows from `windowMin` characters on,
 * delivers exactly what the whole-line scan (windows only past 512) delivers.
 */
async function expectLinePathAgrees(
  tree: ConstructorParameters<typeof MemorySource>[0],
  req: GrepRequest,
  windowMin: number,
): Promise<void> {
  const ws = new Workspace([new MemorySource(tree)]);
  LINE_WINDOWS.minLine = windowMin;
  LINE_WINDOWS.byteMinLine = windowMin;
  const a = await searchAll(ws, req, { literalLines: true });
  LINE_WINDOWS.minLine = 512;
  LINE_WINDOWS.byteMinLine = 512;
  const b = await searchAll(ws, req, { literalLines: false });
  expect(a.matches).toEqual(b.matches);
}

describe('literal-anchored line search', () => {
  it('gives the same results as scanning whole decoded files (property)', async () => {
    let used = 0;
    await fc.assert(
      fc.asyncProperty(files, request, fc.constantFrom(0, 3, 512), async (tree, req, windowMin) => {
        let matcher;
        try {
          matcher = compileMatcher(req.pattern, req);
        } catch {
          return;
        }
        if (literalLineFinders(matcher)) used++;
        const ws = new Workspace([new MemorySource(tree)]);
        LINE_WINDOWS.minLine = windowMin;
        LINE_WINDOWS.byteMinLine = windowMin;
        const a = await searchAll(ws, req, { literalLines: true });
        LINE_WINDOWS.minLine = 512;
        LINE_WINDOWS.byteMinLine = 0;
        const b = await searchAll(ws, req, { literalLines: false });
        expect(a.matches).toEqual(b.matches);
        const { elapsedMs: _a, ...sa } = a.summary;
        const { elapsedMs: _b, ...sb } = b.summary;
        expect(sa).toEqual(sb);
      }),
      { numRuns: 1500 },
    );
    expect(used).toBeGreaterThan(300);
  });

  it('matches long lines only around literals with the same results (property)', async () => {
    const noAnchor = fc.constantFrom(
      'a',
      'b',
      'k',
      's',
      'é',
      'ab',
      'kés',
      'A',
      'Ks',
      '(?i:ab)',
      'a(?i:b)',
      '\\w',
      '\\w+',
      '[ké]',
      '\\b',
      '\\B',
      '\\s*',
      'b+',
      '(ab|ba)',
      'a|b',
      '[^a]',
      '\\W',
      '[a-k]+',
      'x_y',
      '\\(',
      '\\s+',
      '[A-Z]',
    );
    const req2 = fc.record({
      pattern: fc.array(noAnchor, { minLength: 1, maxLength: 4 }).map((a) => a.join('')),
      mode: fc.constant<'regex'>('regex'),
      caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive', 'smart'),
      wholeWord: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(files, req2, async (tree, req) => {
        try {
          compileMatcher(req.pattern, req);
        } catch {
          return;
        }
        const ws = new Workspace([new MemorySource(tree)]);
        LINE_WINDOWS.minLine = 0;
        const a = await searchAll(ws, req, { literalLines: true });
        LINE_WINDOWS.minLine = 512;
        const b = await searchAll(ws, req, { literalLines: false });
        expect(a.matches).toEqual(b.matches);
      }),
      { numRuns: 1500 },
    );
  });

  it('decodes only the head of a long line cut by maxLineChars, with the same results (property)', async () => {
    // long lines of word runs, punctuation and multi-byte text; hits before, across and after the cut
    const word = fc.constantFrom(
      'useEffect',
      'useLayoutEffect',
      'Effect',
      'use',
      'x',
      'é',
      '€',
      '😀',
      '(',
      ')',
      ' ',
      '.',
      ',',
      '_',
      'Type(',
      'function ',
      'fooType(',
      '\r',
    );
    const longLine = fc.array(word, { minLength: 20, maxLength: 200 }).map((w) => w.join(''));
    const tree = fc.dictionary(
      fc.constantFrom('a.js', 'b.js'),
      fc.array(longLine, { minLength: 1, maxLength: 4 }).map((l) => enc.encode(l.join('\n'))),
      { minKeys: 1 },
    );
    const req3 = fc.record({
      pattern: fc.constantFrom(
        'useEffect|useLayoutEffect',
        'Effect',
        'function\\s+\\w+Type\\(',
        'use\\w*\\b',
        '\\bEffect',
        'x+é',
        '€\\s',
        'Type\\(',
        '(?i)effect',
      ),
      mode: fc.constant<'regex'>('regex'),
      caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive'),
      wholeWord: fc.boolean(),
      maxLineChars: fc.integer({ min: 0, max: 60 }),
      contextBefore: fc.integer({ min: 0, max: 2 }),
      contextAfter: fc.integer({ min: 0, max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(tree, req3, fc.constantFrom(0, 40), (t, req, windowMin) =>
        expectLinePathAgrees(t, req, windowMin),
      ),
      { numRuns: 1500 },
    );
  });

  it('previews long ASCII lines from the bytes exactly as the whole decoded line would be cut (property)', async () => {
    // hits before, across and far past the cut; \r line ends; windows narrower and wider than the lead
    const word = fc.constantFrom(
      'useEffect',
      'useLayoutEffect',
      'Effect',
      'use',
      'x',
      'xx',
      '(',
      ')',
      ' ',
      '.',
      ',',
      '_',
      'Type(',
      'function ',
      'fooType(',
      '\r',
      'var a=1;',
      'abcdefghij',
    );
    const longLine = fc.array(word, { minLength: 30, maxLength: 300 }).map((w) => w.join(''));
    const tree = fc.dictionary(
      fc.constantFrom('a.js', 'b.js'),
      fc.array(longLine, { minLength: 1, maxLength: 3 }).map((l) => enc.encode(l.join('\n'))),
      { minKeys: 1 },
    );
    const req4 = fc.record({
      pattern: fc.constantFrom(
        'useEffect|useLayoutEffect',
        'Effect',
        'function\\s+\\w+Type\\(',
        'use\\w*\\b',
        '\\bEffect',
        'Type\\(',
        '(?i)effect',
        'x+\\(',
      ),
      mode: fc.constant<'regex'>('regex'),
      caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive'),
      wholeWord: fc.boolean(),
      maxLineChars: fc.integer({ min: 0, max: 150 }),
      contextBefore: fc.integer({ min: 0, max: 1 }),
    });
    await fc.assert(
      fc.asyncProperty(tree, req4, (t, req) => expectLinePathAgrees(t, req, 0)),
      { numRuns: 1000 },
    );
  });

  it('cuts context lines to maxLineChars too, and refuses a negative maxLineChars', async () => {
    const ws = new Workspace([
      new MemorySource({ 'a.ts': enc.encode('0123456789\nhit here\nabcdefghij\n') }),
    ]);
    for (const literalLines of [true, false]) {
      const { matches } = await searchAll(
        ws,
        { pattern: 'hit', mode: 'literal', contextBefore: 1, contextAfter: 1, maxLineChars: 4 },
        { literalLines },
      );
      expect(matches.map((m) => [m.contextBefore, m.text, m.contextAfter])).toEqual([
        [['0123'], 'hit ', ['abcd']],
      ]);
    }
    await expect(searchAll(ws, { pattern: 'hit', mode: 'literal', maxLineChars: -1 })).rejects.toThrow(
      'maxLineChars must be a non-negative integer',
    );
  });

  it('previews a long line around its first hit when that hit ends past the cut', async () => {
    const line = 'a'.repeat(50) + 'needle' + 'b'.repeat(30) + 'needle' + 'c'.repeat(100);
    const straddle = 'd'.repeat(17) + 'needle' + 'e'.repeat(40);
    const ws = new Workspace([
      new MemorySource({
        'a.ts': enc.encode(`short needle
${line}
${straddle}
`),
      }),
    ]);
    for (const literalLines of [true, false]) {
      const { matches } = await searchAll(
        ws,
        { pattern: 'needle', mode: 'literal', maxLineChars: 20, contextBefore: 1 },
        { literalLines },
      );
      expect(matches.map((m) => [m.line, m.text, m.ranges, m.textStart, m.contextBefore])).toEqual([
        [1, 'short needle', [[6, 12]], undefined, []],
        // the window opens cap/4 = 5 characters before the first hit; the second hit is past it
        [2, line.slice(45, 65), [[5, 11]], 45, ['short needle']],
        // a hit across the cut is shown whole
        [3, straddle.slice(12, 32), [[5, 11]], 12, [line.slice(0, 20)]],
      ]);
    }
  });

  it('counts newlines at any alignment', () => {
    const text = enc.encode('a\nbb\n\n\nccc\ndddd\n\ne\n'.repeat(7));
    for (let s = 0; s < 12; s++) {
      for (let e = s; e <= text.length; e += 5) {
        let want = 0;
        for (let i = s; i < e; i++) if (text[i] === 10) want++;
        expect(countNewlines(text.subarray(1), Math.max(0, s - 1), Math.max(0, e - 1))).toBe(
          countNewlines(text, s, e) - (s === 0 && text[0] === 10 ? 1 : 0),
        );
        expect(countNewlines(text, s, e)).toBe(want);
      }
    }
  });

  it('finds every occurrence of a needle as a naive search does, by the anchor byte, the skip search and the SIMD filter, caseless too (property)', () => {
    const byte = fc.constantFrom(...enc.encode('abcABC_ xyz'), 0x0a, 0xc3, 0xa9, 0x80, 0xff);
    const hayArb = fc
      .uint8Array({ maxLength: 200 })
      .chain((noise) =>
        fc.array(byte, { maxLength: 200 }).map((b) => new Uint8Array([...b, ...noise.slice(0, 8)])),
      );
    const naive = (hay: Uint8Array, needle: Uint8Array, caseless: boolean, from: number): number => {
      const fold = (b: number) => (caseless && b >= 65 && b <= 90 ? b + 32 : b);
      for (let i = Math.max(0, from); i + needle.length <= hay.length; i++) {
        let k = 0;
        while (k < needle.length && fold(hay[i + k]) === needle[k]) k++;
        if (k === needle.length) return i;
      }
      return -1;
    };
    const saved = { ...SKIP_SEARCH };
    const savedSimd = { ...SIMD_FIND };
    expect(simdModule()).not.toBeNull(); // Node runs WebAssembly SIMD: the filter is tested, not skipped
    try {
      fc.assert(
        fc.property(
          hayArb,
          fc.array(byte, { minLength: 1, maxLength: 12 }),
          fc.boolean(),
          fc.constantFrom('anchor', 'skip', 'simd'),
          (hay, raw, caseless, how) => {
            // a caseless needle is lowercase ASCII folding (as line-windows.ts gives it)
            const needle = new Uint8Array(raw.map((b) => (caseless && b >= 65 && b <= 90 ? b + 32 : b)));
            // the needle copied into the haystack too, so that most cases find something
            const at = hay.length ? raw.length % hay.length : 0;
            const h = new Uint8Array([...hay.slice(0, at), ...raw, ...hay.slice(at)]);
            SKIP_SEARCH.minLength = SKIP_SEARCH.minCaselessLength = how === 'skip' ? 1 : 100;
            // (the SIMD filter for every haystack, however short)
            SIMD_FIND.minBytes = how === 'simd' ? 0 : Infinity;
            const f = byteFinder(needle, caseless);
            const cursor = f.cursor(h);
            let want = naive(h, needle, caseless, 0);
            for (let from = 0; from <= h.length + 1; from++) {
              if (want !== -1 && want < from) want = naive(h, needle, caseless, from);
              expect(f.next(h, from)).toBe(want);
              expect(cursor(from)).toBe(want);
            }
          },
        ),
        { numRuns: 400 },
      );
    } finally {
      Object.assign(SKIP_SEARCH, saved);
      Object.assign(SIMD_FIND, savedSimd);
    }
  });
});

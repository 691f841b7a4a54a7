/**
 * The byte paths of a scan (byte-search.ts): pieces of lines for a matcher without literals
 * (chunk-scan.ts), literal-anchored lines with a shared factor of several literals, the
 * stateful byte finders and candidate lines under them (lines.ts), and bad input (UTF-16,
 * binary, unreadable). Each is compared with the reference path (every file decoded whole).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { bytePlan } from './byte-search';
import { CHUNK } from './chunk-scan';
import { literalLineFinders, sharedFactor } from './line-windows';
import { byteFinder, CandidateLines, countNewlines } from './lines';
import { compileMatcher } from './regex';
import { searchAll } from './search';
import type { GrepRequest } from './types';

const enc = new TextEncoder();
const defaultChunk = CHUNK.bytes;
afterEach(() => {
  CHUNK.bytes = defaultChunk;
});

const piece = fc.constantFrom(
  'a',
  'b',
  'k',
  'K',
  'é',
  '€',
  '😀',
  ' ',
  '(',
  'ab',
  'Error',
  'TypeError',
  'x1',
  '\n',
  '\n',
  '\r\n',
  '\r',
  '\ufeff',
);
const textFile = fc.array(piece, { maxLength: 80 }).map((p) => p.join(''));
const fileBytes = fc.oneof(
  textFile.map((t) => enc.encode(t)),
  textFile.map((t) => enc.encode(t)),
  // a UTF-8 byte-order mark, then maybe a NUL (text all the same without a literal prefilter)
  fc
    .tuple(textFile, fc.boolean())
    .map(([t, nul]) => new Uint8Array([0xef, 0xbb, 0xbf, ...(nul ? [0] : []), ...enc.encode(t)])),
  // invalid UTF-8, next to line ends too
  fc
    .tuple(
      textFile,
      fc.constantFrom([0xe2, 0x82], [0xff], [0xc3], [0xe2, 0x82, 0x0a], [0xf0, 0x9f]),
      textFile,
    )
    .map(([t, bad, u]) => new Uint8Array([...enc.encode(t), ...bad, ...enc.encode(u)])),
  // binary, and UTF-16LE with a BOM
  textFile.map((t) => new Uint8Array([...enc.encode(t.slice(0, 2)), 0, ...enc.encode(t)])),
  textFile.map((t) => {
    const out = [0xff, 0xfe];
    for (let i = 0; i < t.length; i++) out.push(t.charCodeAt(i) & 0xff, t.charCodeAt(i) >> 8);
    return new Uint8Array(out);
  }),
);
const files = fc.dictionary(fc.constantFrom('a.ts', 'b.txt', 'c/d.md'), fileBytes, { minKeys: 1 });

/** Patterns with no literal to anchor lines on (mostly), and a few with one. */
const noLiteral = fc.constantFrom(
  '\\w+',
  '[A-Z][a-z]+',
  '\\b[A-Z]\\w*Error\\b',
  '^',
  '$',
  '^$',
  'a*',
  '\\s+$',
  '[é€]',
  '\\pL+',
  '.',
  '(?i)k',
  '\\bx\\d',
  '[^a]b',
  'Error',
  'ab|ba',
);
const request = fc.record({
  pattern: noLiteral,
  mode: fc.constant<'regex'>('regex'),
  caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive', 'smart'),
  wholeWord: fc.boolean(),
  maxResults: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  countLimit: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
  maxLineChars: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  contextBefore: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  contextAfter: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

/** The byte path and the reference path (every file decoded whole) give the same answer. */
async function expectSameAsWhole(
  tree: Record<string, Uint8Array>,
  req: GrepRequest,
  bytePrefilter = true,
): Promise<void> {
  const ws = new Workspace([new MemorySource(tree)]);
  const a = await searchAll(ws, req, { bytePrefilter });
  const b = await searchAll(ws, req, { literalLines: false, bytePrefilter });
  expect(a.matches).toEqual(b.matches);
  const { elapsedMs: _a, ...sa } = a.summary;
  const { elapsedMs: _b, ...sb } = b.summary;
  expect(sa).toEqual(sb);
}

describe('pieces of lines (no literal to anchor on)', () => {
  it('give the same results as decoding each file whole, whatever the piece size (property)', async () => {
    let pieces = 0;
    await fc.assert(
      fc.asyncProperty(
        files,
        request,
        fc.constantFrom(1, 2, 5, 16, defaultChunk),
        fc.boolean(),
        async (tree, req, chunk, prefilter) => {
          const matcher = compileMatcher(req.pattern, req);
          if (bytePlan(matcher, undefined).pieces) pieces++;
          CHUNK.bytes = chunk;
          await expectSameAsWhole(tree, req, prefilter);
        },
      ),
      { numRuns: 1200 },
    );
    // the property must exercise the pieces, not only the literal path
    expect(pieces).toBeGreaterThan(400);
  });

  it('take context lines from the neighbouring pieces', async () => {
    CHUNK.bytes = 4;
    const tree = { 'a.ts': enc.encode('one\ntwo\nThree\nfour\nfive\n') };
    const ws = new Workspace([new MemorySource(tree)]);
    const got = await searchAll(ws, { pattern: '^T\\w+', mode: 'regex', contextBefore: 2, contextAfter: 2 });
    expect(got.matches).toEqual([
      {
        path: 'a.ts',
        line: 3,
        text: 'Three',
        ranges: [[0, 5]],
        contextBefore: ['one', 'two'],
        contextAfter: ['four', 'five'],
      },
    ]);
  });

  it('number lines across pieces, and a line longer than a piece is one piece', async () => {
    CHUNK.bytes = 8;
    const long = 'x'.repeat(50) + 'Zeta';
    const tree = { 'a.ts': enc.encode(`Alpha\n\n${long}\nbeta Gamma\n`) };
    const got = await searchAll(new Workspace([new MemorySource(tree)]), {
      pattern: '[A-Z][a-z]+',
      mode: 'regex',
    });
    expect(got.matches.map((m) => [m.line, m.ranges])).toEqual([
      [1, [[0, 5]]],
      [3, [[50, 54]]],
      [4, [[5, 10]]],
    ]);
  });

  it('skip a binary file, decode a UTF-16 file whole, and skip an unreadable one with its reason', async () => {
    class Unreadable extends MemorySource {
      override async read(p: string): Promise<Uint8Array> {
        if (p === 'gone.ts')
          throw new QuarryError('Unreadable', 'Not a regular file: gone.ts', {
            path: p,
            reason: 'notRegular',
          });
        return super.read(p);
      }
    }
    const utf16 = [0xff, 0xfe, ...[...'Hello\nWorld'].flatMap((c) => [c.charCodeAt(0), 0])];
    const source = new Unreadable({
      'bin.dat': new Uint8Array([65, 0, 66]),
      'u16.txt': new Uint8Array(utf16),
      'gone.ts': 'Hello',
    });
    const ws = new Workspace([source]);
    for (const literalLines of [undefined, false]) {
      const got = await searchAll(ws, { pattern: '[A-Z]\\w+', mode: 'regex' }, { literalLines });
      expect(got.matches.map((m) => [m.path, m.line, m.text])).toEqual([
        ['u16.txt', 1, 'Hello'],
        ['u16.txt', 2, 'World'],
      ]);
      expect(got.summary.skipped).toEqual([
        { path: 'bin.dat', reason: 'binary' },
        { path: 'gone.ts', reason: 'notRegular', detail: 'Not a regular file: gone.ts' },
      ]);
    }
  });

  it('are chosen without literals or with short ones, and never on the reference path', () => {
    const plan = (p: string, literalLines?: boolean) =>
      bytePlan(compileMatcher(p, { mode: 'regex', caseMode: 'sensitive' }), literalLines);
    expect(plan('\\w+Error').lineFinders).not.toBeNull();
    expect(plan('\\w+Error').pieces).toBe(false);
    expect(plan('[A-Z]\\w+').pieces).toBe(true);
    expect(plan('[A-Z]\\w+').lineFinders).toBeNull();
    // a literal of one or two bytes: pieces for whole files, lines for an index's candidate ranges
    expect(plan('e\\d').pieces).toBe(true);
    expect(plan('e\\d').lineFinders).not.toBeNull();
    expect(plan('é\\d').pieces).toBe(true); // é: two bytes in UTF-8
    expect(plan('é€\\d').pieces).toBe(false); // five
    expect(plan('abc\\d').pieces).toBe(false);
    expect(plan('[A-Z]\\w+', false)).toEqual({ lineFinders: null, pieces: false });
    expect(plan('Error', false)).toEqual({ lineFinders: null, pieces: false });
  });
});

describe('one search for what several literals share', () => {
  it('finds the factor every literal holds, only when it is long enough', () => {
    expect(sharedFactor(['useEffect', 'useLayoutEffect', 'useInsertionEffect'])).toBe('Effect');
    expect(sharedFactor(['readFile', 'readFileSync'])).toBe('readFile');
    expect(sharedFactor(['foo', 'bar'])).toBeNull();
    expect(sharedFactor(['abcd'])).toBeNull(); // one literal: nothing to share
    expect(sharedFactor(['xabcx', 'yabcy'])).toBeNull(); // 3 code units: too short
    expect(sharedFactor(['aaaaaaaaaaaaabcd', 'abcdzzzzzzzzzzzzz'])).toBeNull(); // less than half the shortest
    expect(sharedFactor(['😀😀x', '😀😀y'])).toBe('😀😀'); // whole surrogate pairs
    expect(sharedFactor(['a😀bcd', 'x\ud83dbcd'])).toBeNull(); // half a pair is never searched for
  });

  it('anchors lines on the factor', () => {
    const m = compileMatcher('useEffect|useLayoutEffect|useInsertionEffect', {
      mode: 'regex',
      caseMode: 'sensitive',
    });
    const lf = literalLineFinders(m)!;
    expect(lf.finders).toHaveLength(1);
    expect(lf.find('x useLayoutEffect(', 0)).toBe(11);
  });

  it('gives the same results as the reference path (property)', async () => {
    const word = fc.constantFrom(
      'useEffect',
      'useLayoutEffect',
      'Effect',
      'USEEFFECT',
      'useeffect',
      'use',
      'Layout',
      'x',
      ' ',
      '(',
      '\n',
      '\r\n',
      'é',
      'readFileSync',
      'readFile',
    );
    const tree = fc.dictionary(
      fc.constantFrom('a.js', 'b.js'),
      fc.array(word, { maxLength: 60 }).map((w) => enc.encode(w.join(''))),
      { minKeys: 1 },
    );
    const req = fc.record({
      pattern: fc.constantFrom(
        'useEffect|useLayoutEffect',
        '\\buse(?:Layout)?Effect\\(',
        'readFile|readFileSync',
        '(?:use|Layout)Effect',
      ),
      mode: fc.constant<'regex'>('regex'),
      caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive', 'smart'),
      wholeWord: fc.boolean(),
      contextBefore: fc.integer({ min: 0, max: 2 }),
      maxLineChars: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(tree, req, (t, r) => expectSameAsWhole(t, r)),
      { numRuns: 400 },
    );
  });
});

describe('byte finders and candidate lines', () => {
  const naiveFind = (hay: Uint8Array, needle: Uint8Array, caseless: boolean, from: number): number => {
    const fold = (b: number) => (caseless && b >= 65 && b <= 90 ? b + 32 : b);
    for (let i = from; i + needle.length <= hay.length; i++) {
      let k = 0;
      while (k < needle.length && fold(hay[i + k]) === needle[k]) k++;
      if (k === needle.length) return i;
    }
    return -1;
  };
  const hayUnit = fc.constantFrom('w', 'W', 'ab', 'aB', 'Ab', 'x', '\n', 'é', 'wab', 'WAB');

  it('a cursor finds what a search from each position finds, both anchor cases included (property)', () => {
    fc.assert(
      fc.property(
        fc.array(hayUnit, { maxLength: 80 }),
        fc.constantFrom('wab', 'ab', 'w', 'bx', 'é'),
        fc.boolean(),
        fc.array(fc.nat(40), { maxLength: 8 }),
        (units, lit, caseless, steps) => {
          const hay = enc.encode(units.join(''));
          const needle = enc.encode(caseless ? lit.toLowerCase() : lit);
          const f = byteFinder(needle, caseless);
          const next = f.cursor(hay);
          let from = 0;
          for (const step of steps) {
            from += step;
            expect(next(from)).toBe(naiveFind(hay, needle, caseless, from));
            expect(f.next(hay, from)).toBe(naiveFind(hay, needle, caseless, from));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('searches each anchor case once however many lines hold the needle (no rescans to the end)', () => {
    // 'w' on every line, 'W' nowhere: the caseless anchor's other case must not be searched for per line
    const hay = enc.encode('wab\n'.repeat(20000));
    let calls = 0;
    const counting = new Proxy(hay, {
      get(target, prop) {
        if (prop === 'indexOf') {
          return (v: number, from: number) => {
            calls++;
            return target.indexOf(v, from);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const lines = new CandidateLines(counting, 0, [byteFinder(enc.encode('wab'), true)]);
    let n = 0;
    while (lines.next() !== -1) n++;
    expect(n).toBe(20000);
    // one anchor search per line and one for the absent case, plus the line ends found natively
    expect(calls).toBeLessThan(3 * 20000);
  });

  it('candidate lines are the lines holding any needle, each once, with their ends (property)', () => {
    fc.assert(
      fc.property(
        fc.array(hayUnit, { maxLength: 80 }),
        fc.uniqueArray(fc.constantFrom('ab', 'w', 'x\n', 'wab', 'é'), { minLength: 1, maxLength: 3 }),
        fc.nat(20),
        (units, lits, from0) => {
          const text = units.join('');
          const hay = enc.encode(text);
          const needles = lits.filter((l) => !l.includes('\n')).map((l) => enc.encode(l));
          if (!needles.length) return;
          const from = Math.min(from0, hay.length);
          const want: Array<[number, number]> = [];
          let ls = 0;
          for (let i = 0; i <= hay.length; i++) {
            if (i === hay.length || hay[i] === 10) {
              const s = Math.max(ls, from);
              if (i >= from && needles.some((nd) => naiveFind(hay.subarray(0, i), nd, false, s) !== -1))
                want.push([s, i]);
              ls = i + 1;
            }
          }
          const lines = new CandidateLines(
            hay,
            from,
            needles.map((nd) => byteFinder(nd, false)),
          );
          const got: Array<[number, number]> = [];
          for (let s = lines.next(); s !== -1; s = lines.next()) got.push([s, lines.end]);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('counts newlines in buffers that change under the same offsets', () => {
    const a = enc.encode('a\nb\n'.repeat(300));
    const b = new Uint8Array(2000).fill(10);
    for (let k = 0; k < 3; k++) {
      expect(countNewlines(a, 1, 1001)).toBe(500);
      expect(countNewlines(b, 1, 1001)).toBe(1000);
      expect(countNewlines(b.subarray(3), 0, 997)).toBe(997);
    }
    // a longer buffer after a short one (the cached word view must grow)
    const big = new Uint8Array(1 << 16).fill(10);
    expect(countNewlines(big, 5, (1 << 16) - 3)).toBe((1 << 16) - 8);
  });
});

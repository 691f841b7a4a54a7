/** The byte prefilter never changes results: same matches with and without it (property). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { compileMatcher } from './regex';
import { bytePrefilter, compareWalkOrder, searchAll } from './search';
import type { GrepRequest } from './types';

const enc = new TextEncoder();
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
  'ab',
  'Ab',
  'kés',
);
const textFile = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
const fileBytes = fc.oneof(
  textFile.map((t) => enc.encode(t)),
  // invalid UTF-8 sprinkled in
  fc
    .tuple(textFile, fc.constantFrom([0xe2, 0x82], [0xff], [0xc3], [0x80, 0x80]))
    .map(([t, bad]) => new Uint8Array([...enc.encode(t), ...bad, ...enc.encode(t)])),
  // UTF-16LE with BOM
  textFile.map((t) => {
    const out = [0xff, 0xfe];
    for (const ch of t)
      for (let i = 0; i < ch.length; i++) out.push(ch.charCodeAt(i) & 0xff, ch.charCodeAt(i) >> 8);
    return new Uint8Array(out);
  }),
);
const files = fc.dictionary(fc.constantFrom('a.ts', 'b.txt', 'c/d.md'), fileBytes, { minKeys: 1 });
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
);
const request = fc.record({
  pattern: fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join('')),
  mode: fc.constantFrom<'regex' | 'literal'>('regex', 'literal'),
  caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive', 'smart'),
  wholeWord: fc.boolean(),
});

describe('byte prefilter', () => {
  it('gives the same results as decoding every file (property)', async () => {
    let used = 0;
    await fc.assert(
      fc.asyncProperty(files, request, async (tree, req) => {
        let matcher;
        try {
          matcher = compileMatcher(req.pattern, req);
        } catch {
          return;
        }
        if (bytePrefilter(matcher)) used++;
        const ws = new Workspace([new MemorySource(tree)]);
        const a = await searchAll(ws, req);
        const b = await searchAll(ws, req, { bytePrefilter: false });
        expect(a.matches).toEqual(b.matches);
        expect(a.summary.total).toBe(b.summary.total);
        expect(a.summary.skipped).toEqual(b.summary.skipped);
      }),
      { numRuns: 500 },
    );
    expect(used).toBeGreaterThan(100);
  });
});

describe('walk order', () => {
  /** The definition: segment by segment, by code unit; fewer segments first when one path is a prefix. */
  const reference = (a: string, b: string): number => {
    const sa = a.split('/');
    const sb = b.split('/');
    for (let i = 0; i < Math.min(sa.length, sb.length); i++)
      if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
    return sa.length - sb.length;
  };
  const segment = fc
    .array(fc.constantFrom('a', 'b', 'A', '-', '.', '_', '0', 'é', '😀', '~'), { minLength: 1, maxLength: 4 })
    .map((c) => c.join(''));
  const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

  it('compares in place as splitting into segments does (property)', () => {
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(Math.sign(compareWalkOrder(a, b))).toBe(Math.sign(reference(a, b)));
      }),
      { numRuns: 5000 },
    );
    // a segment that is a prefix of the other sorts first, although '-' < '/'
    expect(compareWalkOrder('a/b', 'a-b/c')).toBeLessThan(0);
    expect(compareWalkOrder('a-b/c', 'a/b')).toBeGreaterThan(0);
    expect(compareWalkOrder('a', 'a/b')).toBeLessThan(0);
    expect(compareWalkOrder('x/y', 'x/y')).toBe(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentOfText } from './compact';
import { splitLines } from './lines';
import {
  ByteLineInterner,
  commonPrefix,
  commonSuffix,
  deriveVersion,
  fullVersion,
  indentOf,
  lineCount,
  type ByteVersion,
} from './versions';

const enc = new TextEncoder();
const dec = new TextDecoder();
const lineArb = fc.constantFrom(
  '',
  'a',
  'b',
  '}',
  '  return x;',
  '\tif (y) {',
  'é ü',
  '日本',
  'x\r',
  '😀 emoji',
  '   ',
);
const textArb = fc
  .tuple(fc.array(lineArb, { maxLength: 25 }), fc.boolean())
  .map(([lines, eol]) => (lines.length ? lines.join('\n') + (eol ? '\n' : '') : ''));

/** A random edit of a text: lines inserted, deleted, replaced; the final newline added or removed. */
const editArb = (text: string) =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.nat(30), fc.nat(3), fc.array(lineArb, { maxLength: 3 })), { maxLength: 3 }),
      fc.constantFrom('keep', 'toggle-eol'),
    )
    .map(([edits, eol]) => {
      const lines = text === '' ? [] : text.split('\n');
      const hadEol = lines.length > 0 && lines[lines.length - 1] === '';
      if (hadEol) lines.pop();
      for (const [at, del, ins] of edits) lines.splice(at % (lines.length + 1), del, ...ins);
      const withEol = eol === 'toggle-eol' ? !hadEol : hadEol;
      return lines.length ? lines.join('\n') + (withEol ? '\n' : '') : '';
    });

/** The text of each line, from the version's bytes. */
function linesOf(v: ByteVersion): string[] {
  return Array.from({ length: lineCount(v) }, (_, i) => {
    const end = i === lineCount(v) - 1 && v.noEol ? v.starts[i + 1] : v.starts[i + 1] - 1;
    return dec.decode(v.bytes.subarray(v.starts[i], end));
  });
}

describe('file versions as byte lines', () => {
  it('a derived version equals the version split whole: line starts, ids, final newline; lines as splitLines reads them', () => {
    fc.assert(
      fc.property(
        textArb.chain((b) => fc.tuple(fc.constant(b), editArb(b))),
        ([b, a]) => {
          const interner = new ByteLineInterner();
          const cur = fullVersion(enc.encode(b), interner);
          const derived = deriveVersion(cur, enc.encode(a), interner);
          const whole = fullVersion(enc.encode(a), interner);
          expect([...derived.starts]).toEqual([...whole.starts]);
          expect([...derived.ids]).toEqual([...whole.ids]);
          expect(derived.noEol).toBe(whole.noEol);
          expect({ lines: linesOf(whole), noEol: whole.noEol }).toEqual(splitLines(a));
          // equal lines, equal ids; and only those
          const text = linesOf(whole);
          for (let i = 0; i < text.length; i++) {
            for (let j = 0; j < text.length; j++) {
              const sameLine =
                text[i] === text[j] &&
                (i === j || !whole.noEol || (i !== text.length - 1 && j !== text.length - 1));
              expect(whole.ids[i] === whole.ids[j]).toBe(sameLine);
            }
          }
          for (let i = 0; i < text.length; i++) expect(indentOf(whole, i)).toBe(indentOfText(text[i]));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a line without its newline at the end differs from the same line with one', () => {
    const interner = new ByteLineInterner();
    const a = fullVersion(enc.encode('x\nx'), interner);
    expect(a.ids[0]).not.toBe(a.ids[1]);
    expect(fullVersion(enc.encode('x\n'), interner).ids[0]).toBe(a.ids[0]);
  });

  it('a caller-supplied common suffix gives the same result', () => {
    const interner = new ByteLineInterner();
    const b = enc.encode('one\ntwo\nthree\nfour\n');
    const a = enc.encode('one\n2\nthree\nfour\n');
    const cur = fullVersion(b, interner);
    expect(linesOf(deriveVersion(cur, a, interner, commonSuffix(a, b)))).toEqual([
      'one',
      '2',
      'three',
      'four',
    ]);
  });

  it('only the changed middle is interned; the table grows past its first size', () => {
    const interner = new ByteLineInterner();
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
    const cur = fullVersion(enc.encode(lines.join('\n') + '\n'), interner);
    expect(interner.size).toBe(10_000);
    lines[500] = 'changed';
    deriveVersion(cur, enc.encode(lines.join('\n') + '\n'), interner);
    expect(interner.size).toBe(10_001);
  });

  it('common prefix and suffix (four bytes at a time) equal a byte-by-byte count, at any alignment', () => {
    const naivePrefix = (a: Uint8Array, b: Uint8Array) => {
      let i = 0;
      while (i < Math.min(a.length, b.length) && a[i] === b[i]) i++;
      return i;
    };
    const naiveSuffix = (a: Uint8Array, b: Uint8Array) => {
      let i = 0;
      while (i < Math.min(a.length, b.length) && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
      return i;
    };
    const bytes = fc.uint8Array({ maxLength: 40 }).map((x) => x.map((v) => v % 3));
    fc.assert(
      fc.property(bytes, bytes, bytes, fc.nat(3), fc.nat(3), (common, x, y, oa, ob) => {
        // the same bytes around different middles, at offsets 0-3 inside their buffers
        const place = (mid: Uint8Array, off: number) =>
          new Uint8Array([...new Uint8Array(off), ...common, ...mid, ...common]).subarray(off);
        const a = place(x, oa);
        const b = place(y, ob);
        expect(commonPrefix(a, b)).toBe(naivePrefix(a, b));
        expect(commonSuffix(a, b)).toBe(naiveSuffix(a, b));
        expect(commonSuffix(a, b, 3)).toBe(Math.min(3, naiveSuffix(a, b)));
      }),
      { numRuns: 500 },
    );
  });
});

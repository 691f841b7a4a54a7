import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentOfText } from './compact';
import { LineInterner, splitLines } from './lines';
import { diffIds } from './myers';
import { applyOps, diffLineIds, diffSplit, opsFromMarks } from './ops';
import { decodeSide, diffTexts } from './text-diff';
import { MAX_WORD_DIFF_WORK, tokenize, wordBudget, wordDiff, wordPairs } from './words';

/** Length of a longest common subsequence (the O(nm) oracle). */
function lcs<T>(a: readonly T[], b: readonly T[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++)
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[b.length];
}

const text = (lines: string[], eol = true) => (lines.length ? lines.join('\n') + (eol ? '\n' : '') : '');

// Few distinct lines, so matches (and ambiguous ones) are common.
const lineArb = fc.constantFrom('a', 'b', 'c', '', '  x', '}', 'return 1;', '\tif (y) {');
const linesArb = fc.array(lineArb, { maxLength: 40 });

describe('line diff: properties', () => {
  it('applying the edit script to A yields B (default mode, with compaction)', () => {
    fc.assert(
      fc.property(linesArb, linesArb, (a, b) => {
        const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false });
        expect(applyOps(a, b, d.ops)).toEqual(b);
        expect(d.removed).toBe(d.ops.filter((o) => o.op === 'delete').reduce((s, o) => s + o.n, 0));
        expect(d.added).toBe(d.ops.filter((o) => o.op === 'insert').reduce((s, o) => s + o.n, 0));
        expect(d.approximate).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('minimal mode finds a shortest edit script: removed + added = |A| + |B| - 2 LCS', () => {
    fc.assert(
      fc.property(linesArb, linesArb, (a, b) => {
        const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false }, { minimal: true });
        expect(d.removed + d.added).toBe(a.length + b.length - 2 * lcs(a, b));
        expect(applyOps(a, b, d.ops)).toEqual(b);
      }),
      { numRuns: 400 },
    );
  });

  it('the default mode is never shorter than minimal, and minimal on inputs with distinct lines', () => {
    fc.assert(
      fc.property(linesArb, linesArb, (a, b) => {
        const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false });
        expect(d.removed + d.added).toBeGreaterThanOrEqual(a.length + b.length - 2 * lcs(a, b));
      }),
    );
    const uniq = fc
      .uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 })
      .map((xs) => xs.map(String));
    fc.assert(
      fc.property(uniq, uniq, (a, b) => {
        const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false });
        expect(d.removed + d.added).toBe(a.length + b.length - 2 * lcs(a, b));
      }),
    );
  });

  it('compaction only moves changes: the same number of lines changes before and after', () => {
    fc.assert(
      fc.property(linesArb, linesArb, (a, b) => {
        const interner = new LineInterner();
        const ia = interner.ids32({ lines: a, noEol: false });
        const ib = interner.ids32({ lines: b, noEol: false });
        const raw = diffIds(ia, ib);
        const sum = (m: Uint8Array) => m.reduce((s, v) => s + v, 0);
        const compacted = diffLineIds(ia, ib, { a: (i) => indentOfText(a[i]), b: (i) => indentOfText(b[i]) });
        expect(compacted.removed).toBe(sum(raw.a));
        expect(compacted.added).toBe(sum(raw.b));
        expect(applyOps(a, b, compacted.ops)).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('word ranges: outside them, both lines hold the same words', () => {
    const word = fc.constantFrom('foo', 'bar', 'x', '1', '(', ')', ' ', '  ', '.', 'é', '😀');
    const lineOf = fc.array(word, { maxLength: 14 }).map((w) => w.join(''));
    fc.assert(
      fc.property(lineOf, lineOf, (a, b) => {
        const w = wordDiff(a, b);
        if (!w) return;
        const outside = (s: string, ranges: [number, number][]) => {
          let out = '';
          let pos = 0;
          for (const [start, end] of ranges) {
            expect(start).toBeGreaterThanOrEqual(pos);
            expect(end).toBeGreaterThan(start);
            out += s.slice(pos, start);
            pos = end;
          }
          expect(pos).toBeLessThanOrEqual(s.length);
          return (out + s.slice(pos)).replace(/\s+/g, '');
        };
        expect(outside(a, w.aRanges)).toBe(outside(b, w.bRanges));
      }),
      { numRuns: 400 },
    );
  });
});

describe('line diff: edge cases', () => {
  it('empty files: nothing, all added, all removed', () => {
    expect(diffTexts('', '')).toMatchObject({ ops: [], added: 0, removed: 0, aLines: 0, bLines: 0 });
    expect(diffTexts('', 'a\nb\n')).toMatchObject({
      ops: [{ op: 'insert', a: 0, b: 0, n: 2 }],
      added: 2,
      removed: 0,
    });
    expect(diffTexts('a\nb\n', '')).toMatchObject({
      ops: [{ op: 'delete', a: 0, b: 0, n: 2 }],
      added: 0,
      removed: 2,
    });
  });

  it('identical files are one equal run', () => {
    const t = 'one\ntwo\nthree\n';
    expect(diffTexts(t, t)).toMatchObject({
      ops: [{ op: 'equal', a: 0, b: 0, n: 3 }],
      added: 0,
      removed: 0,
      words: [],
    });
  });

  it('a missing newline at the end changes the last line (as git says "\\ No newline at end of file")', () => {
    const d = diffTexts('a\nb', 'a\nb\n');
    expect(d).toMatchObject({ aNoEol: true, bNoEol: false, removed: 1, added: 1 });
    expect(d.ops).toEqual([
      { op: 'equal', a: 0, b: 0, n: 1 },
      { op: 'delete', a: 1, b: 1, n: 1 },
      { op: 'insert', a: 2, b: 1, n: 1 },
    ]);
    // the text is the same, so no word is marked
    expect(d.words).toEqual([]);
    expect(splitLines('a\nb')).toEqual({ lines: ['a', 'b'], noEol: true });
    expect(splitLines('\n')).toEqual({ lines: [''], noEol: false });
  });

  it('CRLF: an edit in a CRLF file changes one line; converting to LF changes every line', () => {
    const crlf = 'one\r\nlet a = 1;\r\nthree\r\n';
    const d = diffTexts(crlf, 'one\r\nlet b = 1;\r\nthree\r\n');
    expect(d).toMatchObject({ removed: 1, added: 1, aEndings: 'crlf', bEndings: 'crlf' });
    // word ranges are on the shown text (no \r)
    expect(d.words).toEqual([{ a: 1, b: 1, aRanges: [[4, 5]], bRanges: [[4, 5]] }]);
    const lf = diffTexts(crlf, 'one\nlet a = 1;\nthree\n');
    expect(lf).toMatchObject({ removed: 3, added: 3, aEndings: 'crlf', bEndings: 'lf' });
  });

  it('binary detection: a NUL byte in the first 8 KiB, as git decides', () => {
    expect(decodeSide(null)).toEqual({ kind: 'absent' });
    expect(decodeSide(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))).toEqual({
      kind: 'binary',
      bytes: 7,
    });
    expect(decodeSide(new TextEncoder().encode('const a = 1;\n'))).toMatchObject({
      kind: 'text',
      text: 'const a = 1;\n',
      bytes: 13,
    });
    const late = new Uint8Array(9000).fill(0x61);
    late[8500] = 0;
    expect(decodeSide(late).kind).toBe('text');
    expect(decodeSide(new Uint8Array(10), 5)).toEqual({ kind: 'tooLarge', bytes: 10 });
  });

  it('an insertion next to equal lines lands where the indentation says (git indent heuristic)', () => {
    const a = ['function a() {', '  one();', '}', '', 'function c() {', '  three();', '}'];
    const b = [
      'function a() {',
      '  one();',
      '}',
      '',
      'function b() {',
      '  two();',
      '}',
      '',
      'function c() {',
      '  three();',
      '}',
    ];
    const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false });
    // git diff shows the new function and one blank line after it, not a blank line before it
    expect(d.ops).toEqual([
      { op: 'equal', a: 0, b: 0, n: 4 },
      { op: 'insert', a: 4, b: 4, n: 4 },
      { op: 'equal', a: 4, b: 8, n: 3 },
    ]);
  });

  it('5,000-line files with scattered edits diff fast and exactly; totally different large files stay bounded', () => {
    const a = Array.from({ length: 5000 }, (_, i) => `line ${i} ${i % 7 === 0 ? '' : 'x'.repeat(i % 13)}`);
    const b = a.slice();
    for (let i = 10; i < 5000; i += 250) b[i] = `changed ${i}`;
    b.splice(2500, 0, 'inserted');
    const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false });
    expect(d.removed).toBe(20);
    expect(d.added).toBe(21);
    expect(applyOps(a, b, d.ops)).toEqual(b);
    // nothing in common at all: every line is unmatched, no search needed
    const other = Array.from({ length: 50_000 }, (_, i) => `other ${i}`);
    const big = Array.from({ length: 50_000 }, (_, i) => `big ${i}`);
    expect(diffSplit({ lines: big, noEol: false }, { lines: other, noEol: false })).toMatchObject({
      removed: 50_000,
      added: 50_000,
      approximate: false,
    });
  });

  it('a tiny work budget ends the search with a valid, approximate script', () => {
    const a = Array.from({ length: 400 }, (_, i) => String(i % 9));
    const b = Array.from({ length: 400 }, (_, i) => String((i * 7) % 9));
    const d = diffSplit({ lines: a, noEol: false }, { lines: b, noEol: false }, { maxWork: 50 });
    expect(d.approximate).toBe(true);
    expect(applyOps(a, b, d.ops)).toEqual(b);
  });

  it('opsFromMarks rejects marks whose unchanged lines do not pair up', () => {
    expect(() => opsFromMarks(new Uint8Array([0]), new Uint8Array([]))).toThrow(/out of step/);
  });
});

describe('word diff', () => {
  it('marks the changed identifier only', () => {
    expect(wordDiff('  return total + item;', '  return sum + item;')).toEqual({
      aRanges: [[9, 14]],
      bRanges: [[9, 12]],
    });
  });
  it('joins two changed words across one space', () => {
    expect(wordDiff('let a b = 1;', 'let x y = 1;')).toEqual({ aRanges: [[4, 7]], bRanges: [[4, 7]] });
  });
  it('a rewritten line gets no word ranges', () => {
    expect(wordDiff('import { a } from "./a";', 'export default function main() {}')).toBeNull();
  });
  it('tokens: words, whitespace runs, single characters, surrogate pairs whole', () => {
    expect(tokenize('a_b1  (x)😀')).toEqual(['a_b1', '  ', '(', 'x', ')', '😀']);
  });
  it('all the pairs of a file share one work budget: a pathological file ends early, later pairs unhighlighted', () => {
    // 1,000 pairs of 1,990-character lines of '+' and '-' in random order: every one a costly minimal search
    let seed = 1;
    const source = Array.from({ length: 12_000 }, () =>
      (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0x10000 ? '+' : '-',
    ).join('');
    const n = 1000;
    const a = Array.from({ length: n }, (_, i) => source.slice(i * 5, i * 5 + 1990));
    const b = Array.from({ length: n }, (_, i) => source.slice(6000 + i * 3, 6000 + i * 3 + 1990));
    const budget = wordBudget();
    const pairs = wordPairs(
      a,
      b,
      [
        { op: 'delete', a: 0, b: 0, n },
        { op: 'insert', a: n, b: 0, n },
      ],
      budget,
    );
    // spent, and not overspent by more than a sliver: the search stops inside the pair that runs out
    expect(budget.left).toBeLessThanOrEqual(0);
    expect(-budget.left).toBeLessThan(MAX_WORD_DIFF_WORK / 100);
    // a prefix of the pairs was diffed, the rest have no ranges (their lines still count as changed)
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.length).toBeLessThan(n / 10);
    expect(pairs.map((p) => p.a)).toEqual(pairs.map((_, i) => pairs[0].a + i));
    // one pair alone fits well inside a fresh budget: it is the total that is bounded
    const one = wordBudget();
    expect(wordDiff(a[n - 1], b[n - 1], one)).not.toBeNull();
    expect(one.left).toBeGreaterThan(0);
    expect(wordDiff(a[n - 1], b[n - 1], { left: 100 })).toBeNull();
  });

  it('changed lines are paired in order inside a change', () => {
    const d = diffTexts(
      text(['keep', 'let total = 0;', 'total += 1;', 'keep']),
      text(['keep', 'let sum = 0;', 'sum += 1;', 'extra', 'keep']),
    );
    expect(d.words.map((w) => [w.a, w.b])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});

/** The no-jump rule: files in order until the list is touched; then what was seen stays put and arrivals go below it. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arrange, holdThrough } from './result-order';

interface F {
  path: string;
  score: number;
}
/** Higher score first, then path. */
const compare = (a: F, b: F) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const f = (path: string, score: number): F => ({ path, score });
/** One header row and `lines` line rows per file, as the list shows them. */
const rowsOf = (order: string[], lines = 2) =>
  order.flatMap((path) => Array.from({ length: lines + 1 }, () => ({ path })));

describe('arrange', () => {
  it('keeps every file in order while nothing is held: a better file that arrives goes on top', () => {
    const first = arrange([], 0, [f('CHANGELOG.md', 1), f('docs/a.md', 2)], compare);
    expect(first).toEqual(['docs/a.md', 'CHANGELOG.md']);
    expect(arrange(first, 0, [f('CHANGELOG.md', 1), f('docs/a.md', 2), f('src/a.ts', 9)], compare)).toEqual([
      'src/a.ts',
      'docs/a.md',
      'CHANGELOG.md',
    ]);
  });

  it('once touched, holds the files seen and puts arrivals in order below them', () => {
    const all = [f('c.md', 1), f('b.md', 2), f('a.test.ts', 3)];
    const shown = arrange([], 0, all, compare);
    expect(shown).toEqual(['a.test.ts', 'b.md', 'c.md']);
    // the viewport shows 4 rows: the first file and the header of the second
    const held = holdThrough(rowsOf(shown), 3, shown, 0);
    expect(held).toBe(2);
    const next = arrange(shown, held, [...all, f('src/x.ts', 9), f('src/y.ts', 5)], compare);
    expect(next).toEqual(['a.test.ts', 'b.md', 'src/x.ts', 'src/y.ts', 'c.md']);
    // scrolling on holds what comes into view; nothing held ever moves
    const held2 = holdThrough(rowsOf(next), 9, next, held);
    expect(held2).toBe(4);
    expect(
      arrange(next, held2, [...all, f('src/x.ts', 9), f('src/y.ts', 5), f('src/z.ts', 7)], compare),
    ).toEqual(['a.test.ts', 'b.md', 'src/x.ts', 'src/y.ts', 'src/z.ts', 'c.md']);
  });

  it('never holds fewer files than before, nor past the end of the list', () => {
    const order = ['a', 'b', 'c'];
    expect(holdThrough(rowsOf(order), 0, order, 2)).toBe(2);
    expect(holdThrough(rowsOf(order), 1000, order, 0)).toBe(3);
    expect(holdThrough([], 5, [], 0)).toBe(0);
  });

  it('re-sorts a file not held whose rank changed (more matches arrived)', () => {
    const shown = arrange([], 0, [f('a', 1), f('b', 2)], compare);
    expect(arrange(shown, 0, [f('a', 3), f('b', 2)], compare)).toEqual(['a', 'b']);
  });

  it('property: the held files stay a prefix, every file shows once, the rest is in order', () => {
    const arb = fc.array(
      fc.record({
        arrivals: fc.array(
          fc.record({ path: fc.constantFrom(...'abcdefghijklmnop'), score: fc.integer({ min: 0, max: 5 }) }),
          { maxLength: 4 },
        ),
        seen: fc.option(fc.nat(60)),
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(arb, (steps) => {
        const known = new Map<string, F>();
        let shown: string[] = [];
        let held = 0;
        for (const step of steps) {
          // a file arriving again keeps its first score (rank facts only grow in the app; any total order will do here)
          for (const a of step.arrivals) if (!known.has(a.path)) known.set(a.path, a);
          const all = [...known.values()];
          const next = arrange(shown, held, all, compare);
          expect(next.slice(0, held)).toEqual(shown.slice(0, held));
          expect([...next].sort()).toEqual(all.map((x) => x.path).sort());
          const rest = next.slice(held).map((p) => known.get(p)!);
          expect(rest).toEqual([...rest].sort(compare));
          shown = next;
          if (step.seen !== null) held = holdThrough(rowsOf(shown), step.seen, shown, held);
          expect(held).toBeLessThanOrEqual(shown.length);
        }
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchCount, packMatches, unpackMatch } from './match-codec';
import type { GrepMatch } from './types';

const str = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\t', ' ', '\u0000', 'Z'), maxLength: 12 });
const match = fc.record({
  line: fc.integer({ min: 1, max: 1e6 }),
  text: str,
  ranges: fc.array(fc.tuple(fc.nat(50), fc.nat(50)), { maxLength: 4 }),
  textStart: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
  contextBefore: fc.array(str, { maxLength: 3 }),
  contextAfter: fc.array(str, { maxLength: 3 }),
});

describe('match codec', () => {
  it('gives back every match as it was, in order (property)', () => {
    fc.assert(
      fc.property(fc.array(match, { maxLength: 20 }), (raw) => {
        const matches: GrepMatch[] = raw.map(({ textStart, ...m }) => ({
          path: 'p/a.ts',
          ...m,
          ...(textStart !== undefined ? { textStart } : {}),
        }));
        const packed = structuredClone(packMatches(matches));
        expect(matchCount(packed)).toBe(matches.length);
        const back = matches.map((_, i) => unpackMatch(packed, i, 'p/a.ts'));
        expect(back).toEqual(matches);
        expect(back.map((m) => JSON.stringify(m))).toEqual(
          matches.map((m) =>
            JSON.stringify({
              path: m.path,
              line: m.line,
              text: m.text,
              ranges: m.ranges,
              ...(m.textStart ? { textStart: m.textStart } : {}),
              contextBefore: m.contextBefore,
              contextAfter: m.contextAfter,
            }),
          ),
        );
      }),
    );
  });
});

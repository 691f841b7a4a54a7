/**
 * Required literals and required clauses are sound: every hit holds a literal of the
 * disjunction, and a literal of every clause (property, over random patterns and lines); the
 * clauses split a concatenation into its parts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCanonical } from './casefold';
import { compileMatcher } from './matcher';

/** Simple case folding of a string (the canonical member of each char's case orbit). */
function fold(s: string): string {
  return [...s].map((c) => String.fromCodePoint(foldCanonical(c.codePointAt(0)!))).join('');
}

const atom = fc.constantFrom(
  'a',
  'b',
  'k',
  'K',
  'é',
  'abc',
  'bca',
  'Kab',
  'fun',
  'Type(',
  '\\(',
  '.',
  '\\w',
  '\\s',
  '[ab]',
  '[a-c]',
  '[^a]',
  '\\b',
  '^',
  '$',
  '(?i:ab)',
  '(abc|kab)',
  '(ab|b)',
);
const quant = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}');
const pattern = fc
  .array(fc.tuple(atom, quant), { minLength: 1, maxLength: 6 })
  .map((parts) =>
    parts
      .map(([a, q]) =>
        q && a.length > 1 && !a.startsWith('[') && !a.startsWith('(') ? `(?:${a})${q}` : a + q,
      )
      .join(''),
  );
const line = fc
  .array(
    fc.constantFrom('a', 'b', 'c', 'k', 'K', '\u212a', 'é', 'É', ' ', '(', 'fun', 'Type(', 'abc', 'kab', 'x'),
    { maxLength: 24 },
  )
  .map((p) => p.join(''));

describe('required literals and clauses', () => {
  it('every hit holds a required literal and a literal of every clause (property)', () => {
    let withClauses = 0;
    fc.assert(
      fc.property(
        pattern,
        fc.constantFrom<Array<'sensitive' | 'insensitive'>>('sensitive', 'insensitive'),
        fc.array(line, { minLength: 1, maxLength: 6 }),
        (p, caseMode, lines) => {
          let m;
          try {
            m = compileMatcher(p, { mode: 'regex', caseMode });
          } catch {
            return;
          }
          const norm = m.caseInsensitive ? fold : (s: string) => s;
          const clauses = m.requiredClauses ?? [];
          if (clauses.length) withClauses++;
          for (const c of clauses) for (const lit of c) expect(lit.length).toBeGreaterThanOrEqual(3);
          for (const l of lines) {
            for (const [s, e] of m.lineHits(l)) {
              const hit = norm(l.slice(s, e));
              if (m.requiredLiterals) expect(m.requiredLiterals.some((lit) => hit.includes(lit))).toBe(true);
              for (const c of clauses) expect(c.some((lit) => hit.includes(lit))).toBe(true);
            }
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(withClauses).toBeGreaterThan(300);
  });

  it('splits a concatenation into its literal parts, and keeps only what an index can look up', () => {
    const clauses = (p: string, caseMode: 'sensitive' | 'insensitive' = 'sensitive') =>
      compileMatcher(p, { mode: 'regex', caseMode }).requiredClauses;
    expect(clauses('function\\s+\\w+Type\\(')).toEqual([['Type('], ['function']]);
    expect(clauses('colou?r\\s+\\w+ing')).toEqual([['color', 'colour'], ['ing']]);
    expect(clauses('(foo|bar)baz\\d+qux')).toEqual([['foobaz', 'barbaz'], ['qux']]);
    expect(clauses('(?i)Hello\\s+World')).toEqual([['world'], ['hello']]); // the more selective first
    // a part under `*` or `?` may be absent: no clause from it
    expect(clauses('abc(?:defg)*hij')).toEqual([['abc'], ['hij']]);
    expect(clauses('xyz(?:defg)?')).toEqual([['xyz']]);
    // a literal of fewer than 3 code units has no trigram: no clause
    expect(clauses('ab\\s+cd')).toEqual([]);
    expect(clauses('\\w+')).toEqual([]);
    expect(clauses('ab|cde')).toEqual([]);
  });
});

/**
 * Property tests: for random small patterns over a tiny alphabet and random multi-line texts,
 * every engine path (the chosen strategy, forced re2js, forced V8 where the bound allows, 'mixed'
 * with a tiny line limit so both engines run, the literal prefilter) must report exactly the hits
 * of the oracle (re2js with the user's original pattern, per line).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Multiply the number of random cases, e.g. REGEX_FC_RUNS=20 for a deep run. */
const RUNS = Number(process.env.REGEX_FC_RUNS ?? 1);
import { RE2JS } from 're2js';
import { compileMatcher, compileMatcherInternal, type InternalOptions } from './matcher';
import { cost } from './analyze';
import { oracleHits } from './oracle.testutil';
import { parse } from './parser';
import { simplify } from './analyze';
import { foldCanonical } from './casefold';

/** Simple case folding of a string (the canonical member of each char's case orbit). */
function fold(s: string): string {
  return [...s].map((c) => String.fromCodePoint(foldCanonical(c.codePointAt(0)!))).join('');
}

const ATOMS = [
  'a',
  'b',
  'A',
  'B',
  '.',
  '[ab]',
  '[^a]',
  '[a-b]',
  '[[:upper:]]',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\d',
  '\\b',
  '\\B',
  '^',
  '$',
  '\\z',
  '\\A',
  'ab',
  'ba',
  '(?i:a)',
  '(?-i:b)',
  '\\x61',
  '-',
  ' ',
  '\\-',
  '\\pL',
];
const QUANTS = ['*', '+', '?', '{2}', '{1,2}', '{0,3}', '{2,}', '*?', '+?', '??', '{1,3}?'];

const UNICODE_ATOMS = [
  'é',
  'É',
  's',
  'k',
  'K',
  '😀',
  '.',
  '\\pL',
  '\\p{Lu}',
  '\\PL',
  '[é-ü]',
  '[^é]',
  '(?i:é)',
  '(?i)s',
  '(?i:k)',
  '\\w',
  '\\b',
  '[😀-😂]',
  '\\x{1F601}',
  '(?i)[a-z]',
  '(?i)\\W',
  '(?i)\\p{Lu}',
  '(?i)[^k]',
];

function patternArb(depth: number, atoms: string[] = ATOMS): fc.Arbitrary<string> {
  const atom = fc.constantFrom(...atoms);
  if (depth === 0) return atom;
  const sub = patternArb(depth - 1, atoms);
  const grouped = sub.map((x) => `(?:${x})`);
  return fc.oneof(
    { weight: 3, arbitrary: atom },
    { weight: 3, arbitrary: fc.array(sub, { minLength: 2, maxLength: 3 }).map((xs) => xs.join('')) },
    { weight: 2, arbitrary: fc.array(sub, { minLength: 2, maxLength: 3 }).map((xs) => xs.join('|')) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.oneof(
            atom,
            grouped,
            sub.map((x) => `(${x})`),
          ),
          fc.constantFrom(...QUANTS),
        )
        .map(([x, q]) => x + q),
    },
    { weight: 1, arbitrary: sub.map((x) => `(?i)${x}`) },
    { weight: 1, arbitrary: sub.map((x) => `(?i:${x})`) },
  );
}

const unicodeTextArb = fc
  .array(fc.constantFrom('é', 'É', 's', 'S', 'ſ', 'k', 'K', '\u212a', '😀', '😁', 'a', ' ', '\n'), {
    maxLength: 30,
  })
  .map((cs) => cs.join(''));

const textArb = fc
  .array(fc.constantFrom('a', 'b', 'A', 'B', ' ', '-', '\n', 'a', 'b', '1'), { maxLength: 40 })
  .map((cs) => cs.join(''));

function scanAll(
  pattern: string,
  text: string,
  insensitive: boolean,
  wholeWord: boolean,
  internal: InternalOptions,
) {
  const m = compileMatcherInternal(
    pattern,
    { mode: 'regex', caseMode: insensitive ? 'insensitive' : 'sensitive', wholeWord },
    internal,
  );
  const hits: Array<[number, number]> = [];
  m.scan(text, (s, e) => {
    hits.push([s, e]);
  });
  return { m, hits };
}

function re2Accepts(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}

function checkAllPaths(pattern: string, text: string, insensitive: boolean, wholeWord: boolean): void {
  if (!re2Accepts(pattern)) {
    expect(() => compileMatcher(pattern, { mode: 'regex', caseMode: 'sensitive' })).toThrow();
    return;
  }
  const expected = oracleHits(pattern, text, { insensitive, wholeWord });
  const finite = Number.isFinite(cost(simplify(parse(pattern, insensitive).node)).q);
  const variants: Array<[string, InternalOptions]> = [
    ['default', {}],
    ['re2', { forceStrategy: 're2' }],
    ['re2+prefilter', { forceStrategy: 're2', prefilter: true }],
  ];
  if (finite) {
    variants.push(['native', { forceStrategy: 'native' }]);
    variants.push(['native+prefilter', { forceStrategy: 'native', prefilter: true }]);
    variants.push(['mixed/3', { forceStrategy: 'mixed', lineLimit: 3 }]);
    variants.push(['mixed/0', { forceStrategy: 'mixed', lineLimit: 0 }]);
  }
  for (const [name, internal] of variants) {
    const { m, hits } = scanAll(pattern, text, insensitive, wholeWord, internal);
    expect({ variant: name, pattern, text, hits }).toEqual({ variant: name, pattern, text, hits: expected });
    // Required literals: every hit must contain one of them.
    if (m.requiredLiterals) {
      for (const [s, e] of hits) {
        const hit = m.caseInsensitive ? fold(text.slice(s, e)) : text.slice(s, e);
        expect(
          m.requiredLiterals.some((l) => hit.includes(l)),
          `${pattern}: ${hit} lacks ${m.requiredLiterals}`,
        ).toBe(true);
      }
    }
  }
}

describe('matches the re2js oracle on random patterns and texts', () => {
  it(
    'case-sensitive',
    () => {
      fc.assert(
        fc.property(patternArb(3), textArb, (pattern, text) => checkAllPaths(pattern, text, false, false)),
        { numRuns: 600 * RUNS },
      );
    },
    30_000 * RUNS,
  );

  it(
    'case-insensitive',
    () => {
      fc.assert(
        fc.property(patternArb(3), textArb, (pattern, text) => checkAllPaths(pattern, text, true, false)),
        { numRuns: 300 * RUNS },
      );
    },
    30_000 * RUNS,
  );

  it(
    'non-ASCII: astral characters, Unicode classes, case folding',
    () => {
      fc.assert(
        fc.property(patternArb(2, UNICODE_ATOMS), unicodeTextArb, fc.boolean(), (pattern, text, ci) =>
          checkAllPaths(pattern, text, ci, false),
        ),
        { numRuns: 300 * RUNS },
      );
    },
    30_000 * RUNS,
  );

  it(
    'whole word',
    () => {
      fc.assert(
        fc.property(patternArb(2), textArb, fc.boolean(), (pattern, text, ci) =>
          checkAllPaths(pattern, text, ci, true),
        ),
        { numRuns: 300 * RUNS },
      );
    },
    30_000 * RUNS,
  );

  it(
    'lineHits equals scan on each line',
    () => {
      fc.assert(
        fc.property(patternArb(2), textArb, (pattern, text) => {
          if (!re2Accepts(pattern)) return;
          const m = compileMatcher(pattern, { mode: 'regex', caseMode: 'sensitive' });
          for (const line of text.split('\n')) {
            const expected: Array<[number, number]> = [];
            for (const [s, e] of oracleHits(pattern, line + '\n')) expected.push([s, e]);
            expect(m.lineHits(line)).toEqual(expected);
          }
        }),
        { numRuns: 200 * RUNS },
      );
    },
    30_000 * RUNS,
  );
});

/**
 * fast-check arbitraries for the query language's tests: parsed queries that parseQuery can
 * produce (for the print round trip), and query-like text built from the language's pieces.
 */
import fc from 'fast-check';
import { makeAnd, makeOr } from './parse';
import { normalizeRegex, regexError } from './scan';
import type { FilterField, ParsedQuery, QueryExpr, QueryFilter, QueryMode } from './types';

const START = [..."abcxyzé中019_.*+?#@!~<>=,;'&%$^|[]{}", '😀'];
const REST = [...START, '-', '/', '\\', '"', '('];
const SAFE_WORDS = [
  'http://x',
  'std::vector',
  'a:b',
  'f(x)',
  '(x)',
  '()',
  'foo(bar|baz)',
  'and',
  'or',
  'not',
  '--force',
  '-v',
];

const word = fc.oneof(
  fc
    .tuple(fc.constantFrom(...START), fc.array(fc.constantFrom(...REST), { maxLength: 5 }))
    .map(([a, rest]) => a + rest.join('')),
  fc.constantFrom(...SAFE_WORDS),
);
const gap = fc.constantFrom(' ', '  ', '\t', ' \n ', '\u3000');

/** A run of bare words as the literal mode reads it. */
export const bareText = fc
  .tuple(word, fc.array(fc.tuple(gap, word), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([g, w]) => g + w).join(''));

const anyText = (min: number) =>
  fc
    .array(fc.constantFrom('a', 'b', ' ', '"', '\\', '/', '(', ')', '-', ':', 'é', '😀', '\t', 'OR', 'x\\'), {
      minLength: min,
      maxLength: 8,
    })
    .map((parts) => parts.join(''))
    .filter((s) => s.length >= min);

export const regexPattern = fc
  .array(fc.constantFrom('a', 'b', '/', '\\', '.', '*', '(', ')', '|', ' ', '"', '[', ']', '\\/', '\\d'), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => normalizeRegex(parts.join('')))
  .filter((p) => p !== '' && regexError(p) === null);

function leaf(mode: QueryMode): fc.Arbitrary<QueryExpr> {
  const quoted = anyText(1).map((value): QueryExpr => ({ kind: 'term', value, quoted: true }));
  const regex = regexPattern.map((pattern): QueryExpr => ({ kind: 'regex', pattern }));
  if (mode === 'regex') return fc.oneof(quoted, regex);
  const bare = bareText.map((value): QueryExpr => ({ kind: 'term', value, quoted: false }));
  return fc.oneof(bare, bare, quoted, regex);
}

export function exprArb(mode: QueryMode): fc.Arbitrary<QueryExpr> {
  const { expr } = fc.letrec<{ expr: QueryExpr; and: QueryExpr; or: QueryExpr; not: QueryExpr }>((tie) => ({
    expr: fc.oneof({ maxDepth: 3, depthSize: 'small' }, leaf(mode), tie('and'), tie('or'), tie('not')),
    and: fc.array(tie('expr'), { minLength: 2, maxLength: 3 }).map(makeAnd),
    or: fc.array(tie('expr'), { minLength: 2, maxLength: 3 }).map(makeOr),
    not: tie('expr').map((item): QueryExpr => ({ kind: 'not', item })),
  }));
  return expr;
}

const isoDate = fc
  .record({
    y: fc.integer({ min: 1970, max: 2099 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    time: fc.constantFrom('', 'T12:30', 'T23:59:59Z', 'T00:00+02:00'),
  })
  .map(({ y, m, d, time }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}${time}`);
const age = fc
  .tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom('d', 'w', 'm', 'y'))
  .map(([n, unit]) => `${n}${unit}`);

const VALUE: Record<FilterField, fc.Arbitrary<string>> = {
  file: anyText(1),
  lang: anyText(1),
  root: anyText(1),
  author: anyText(1),
  type: fc.constantFrom('file', 'symbol', 'commit', 'diff'),
  case: fc.constantFrom('yes', 'no'),
  select: fc.constant('file'),
  count: fc.oneof(fc.constant('all'), fc.integer({ min: 1, max: 1_000_000 }).map(String)),
  before: fc.oneof(isoDate, age),
  after: fc.oneof(isoDate, age),
};

export const filterArb: fc.Arbitrary<QueryFilter> = fc
  .constantFrom(...(Object.keys(VALUE) as FilterField[]))
  .chain((field) => fc.record({ field: fc.constant(field), value: VALUE[field], negated: fc.boolean() }));

export function queryArb(mode: QueryMode): fc.Arbitrary<ParsedQuery> {
  return fc.record({
    filters: fc.array(filterArb, { maxLength: 3 }),
    expr: fc.option(exprArb(mode), { nil: null, freq: 5 }),
  });
}

const SOUP_PIECES = [
  'a',
  'foo',
  '/usr',
  'x(',
  '(a|b)',
  '"a b"',
  '"x\\"',
  '"x\\\\"',
  '"a\\/ b"',
  '"/ "',
  '/a/',
  '/a b/',
  '/a\\/',
  '/a\\\\/',
  '"',
  '\\',
  '/',
  '(',
  ')',
  '(',
  ')',
  '-',
  ':',
  'OR',
  'OR',
  'AND',
  'NOT',
  'NOT',
  '-"q"',
  '-/r/',
  'file:x',
  '-file:',
  'lang:"a b"',
  'x:',
  'lnag:',
  'type:diff',
  'count:3',
  'after:2w',
  'http://',
  '|',
  '*',
  'é',
  '😀',
];

/** Query-like text: the language's pieces (and broken pieces) in any order, mostly spaced. */
export const querySoup = fc
  .array(fc.tuple(fc.constantFrom(...SOUP_PIECES), fc.constantFrom(' ', ' ', ' ', '', '  ', '\t')), {
    maxLength: 10,
  })
  .map((parts) => parts.map(([piece, sep]) => piece + sep).join(''));

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { queryArb, querySoup } from './arbitrary.testutil';
import { parseQuery } from './parse';
import { printQuery } from './print';
import type { ParsedQuery, QueryExpr, QueryMode } from './types';

const t = (value: string): QueryExpr => ({ kind: 'term', value, quoted: false });
const q = (value: string): QueryExpr => ({ kind: 'term', value, quoted: true });
const re = (pattern: string): QueryExpr => ({ kind: 'regex', pattern });
const of = (expr: QueryExpr | null, filters: ParsedQuery['filters'] = []): ParsedQuery => ({ filters, expr });

describe('printQuery', () => {
  it.each([
    ['', ''],
    ['foo   bar', 'foo   bar'],
    ['lang:go foo -path:test', 'lang:go -file:test foo'],
    ['NOT language:go x', '-lang:go x'],
    ['repo:"my root" author:"a \\"b\\""', 'root:"my root" author:"a \\"b\\""'],
    ['file:"x"', 'file:x'],
    ['file:"a)"', 'file:"a)"'],
    ['file:"(a"', 'file:(a'],
    ['type:COMMIT since:2W count:0010', 'type:commit after:2w count:10'],
    ['a AND b', 'a AND b'],
    ['a lang:go b', 'lang:go a AND b'],
    ['NOT a AND b', 'NOT a AND b'],
    ['a NOT b', 'a NOT b'],
    ['"a" "b"', '"a" "b"'],
    ['(a OR b) c', '( a OR b ) c'],
    ['a b OR c', 'a b OR c'],
    ['NOT (a OR b)', 'NOT ( a OR b )'],
    ['NOT ("a" "b")', 'NOT ( "a" "b" )'],
    ['-"x" -/y/', 'NOT "x" NOT /y/'],
    ['/a\\/b/', '/a\\/b/'],
    ['"a\\\\" "\\d"', '"a\\\\" "\\d"'],
    ['"say \\"hi\\""', '"say \\"hi\\""'],
    ['/usr/bin "a\\/ b"', '/usr/bin "a\\/ b"'],
  ])('%s -> %s', (text, printed) => {
    expect(printQuery(parseQuery(text))).toBe(printed);
  });

  it('writes regex nodes with slashes, so regex-mode queries re-read in either mode', () => {
    const parsed = parseQuery('foo/bar (a|b) OR "x y"', { mode: 'regex' });
    expect(parsed.expr).toEqual({ kind: 'or', items: [re('foo/bar (a|b)'), q('x y')] });
    expect(printQuery(parsed)).toBe('/foo\\/bar (a|b)/ OR "x y"');
    expect(parseQuery(printQuery(parsed))).toEqual(parsed);
  });

  it('writes AND between bare terms that would otherwise join', () => {
    const expr: QueryExpr = {
      kind: 'and',
      items: [{ kind: 'not', item: t('a') }, t('b'), t('c d'), q('e'), t('f')],
    };
    expect(printQuery(of(expr))).toBe('NOT a AND b AND c d "e" f');
    expect(parseQuery(printQuery(of(expr)))).toEqual(of(expr));
  });
});

function roundTrips(parsed: ParsedQuery, mode: QueryMode): void {
  const text = printQuery(parsed);
  expect(parseQuery(text, { mode }), text).toEqual(parsed);
}

describe('printQuery round trip (property)', () => {
  it('re-reads every generated literal-mode query', () => {
    fc.assert(
      fc.property(queryArb('literal'), (parsed) => roundTrips(parsed, 'literal')),
      { numRuns: 400 },
    );
  });

  it('re-reads every generated regex-mode query in both modes', () => {
    fc.assert(
      fc.property(queryArb('regex'), (parsed) => {
        roundTrips(parsed, 'regex');
        roundTrips(parsed, 'literal');
      }),
      { numRuns: 400 },
    );
  });

  it('re-reads whatever the parser makes of query-like text', () => {
    for (const mode of ['literal', 'regex'] as const) {
      fc.assert(
        fc.property(querySoup, (text) => {
          let parsed: ParsedQuery;
          try {
            parsed = parseQuery(text, { mode });
          } catch (err) {
            if (err instanceof QuarryError) return;
            throw err;
          }
          roundTrips(parsed, mode);
        }),
        { numRuns: 1500 },
      );
    }
  });
});

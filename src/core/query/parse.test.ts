import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { parseQuery } from './parse';
import type { QueryExpr, QueryFilter } from './types';

const t = (value: string): QueryExpr => ({ kind: 'term', value, quoted: false });
const q = (value: string): QueryExpr => ({ kind: 'term', value, quoted: true });
const re = (pattern: string): QueryExpr => ({ kind: 'regex', pattern });
const and = (...items: QueryExpr[]): QueryExpr => ({ kind: 'and', items });
const or = (...items: QueryExpr[]): QueryExpr => ({ kind: 'or', items });
const not = (item: QueryExpr): QueryExpr => ({ kind: 'not', item });
const f = (field: QueryFilter['field'], value: string, negated = false): QueryFilter => ({
  field,
  value,
  negated,
});

describe('parseQuery: filters', () => {
  it.each([
    ['file:src/a.ts', f('file', 'src/a.ts')],
    ['path:src', f('file', 'src')],
    ['f:src', f('file', 'src')],
    ['lang:go', f('lang', 'go')],
    ['language:TypeScript', f('lang', 'TypeScript')],
    ['l:c++', f('lang', 'c++')],
    ['case:yes', f('case', 'yes')],
    ['case:NO', f('case', 'no')],
    ['root:app', f('root', 'app')],
    ['repo:app', f('root', 'app')],
    ['r:app', f('root', 'app')],
    ['type:file', f('type', 'file')],
    ['type:symbol', f('type', 'symbol')],
    ['type:Commit', f('type', 'commit')],
    ['type:diff', f('type', 'diff')],
    ['select:file', f('select', 'file')],
    ['count:10', f('count', '10')],
    ['count:007', f('count', '7')],
    ['count:ALL', f('count', 'all')],
    ['author:ann', f('author', 'ann')],
    ['author:"Ann Lee"', f('author', 'Ann Lee')],
    ['before:2024-01-31', f('before', '2024-01-31')],
    ['until:2024-02-29T12:30:00Z', f('before', '2024-02-29T12:30:00Z')],
    ['after:2w', f('after', '2w')],
    ['since:3D', f('after', '3d')],
    ['since:6m', f('after', '6m')],
    ['after:1y', f('after', '1y')],
    ['after:2024-05-01T08:00+02:00', f('after', '2024-05-01T08:00+02:00')],
    ['FILE:x', f('file', 'x')],
    ['Path:x', f('file', 'x')],
    ['file:"my dir/x.ts"', f('file', 'my dir/x.ts')],
    ['file:"say \\"hi\\" \\\\ \\d"', f('file', 'say "hi" \\ \\d')],
    ['file:a"b', f('file', 'a"b')],
    ['file:foo(1).ts', f('file', 'foo(1).ts')],
    ['file:a:b', f('file', 'a:b')],
    ['-file:test', f('file', 'test', true)],
    ['NOT file:test', f('file', 'test', true)],
    ['NOT -file:test', f('file', 'test', false)],
    ['lang:日本語', f('lang', '日本語')],
  ])('%s', (text, filter) => {
    expect(parseQuery(text)).toEqual({ filters: [filter], expr: null });
  });

  it('keeps repeated filters in order, anywhere at the top level', () => {
    expect(parseQuery('file:a foo -file:b bar lang:go')).toEqual({
      filters: [f('file', 'a'), f('file', 'b', true), f('lang', 'go')],
      expr: and(t('foo'), t('bar')),
    });
  });

  it('lets filters stand beside AND and on either side of OR', () => {
    expect(parseQuery('foo AND lang:go')).toEqual({ filters: [f('lang', 'go')], expr: t('foo') });
    expect(parseQuery('lang:go AND foo')).toEqual({ filters: [f('lang', 'go')], expr: t('foo') });
    expect(parseQuery('a OR b lang:go')).toEqual({ filters: [f('lang', 'go')], expr: or(t('a'), t('b')) });
    expect(parseQuery('lang:go a OR b')).toEqual({ filters: [f('lang', 'go')], expr: or(t('a'), t('b')) });
  });

  it('reads a key that is not a filter as text', () => {
    for (const text of ['http://x', 'std::vector', 'a:b', 'name:x', 'data:image', 'Content-Type:']) {
      expect(parseQuery(text)).toEqual({ filters: [], expr: t(text) });
    }
  });
});

describe('parseQuery: patterns', () => {
  it.each([
    ['', null],
    ['   \t ', null],
    ['foo', t('foo')],
    ['foo bar', t('foo bar')],
    ['  foo   bar\tbaz  ', t('foo   bar\tbaz')],
    ['foo"bar', t('foo"bar')],
    ['and or not', t('and or not')],
    ['-v --force', t('-v --force')],
    ['/usr/bin', t('/usr/bin')],
    ['/a/i', t('/a/i')],
    ['// TODO', t('// TODO')],
    ['foo(bar)', t('foo(bar)')],
    ['(foo)', t('(foo)')],
    ['()', t('()')],
    ['x( y', t('x( y')],
    ['café 😀 naïve', t('café 😀 naïve')],
    ['"quoted phrase"', q('quoted phrase')],
    ['"say \\"hi\\""', q('say "hi"')],
    ['"back\\\\slash \\d"', q('back\\slash \\d')],
    ['"OR"', q('OR')],
    ['"😀 x"', q('😀 x')],
    ['/fo+/', re('fo+')],
    ['/a b/', re('a b')],
    ['/a\\/b/', re('a/b')],
    ['/a\\\\/', re('a\\\\')],
    ['/\\d+ \\w/', re('\\d+ \\w')],
    ['/a/b c/', re('a/b c')],
    ['/ /', re(' ')],
    ['-"phrase"', not(q('phrase'))],
    ['-/re/', not(re('re'))],
  ])('%j', (text, expr) => {
    expect(parseQuery(text)).toEqual({ filters: [], expr });
  });

  it('reads bare words as one regex in regex mode, keeping parentheses in the pattern', () => {
    const rx = (text: string) => parseQuery(text, { mode: 'regex' }).expr;
    expect(rx('foo(bar|baz)')).toEqual(re('foo(bar|baz)'));
    expect(rx('foo  (bar|baz) x')).toEqual(re('foo  (bar|baz) x'));
    expect(rx('(a|b) OR c')).toEqual(or(re('(a|b)'), re('c')));
    expect(rx('(a OR b) c')).toEqual(and(or(re('a'), re('b')), re('c')));
    expect(rx('a\\/b')).toEqual(re('a/b'));
    expect(rx('"a.b" x.y')).toEqual(and(q('a.b'), re('x.y')));
    expect(rx('/a/ b')).toEqual(and(re('a'), re('b')));
    expect(rx('-x')).toEqual(re('-x'));
  });
});

describe('parseQuery: operators', () => {
  it.each([
    ['a OR b', or(t('a'), t('b'))],
    ['a AND b', and(t('a'), t('b'))],
    ['a b OR c', or(t('a b'), t('c'))],
    ['a AND b OR c', or(and(t('a'), t('b')), t('c'))],
    ['a OR b AND c', or(t('a'), and(t('b'), t('c')))],
    ['NOT a OR b', or(not(t('a')), t('b'))],
    ['NOT a b', not(t('a b'))],
    ['NOT a AND b', and(not(t('a')), t('b'))],
    ['a NOT b', and(t('a'), not(t('b')))],
    ['NOT NOT a', not(not(t('a')))],
    ['(a OR b) c', and(or(t('a'), t('b')), t('c'))],
    ['( a OR b ) c', and(or(t('a'), t('b')), t('c'))],
    ['NOT (a OR b)', not(or(t('a'), t('b')))],
    ['((a OR b))', or(t('a'), t('b'))],
    ['(a OR b) OR c', or(t('a'), t('b'), t('c'))],
    ['a OR (b OR c)', or(t('a'), t('b'), t('c'))],
    ['"a" ("b" "c")', and(q('a'), q('b'), q('c'))],
    ['"a" "b"', and(q('a'), q('b'))],
    ['foo /bar/', and(t('foo'), re('bar'))],
    ['foo "bar" baz', and(t('foo'), q('bar'), t('baz'))],
    ['"a"b', and(q('a'), t('b'))],
    ['a -"b" -/c/', and(t('a'), not(q('b')), not(re('c')))],
    ['(/a/ OR /b/)', or(re('a'), re('b'))],
    ['(a OR b)c', and(or(t('a'), t('b')), t('c'))],
  ])('%s', (text, expr) => {
    expect(parseQuery(text)).toEqual({ filters: [], expr });
  });

  it('reads a bare run broken by a filter as two terms', () => {
    expect(parseQuery('a lang:go b').expr).toEqual(and(t('a'), t('b')));
  });
});

function errorOf(text: string, mode: 'literal' | 'regex' = 'literal'): QuarryError {
  try {
    parseQuery(text, { mode });
  } catch (err) {
    if (err instanceof QuarryError) return err;
    throw err;
  }
  throw new Error(`no error for ${text}`);
}

describe('parseQuery: errors', () => {
  it.each([
    ['foo bar bz lnag:python', 'unknown filter `lnag:` at column 12 — did you mean `lang:`?', 12],
    ['😀 -fiel:x', 'unknown filter `fiel:` at column 5 — did you mean `file:`?', 5],
    ['atuhor:ann', 'unknown filter `atuhor:` at column 1 — did you mean `author:`?', 1],
    ['x rpeo:y', 'unknown filter `rpeo:` at column 3 — did you mean `repo:`?', 3],
    ['file:', 'filter `file:` needs a value', 1],
    ['foo -path: bar', 'filter `path:` needs a value', 6],
    ['file:""', 'filter `file:` needs a value', 1],
    ['( file: )', 'filter `file:` needs a value', 3],
    ['type:code', '`type:` must be file, symbol, commit or diff, not `code`', 6],
    ['type:symbl', '`type:` must be file, symbol, commit or diff, not `symbl`', 6],
    ['type:path', '`type:` must be file, symbol, commit or diff, not `path`', 6],
    ['case:maybe', '`case:` must be yes or no, not `maybe`', 6],
    ['select:repo', '`select:` must be file, not `repo`', 8],
    ['count:0', '`count:` must be a positive whole number or all, not `0`', 7],
    ['count:-3', '`count:` must be a positive whole number or all, not `-3`', 7],
    ['after:yesterday', '`after:` must be a date like 2024-05-31 or an age like 2w, not `yesterday`', 7],
    ['since:2024-02-30', '`since:` must be a date like 2024-05-31 or an age like 2w, not `2024-02-30`', 7],
    ['before:2024-13-01', '`before:` must be a date like 2024-05-31 or an age like 2w, not `2024-13-01`', 8],
    ['after:0d', '`after:` must be a date like 2024-05-31 or an age like 2w, not `0d`', 7],
    ['a "abc', 'missing the closing `"` of this quote', 3],
    ['file:"abc', 'missing the closing `"` of this quote', 6],
    ['-"x\\"', 'missing the closing `"` of this quote', 2],
    ['""', 'empty quotes', 1],
    ['foo OR', '`OR` needs a pattern after it', 5],
    ['OR foo', '`OR` needs a pattern before it', 1],
    ['a OR OR b', '`OR` needs a pattern after it', 3],
    ['(a OR) b', '`OR` needs a pattern after it', 4],
    ['foo AND', '`AND` needs a pattern after it', 5],
    ['AND foo', '`AND` needs a pattern before it', 1],
    ['a OR AND b', '`AND` needs a pattern before it', 6],
    ['NOT', '`NOT` needs a pattern after it', 1],
    ['foo NOT', '`NOT` needs a pattern after it', 5],
    ['( NOT ) a', '`NOT` needs a pattern after it', 3],
    ['(a OR b', 'unbalanced `(`: no `)` closes it', 1],
    ['x (a b', 'unbalanced `(`: no `)` closes it', 3],
    ['a)', 'unbalanced `)`: no `(` opens it', 2],
    ['(a) b)', 'unbalanced `)`: no `(` opens it', 6],
    [') a', 'unbalanced `)`: no `(` opens it', 1],
    ['( )', 'empty parentheses `()`', 1],
    ['(a file:x)', 'filters apply to the whole query: move `file:` out of the parentheses', 4],
    ['(a -path:x)', 'filters apply to the whole query: move `path:` out of the parentheses', 5],
    ['(NOT lang:go a)', 'filters apply to the whole query: move `lang:` out of the parentheses', 6],
    ['a OR file:x', "filters apply to the whole query: `file:` can't be a side of `OR`", 6],
    ['lang:go OR a', "filters apply to the whole query: `lang:` can't be a side of `OR`", 1],
    ['x /(/', 'invalid regex: Invalid regular expression: /(/: Unterminated group', 3],
  ])('%s', (text, message, column) => {
    const err = errorOf(text);
    expect(err.code).toBe('InvalidQuery');
    expect(err.message).toBe(message);
    expect(err.data).toMatchObject({ column, field: 'query' });
  });

  it('suggests a fix where one helps', () => {
    expect(errorOf('foo bar bz lnag:python').data.suggestion).toBe(
      'to search for the text, quote it: "lnag:python"',
    );
    expect(errorOf('foo OR').data.suggestion).toBe('quote it to search for the word: "OR"');
    expect(errorOf('type:code').data.suggestion).toBe('did you mean `type:file`?');
    expect(errorOf('type:commits').data.suggestion).toBe('did you mean `type:commit`?');
    expect(errorOf('case:true').data.suggestion).toBe('did you mean `case:yes`?');
    expect(errorOf('file:').data.suggestion).toBe('e.g. `file:src/`');
    expect(errorOf('(file:x a)').data.suggestion).toBeUndefined();
    expect('suggestion' in errorOf('x /(/').data).toBe(false);
  });

  it('checks the regex a bare run makes in regex mode, at the run', () => {
    const err = errorOf('"ok" foo( bar', 'regex');
    expect(err.message).toMatch(/^invalid regex: Invalid regular expression: .*Unterminated group/);
    expect(err.data.column).toBe(6);
    expect(parseQuery('"ok" foo( bar').expr).toEqual(and(q('ok'), t('foo( bar')));
  });

  it('counts columns in UTF-16 code units', () => {
    expect(errorOf('😀😀 a OR').data.column).toBe(8);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { querySoup } from './arbitrary.testutil';
import { tokenizeQuery } from './tokenize';
import type { QueryMode, QueryToken } from './types';

/** The tokens as [text, kind] pairs. */
function pieces(text: string, mode: QueryMode = 'literal'): [string, QueryToken['kind']][] {
  return tokenizeQuery(text, { mode }).map((tok) => [text.slice(tok.start, tok.end), tok.kind]);
}

describe('tokenizeQuery', () => {
  it('colours each piece of a query', () => {
    expect(pieces('-file:x (a OR "b c") NOT /d e/ lang:"go" AND -"f" foo bar')).toEqual([
      ['-file:', 'filter'],
      ['x', 'value'],
      ['(', 'paren'],
      ['a', 'term'],
      ['OR', 'operator'],
      ['"b c"', 'quoted'],
      [')', 'paren'],
      ['NOT', 'operator'],
      ['/d e/', 'regex'],
      ['lang:', 'filter'],
      ['"go"', 'value'],
      ['AND', 'operator'],
      ['-', 'operator'],
      ['"f"', 'quoted'],
      ['foo', 'term'],
      ['bar', 'term'],
    ]);
  });

  it('colours bare words as regex in regex mode', () => {
    expect(pieces('foo(a|b) x', 'regex')).toEqual([
      ['foo(a|b)', 'regex'],
      ['x', 'regex'],
    ]);
  });

  it('marks the bad piece as an error', () => {
    expect(pieces('a lnag:go b')).toEqual([
      ['a', 'term'],
      ['lnag:go', 'error'],
      ['b', 'term'],
    ]);
    expect(pieces('type:code x')).toEqual([
      ['type:', 'filter'],
      ['code', 'error'],
      ['x', 'term'],
    ]);
    expect(pieces('x "open')).toEqual([
      ['x', 'term'],
      ['"open', 'error'],
    ]);
    expect(pieces('file: x')).toEqual([
      ['file:', 'error'],
      ['x', 'term'],
    ]);
    expect(pieces('a OR')).toEqual([
      ['a', 'term'],
      ['OR', 'error'],
    ]);
    expect(pieces('(a b')).toEqual([
      ['(', 'error'],
      ['a', 'term'],
      ['b', 'term'],
    ]);
    expect(pieces('(a -file:x)')).toEqual([
      ['(', 'paren'],
      ['a', 'term'],
      ['-file:', 'error'],
      ['x', 'value'],
      [')', 'paren'],
    ]);
    expect(pieces('x /(/')).toEqual([
      ['x', 'term'],
      ['/(/', 'error'],
    ]);
    expect(pieces('x(', 'regex')).toEqual([['x(', 'error']]);
  });

  it('never throws; tokens are ordered, within the text, and cover all but whitespace (property)', () => {
    const check = (text: string, mode: QueryMode) => {
      const tokens = tokenizeQuery(text, { mode });
      let at = 0;
      for (const tok of tokens) {
        expect(tok.start).toBeGreaterThanOrEqual(at);
        expect(tok.end).toBeGreaterThan(tok.start);
        expect(tok.end).toBeLessThanOrEqual(text.length);
        expect(text.slice(at, tok.start)).toMatch(/^\s*$/);
        at = tok.end;
      }
      expect(text.slice(at)).toMatch(/^\s*$/);
    };
    const texts = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      querySoup,
    );
    fc.assert(fc.property(texts, fc.constantFrom<QueryMode>('literal', 'regex'), check), { numRuns: 1000 });
  });
});

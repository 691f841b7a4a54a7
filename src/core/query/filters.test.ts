import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { querySoup } from './arbitrary.testutil';
import { completeFilterValues, editDistance, filterFieldOf, QUERY_FILTERS, suggestFilter } from './filters';
import { parseQuery } from './parse';
import type { FilterField } from './types';

describe('QUERY_FILTERS', () => {
  it('lists every filter once, with its aliases', () => {
    const fields: FilterField[] = [
      'file',
      'lang',
      'case',
      'root',
      'type',
      'select',
      'count',
      'author',
      'before',
      'after',
    ];
    expect(QUERY_FILTERS.map((s) => s.field)).toEqual(fields);
    const aliases = Object.fromEntries(QUERY_FILTERS.map((s) => [s.field, s.aliases]));
    expect(aliases).toMatchObject({ file: ['path', 'f'], lang: ['language', 'l'], root: ['repo', 'r'] });
    expect(aliases).toMatchObject({ before: ['until'], after: ['since'] });
    for (const spec of QUERY_FILTERS) {
      expect(spec.description).not.toBe('');
      for (const name of [spec.field, ...spec.aliases])
        expect(filterFieldOf(name.toUpperCase())).toBe(spec.field);
      // every example parses to its own filter
      expect(parseQuery(spec.example).filters[0].field).toBe(spec.field);
    }
  });

  it('completes the closed sets and the examples, and nothing for open sets', () => {
    expect(completeFilterValues('type')).toEqual(['file', 'symbol', 'commit', 'diff']);
    expect(completeFilterValues('case')).toEqual(['yes', 'no']);
    expect(completeFilterValues('select')).toEqual(['file']);
    expect(completeFilterValues('count')).toContain('all');
    expect(completeFilterValues('after')).toContain('1w');
    for (const field of ['file', 'lang', 'root', 'author'] as const)
      expect(completeFilterValues(field)).toEqual([]);
    for (const field of ['type', 'case', 'select', 'count', 'before', 'after'] as const) {
      for (const value of completeFilterValues(field))
        expect(() => parseQuery(`${field}:${value}`)).not.toThrow();
    }
  });
});

describe('suggestFilter', () => {
  it.each([
    ['lnag', 'lang'],
    ['LNAG:', 'lang'],
    ['-fiel', 'file'],
    ['files', 'file'],
    ['langauge', 'language'],
    ['atuhor', 'author'],
    ['selct', 'select'],
    ['befor', 'before'],
    ['snice', 'since'],
    ['tpye', 'type'],
    ['path', 'path'],
    ['f', 'f'],
    ['name', undefined],
    ['data', undefined],
    ['http', undefined],
    ['std', undefined],
    ['url', undefined],
    ['xyzzy', undefined],
  ])('%s -> %s', (word, expected) => {
    expect(suggestFilter(word)).toBe(expected);
  });

  it('measures edits with adjacent swaps', () => {
    expect(editDistance('lnag', 'lang')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('parseQuery on any text (property)', () => {
  it('returns, or throws InvalidQuery with a column in [1, length + 1]', () => {
    const texts = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      querySoup,
    );
    fc.assert(
      fc.property(texts, fc.constantFrom('literal' as const, 'regex' as const), (text, mode) => {
        try {
          parseQuery(text, { mode });
        } catch (err) {
          expect(err).toBeInstanceOf(QuarryError);
          const e = err as QuarryError;
          expect(e.code).toBe('InvalidQuery');
          expect(e.data.field).toBe('query');
          expect(e.data.column).toBeGreaterThanOrEqual(1);
          expect(e.data.column).toBeLessThanOrEqual(text.length + 1);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

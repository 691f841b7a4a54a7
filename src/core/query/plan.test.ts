import { describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { searchAll } from '../grep/search';
import { dateValue, languagesNamed, planQuery, type PlanContext, type QueryPlan } from './plan';
import type { ParsedQuery, QueryFilter } from './types';
import { PATTERN_CHECK } from './plan-engine';

const ctx: PlanContext = {
  check: PATTERN_CHECK,
  caseSensitive: false,
  defaultCount: 500,
  roots: ['shop', 'ledger'],
  now: Date.UTC(2026, 0, 31),
};
const f = (field: QueryFilter['field'], value: string, negated = false): QueryFilter => ({
  field,
  value,
  negated,
});
const q = (
  filters: QueryFilter[],
  expr: ParsedQuery['expr'] = { kind: 'term', value: 'total', quoted: false },
): ParsedQuery => ({
  filters,
  expr,
});
const plan = (p: ParsedQuery, c: Partial<PlanContext> = {}): QueryPlan => planQuery(p, { ...ctx, ...c });

describe('planQuery', () => {
  it('a lone term is a plain text search with the box case and the default count', () => {
    const p = plan(q([]));
    expect(p.type).toBe('file');
    if (p.type !== 'file') return;
    expect(p.request).toMatchObject({
      pattern: 'total',
      mode: 'literal',
      caseMode: 'insensitive',
      maxResults: 500,
    });
    expect(p.request?.fileExpr).toBeUndefined();
    expect(p.roots).toBeNull();
  });

  it('case:, count:, lang:, file: and -lang: become the request', () => {
    const p = plan(
      q([
        f('case', 'yes'),
        f('count', '20'),
        f('lang', 'typescript'),
        f('file', 'src/'),
        f('lang', 'json', true),
      ]),
    );
    if (p.type !== 'file') throw new Error(p.type);
    expect(p.request).toMatchObject({ caseMode: 'sensitive', maxResults: 20 });
    expect(p.request?.extensions).toEqual(['ts', 'mts', 'cts', 'tsx']);
    expect(p.request?.pathRules).toEqual([
      { pattern: 'src/', glob: false, negated: false, caseSensitive: true },
      { pattern: '\\.(?:json|jsonc|json5)$', glob: false, negated: true, caseSensitive: false },
    ]);
    const all = plan(q([f('count', 'all')]));
    if (all.type === 'file') expect(all.request?.maxResults).toBeUndefined();
  });

  it('a value with glob characters is a glob', () => {
    const p = plan(q([f('file', '*.test.ts', true)]));
    expect(p.pathRules).toEqual([{ pattern: '*.test.ts', glob: true, negated: true, caseSensitive: false }]);
  });

  it('path rules filter the search: a regex anywhere in the path, globs, negations', async () => {
    const ws = new Workspace([
      new MemorySource({
        'src/a.ts': 'total\n',
        'src/a.test.ts': 'total\n',
        'lib/b.js': 'total\n',
        'README.md': 'total\n',
      }),
    ]);
    const paths = async (filters: QueryFilter[]) => {
      const p = plan(q(filters));
      if (p.type !== 'file' || !p.request) throw new Error('no request');
      return (await searchAll(ws, p.request)).files.map((x) => x.path).sort();
    };
    expect(await paths([f('file', '^src/')])).toEqual(['src/a.test.ts', 'src/a.ts']);
    expect(await paths([f('file', '^src/'), f('file', 'test', true)])).toEqual(['src/a.ts']);
    expect(await paths([f('file', '*.test.ts', true)])).toEqual(['README.md', 'lib/b.js', 'src/a.ts']);
    expect(await paths([f('lang', 'javascript')])).toEqual(['lib/b.js']);
    expect(await paths([f('lang', 'markdown', true), f('lang', 'ts', true)])).toEqual(['lib/b.js']);
  });

  it('a boolean expression becomes one alternation with the expression kept', () => {
    const p = plan(
      q([], {
        kind: 'and',
        items: [
          { kind: 'term', value: 'a.b', quoted: true },
          { kind: 'not', item: { kind: 'regex', pattern: 'x+' } },
        ],
      }),
    );
    if (p.type !== 'file') throw new Error(p.type);
    expect(p.request).toMatchObject({ pattern: 'a\\.b|(?:x+)', mode: 'regex' });
    expect(p.request?.fileExpr?.kind).toBe('and');
  });

  it('filters only: no text request', () => {
    const p = plan(q([f('file', 'src')], null));
    expect(p.type === 'file' && p.request).toBeNull();
  });

  it('root: is checked against the open roots, with a suggestion', () => {
    expect(plan(q([f('root', 'shop')])).roots).toEqual(['shop']);
    expect(plan(q([f('root', 'shop', true)])).roots).toEqual(['ledger']);
    expect(() => plan(q([f('root', 'shpo')]))).toThrow(
      'no open root is called `shpo` — did you mean `shop`?',
    );
    expect(() => plan(q([f('root', 'x')]), { roots: [] })).toThrow('root:x — only one root is open');
  });

  it('bad values: language, pattern, repeated single filters, history filters on files, select on symbols', () => {
    expect(() => plan(q([f('lang', 'pythn')]))).toThrow('unknown language `pythn` — did you mean `python`?');
    expect(() => plan(q([f('file', '(unclosed')]))).toThrow(
      /`file:\(unclosed` is not a pattern the search can run/,
    );
    expect(() => plan(q([f('case', 'yes'), f('case', 'no')]))).toThrow(
      '`case:` is given 2 times; give it once',
    );
    expect(() => plan(q([f('author', 'ann')]))).toThrow(/add type:commit or type:diff/);
    expect(() => plan(q([f('type', 'symbol'), f('select', 'file')]))).toThrow(/select:file lists files/);
    expect(() => plan(q([f('type', 'diff')], null))).toThrow(/type:diff needs a pattern/);
    expect(() =>
      plan(
        q([f('type', 'symbol')], {
          kind: 'or',
          items: [
            { kind: 'term', value: 'a', quoted: false },
            { kind: 'term', value: 'b', quoted: false },
          ],
        }),
      ),
    ).toThrow('type:symbol takes one pattern, not AND, OR or NOT');
    try {
      plan(q([f('lang', 'pythn')]));
    } catch (err) {
      expect(err).toMatchObject({ code: 'InvalidQuery', data: { suggestion: 'lang:python' } });
    }
  });

  it('history plans carry author and dates (ISO or relative)', () => {
    const p = plan(q([f('type', 'commit'), f('author', 'ann'), f('after', '2w'), f('before', '2026-01-15')]));
    if (p.type !== 'commit') throw new Error(p.type);
    expect(p).toMatchObject({
      author: 'ann',
      after: ctx.now! - 14 * 86_400_000,
      before: Date.UTC(2026, 0, 15),
    });
    expect(() => dateValue('after', 'yesterday')).toThrow(
      'after: needs a date such as 2024-05-01 or 2w (two weeks ago), got `yesterday`',
    );
  });

  it('languages by id, name, family and extension', () => {
    expect(languagesNamed('c++').map((l) => l.name)).toEqual(['C++', 'C++ header']);
    expect(languagesNamed('PY').map((l) => l.name)).toEqual(['Python']);
    expect(languagesNamed('.rs').map((l) => l.name)).toEqual(['Rust']);
  });
});

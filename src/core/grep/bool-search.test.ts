import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryExpr } from '../query/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { compileFileExpr, escapeRegex } from './bool-search';
import { compileMatcher } from './regex';
import { searchAll } from './search';
import type { GrepRequest } from './types';

const term = (value: string): QueryExpr => ({ kind: 'term', value, quoted: false });
const re = (pattern: string): QueryExpr => ({ kind: 'regex', pattern });
const and = (...items: QueryExpr[]): QueryExpr => ({ kind: 'and', items });
const or = (...items: QueryExpr[]): QueryExpr => ({ kind: 'or', items });
const not = (item: QueryExpr): QueryExpr => ({ kind: 'not', item });

const files = {
  'src/cart.ts': 'export function total(cart) {\n  return cart.items.reduce(sum, 0);\n}\n',
  'src/cart.test.ts': "import { total } from './cart';\nit('total', () => expect(total(cart)).toBe(0));\n",
  'src/price.ts': 'export const price = (item) => item.cost;\n// total is elsewhere\n',
  'docs/guide.md': '# Cart\nThe cart holds items.\n',
};

function request(fileExpr: QueryExpr, extra: Partial<GrepRequest> = {}): GrepRequest {
  const cx = compileFileExpr(fileExpr, { caseMode: 'sensitive' });
  return { pattern: cx.alternation, mode: 'regex', caseMode: 'sensitive', fileExpr, ...extra };
}

async function run(fileExpr: QueryExpr, extra: Partial<GrepRequest> = {}) {
  const r = await searchAll(new Workspace([new MemorySource(files)]), request(fileExpr, extra));
  return {
    paths: r.files.map((f) => f.path).sort(),
    lines: r.matches.map(
      (m) => `${m.path}:${m.line}:${m.ranges.map(([a, b]) => m.text.slice(a, b)).join(',')}`,
    ),
    summary: r.summary,
  };
}

describe('boolean file queries', () => {
  it('AND lists files that hold both patterns anywhere, with both patterns marked', async () => {
    const r = await run(and(term('total'), term('items')));
    expect(r.paths).toEqual(['src/cart.ts']);
    expect(r.lines).toEqual(['src/cart.ts:1:total', 'src/cart.ts:2:items']);
  });

  it('OR lists files holding either; NOT drops files holding the negated pattern and never shows its lines', async () => {
    expect((await run(or(term('price'), term('guide')))).paths).toEqual(['src/price.ts']);
    const r = await run(and(term('total'), not(term('expect'))));
    expect(r.paths).toEqual(['src/cart.ts', 'src/price.ts']);
    expect(r.lines.some((l) => l.includes('expect'))).toBe(false);
  });

  it('a regex pattern beside a literal, with case from the request', async () => {
    const r = await run(and(re('reduce\\('), term('Cart')), { caseMode: 'insensitive' });
    expect(r.paths).toEqual(['src/cart.ts']);
    expect(r.lines).toEqual(['src/cart.ts:1:cart', 'src/cart.ts:2:cart,reduce(']);
    expect((await run(and(re('reduce\\('), term('Cart')))).paths).toEqual([]);
  });

  it('the cap counts the lines listed after the file test; the total stays exact when counting goes on', async () => {
    const r = await run(or(term('total'), term('cart')), { maxResults: 2, countLimit: 1000 });
    expect(r.lines).toHaveLength(2);
    expect(r.summary.delivered).toBe(2);
    expect(r.summary.limitHit).toBe(true);
    const all = await run(or(term('total'), term('cart')));
    expect(r.summary.total).toBe(all.summary.total);
    expect(r.summary.totalIsExact).toBe(true);
  });

  it('NOT alone is refused: nothing to show', () => {
    expect(() => compileFileExpr(not(term('x')), { caseMode: 'sensitive' })).toThrow(
      /NOT needs something to search for/,
    );
  });

  it('a file is listed exactly when the expression holds over the patterns it contains (property, against a naive check)', async () => {
    const words = ['alpha', 'beta', 'gamma', 'delta'];
    const exprArb: fc.Arbitrary<QueryExpr> = fc.letrec<{ e: QueryExpr }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(...words).map(term),
        fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((items) => and(...items)),
        fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((items) => or(...items)),
        tie('e').map(not),
      ),
    })).e;
    const docArb = fc.dictionary(
      fc.constantFrom('a.ts', 'b.ts', 'c.ts', 'd/e.ts'),
      fc.array(fc.subarray(words), { maxLength: 4 }).map((lines) => lines.map((l) => l.join(' ')).join('\n')),
    );
    const evalExpr = (e: QueryExpr, text: string): boolean =>
      e.kind === 'term'
        ? text.includes(e.value)
        : e.kind === 'not'
          ? !evalExpr(e.item, text)
          : e.kind === 'and'
            ? e.items.every((x) => evalExpr(x, text))
            : e.kind === 'or'
              ? e.items.some((x) => evalExpr(x, text))
              : false;
    const positives = (e: QueryExpr, pos: boolean, out: Set<string>): Set<string> => {
      if (e.kind === 'term' && pos) out.add(e.value);
      if (e.kind === 'not') positives(e.item, !pos, out);
      if (e.kind === 'and' || e.kind === 'or') for (const x of e.items) positives(x, pos, out);
      return out;
    };
    await fc.assert(
      fc.asyncProperty(exprArb, docArb, async (expr, tree) => {
        const shown = positives(expr, true, new Set());
        fc.pre(shown.size > 0);
        const got = await searchAll(new Workspace([new MemorySource(tree)]), request(expr));
        const expected = Object.entries(tree)
          .filter(
            ([, text]) =>
              evalExpr(expr, text) && text.split('\n').some((l) => [...shown].some((w) => l.includes(w))),
          )
          .map(([p]) => p)
          .sort();
        expect(got.files.map((f) => f.path).sort()).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('escapeRegex makes any literal match itself only', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (s) => {
        fc.pre(!s.includes('\n') && !s.includes('\u0001'));
        const m = compileMatcher(escapeRegex(s), { mode: 'regex', caseMode: 'sensitive' });
        // fenced by a character it does not hold, the literal occurs exactly once
        expect(m.lineHits(`\u0001${s}\u0001`)).toEqual([[1, 1 + s.length]]);
      }),
    );
  });
});

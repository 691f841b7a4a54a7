/** Behaviour of compileMatcher: case modes, whole word, empty hits, CRLF, strategies, literals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Multiply the number of random cases, e.g. REGEX_FC_RUNS=20 for a deep run. */
const RUNS = Number(process.env.REGEX_FC_RUNS ?? 1);
import { compileMatcher, type MatcherOptions } from './index';
import { compileMatcherInternal as compileInternal, type InternalOptions } from './matcher';
import { oracleHits } from './oracle.testutil';

function hits(
  pattern: string,
  text: string,
  opts: Partial<MatcherOptions> = {},
  internal: InternalOptions = {},
): string[] {
  const m = compileInternal(pattern, { mode: 'regex', caseMode: 'sensitive', ...opts }, internal);
  const out: string[] = [];
  m.scan(text, (s, e) => {
    out.push(`${s}-${e}:${text.slice(s, e)}`);
  });
  return out;
}

/** The same hits from every engine path. */
function hitsAllPaths(pattern: string, text: string, opts: Partial<MatcherOptions> = {}): string[] {
  const base = hits(pattern, text, opts);
  expect(hits(pattern, text, opts, { forceStrategy: 're2' }), 're2').toEqual(base);
  let finite = true;
  try {
    compileInternal(pattern, { mode: 'regex', caseMode: 'sensitive', ...opts }, { forceStrategy: 'native' });
  } catch {
    finite = false;
  }
  if (finite) {
    expect(hits(pattern, text, opts, { forceStrategy: 'native' }), 'native').toEqual(base);
    expect(hits(pattern, text, opts, { forceStrategy: 'mixed', lineLimit: 2 }), 'mixed').toEqual(base);
  }
  return base;
}

describe('case modes', () => {
  it('smart case is insensitive for an all-lowercase pattern', () => {
    const m = compileMatcher('readme', { mode: 'regex', caseMode: 'smart' });
    expect(m.caseInsensitive).toBe(true);
    expect(hits('readme', 'README Readme readme', { caseMode: 'smart' })).toEqual([
      '0-6:README',
      '7-13:Readme',
      '14-20:readme',
    ]);
  });

  it('smart case is sensitive when a literal char is uppercase', () => {
    const m = compileMatcher('ReadMe', { mode: 'regex', caseMode: 'smart' });
    expect(m.caseInsensitive).toBe(false);
    expect(hits('ReadMe', 'README ReadMe', { caseMode: 'smart' })).toEqual(['7-13:ReadMe']);
    expect(hits('[A-Z]x', 'Ax ax', { caseMode: 'smart' })).toEqual(['0-2:Ax']);
    expect(hits('\\x41', 'A a', { caseMode: 'smart' })).toEqual(['0-1:A']);
  });

  it('smart case ignores escapes and class names', () => {
    expect(
      compileMatcher('\\W\\S\\D[[:upper:]]x', { mode: 'regex', caseMode: 'smart' }).caseInsensitive,
    ).toBe(true);
    expect(compileMatcher('\\pLx', { mode: 'regex', caseMode: 'smart' }).caseInsensitive).toBe(true);
    expect(hits('a\\Wb', 'A-B a b', { caseMode: 'smart' })).toEqual(['0-3:A-B', '4-7:a b']);
  });

  it('smart case without any literal stays sensitive (ripgrep)', () => {
    expect(compileMatcher('\\w+', { mode: 'regex', caseMode: 'smart' }).caseInsensitive).toBe(false);
  });

  it('insensitive and sensitive modes', () => {
    expect(hits('ReadMe', 'readme', { caseMode: 'insensitive' })).toEqual(['0-6:readme']);
    expect(hits('readme', 'README', { caseMode: 'sensitive' })).toEqual([]);
  });

  it('inline flags override the mode', () => {
    expect(hits('(?i)abc', 'ABC')).toEqual(['0-3:ABC']);
    expect(hits('(?-i)abc', 'ABC abc', { caseMode: 'insensitive' })).toEqual(['4-7:abc']);
    expect(hitsAllPaths('a(?i:b)c', 'abc aBc ABC abC')).toEqual(['0-3:abc', '4-7:aBc']);
    expect(compileMatcher('(?i)readme', { mode: 'regex', caseMode: 'sensitive' }).caseInsensitive).toBe(true);
    expect(compileMatcher('a(?i:b)c', { mode: 'regex', caseMode: 'sensitive' }).caseInsensitive).toBe(false);
  });

  it('case folding uses Unicode orbits (Kelvin sign, long s), \\b stays ASCII', () => {
    expect(hitsAllPaths('(?i)ks', 'KS \u212a\u017f ks')).toEqual(['0-2:KS', '3-5:\u212a\u017f', '6-8:ks']);
    // \b is ASCII in RE2 even under (?i): U+212A is not a word character for it.
    expect(hitsAllPaths('(?i)\\bx', '\u212ax kx')).toEqual(['1-2:x']);
  });

  it('literal mode: case modes and special characters', () => {
    const lit = (
      p: string,
      t: string,
      caseMode: MatcherOptions['caseMode'] = 'sensitive',
      wholeWord = false,
    ) => {
      const m = compileMatcher(p, { mode: 'literal', caseMode, wholeWord });
      const out: string[] = [];
      m.scan(t, (s, e) => {
        out.push(`${s}-${e}`);
      });
      return { out, m };
    };
    expect(lit('a.b*(', 'a.b*( axb')).toMatchObject({ out: ['0-5'], m: { strategy: 'literal' } });
    expect(lit('foo', 'FOO foo', 'smart')).toMatchObject({
      out: ['0-3', '4-7'],
      m: { caseInsensitive: true },
    });
    expect(lit('Foo', 'FOO Foo', 'smart').out).toEqual(['4-7']);
    expect(lit('foo', 'foobar foo', 'sensitive', true).out).toEqual(['7-10']);
    expect(lit('==', '=== ==', 'insensitive').m.strategy).toBe('literal');
  });
});

describe('whole word', () => {
  it('skips candidates inside words and keeps searching', () => {
    expect(hitsAllPaths('foo', 'foobar foo', { wholeWord: true })).toEqual(['7-10:foo']);
    expect(hitsAllPaths('foo', 'xfoo foo_ (foo) foo', { wholeWord: true })).toEqual([
      '11-14:foo',
      '16-19:foo',
    ]);
  });

  it('lets an alternation find the alternative that ends at a boundary', () => {
    expect(hitsAllPaths('foo|foobar', 'foobar foo', { wholeWord: true })).toEqual(['0-6:foobar', '7-10:foo']);
  });

  it('works at line boundaries and with punctuation patterns', () => {
    expect(hitsAllPaths('a', 'a\na a\nba', { wholeWord: true })).toEqual(['0-1:a', '2-3:a', '4-5:a']);
    expect(hitsAllPaths('-', 'a --b', { wholeWord: true })).toEqual(['2-3:-']);
    expect(hitsAllPaths('-', 'a -- b', { wholeWord: true })).toEqual(['2-3:-', '3-4:-']);
  });

  it('uses ASCII word characters', () => {
    expect(hitsAllPaths('caf', 'café caf', { wholeWord: true })).toEqual(['0-3:caf', '5-8:caf']);
  });
});

describe('empty hits', () => {
  it('are reported and the scan advances one code point', () => {
    expect(hitsAllPaths('a*', 'baaa')).toEqual(['0-0:', '1-4:aaa']);
    expect(hitsAllPaths('a*', '😀a')).toEqual(['0-0:', '2-3:a']);
    expect(hitsAllPaths('', '😀')).toEqual(['0-0:', '2-2:']);
  });

  it('match every line, including empty ones, but not after a final newline', () => {
    expect(hitsAllPaths('^', 'a\n\nb\n')).toEqual(['0-0:', '2-2:', '3-3:']);
    expect(hitsAllPaths('$', 'a\n\nb')).toEqual(['1-1:', '2-2:', '4-4:']);
    expect(hits('x*', '')).toEqual([]);
  });

  it('lineHits treats its argument as one line', () => {
    const m = compileMatcher('x*', { mode: 'regex', caseMode: 'sensitive' });
    expect(m.lineHits('')).toEqual([[0, 0]]);
    expect(m.lineHits('ax')).toEqual([
      [0, 0],
      [1, 2],
    ]);
  });
});

describe('CRLF', () => {
  it('$ matches before \\r\\n and at a bare \\n', () => {
    expect(hitsAllPaths('c$', 'abc\r\nc\nc\r')).toEqual(['2-3:c', '5-6:c', '7-8:c']);
    expect(hitsAllPaths('\\w+$', 'foo bar\r\nbaz\r\n')).toEqual(['4-7:bar', '9-12:baz']);
  });

  it('a \\r elsewhere is an ordinary character', () => {
    expect(hitsAllPaths('c\\r', 'c\r\nc\rx')).toEqual(['0-2:c\r', '3-5:c\r']);
    expect(hitsAllPaths('c.$', 'ac\r\n')).toEqual(['1-3:c\r']);
    expect(hitsAllPaths('\\s$', 'a \r\nb\r\n')).toEqual(['1-2: ', '2-3:\r', '5-6:\r']);
  });

  it('lineHits of a line that still has its \\r', () => {
    const m = compileMatcher('c$', { mode: 'regex', caseMode: 'sensitive' });
    expect(m.lineHits('abc\r')).toEqual([[2, 3]]);
  });

  it(
    'matches the oracle on CRLF texts (patterns that cannot consume \\r)',
    () => {
      const atoms = ['a', 'b', '[ab]', '\\w', '\\S', '^', '$', '\\b', 'a*', 'b+', '(?:a|ab)', '[^\\r\\s]'];
      const pat = fc
        .array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 4 })
        .map((xs) => xs.join(''));
      const line = fc.array(fc.constantFrom('a', 'b', ' ', 'a b'), { maxLength: 8 }).map((ws) => ws.join(''));
      const text = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\r\n') + '\r\n');
      fc.assert(
        fc.property(pat, text, fc.boolean(), (p, t, wholeWord) => {
          // Oracle: RE2 on each line without its '\r'; drop empty hits right after a '\r'.
          const stripped = t.replace(/\r\n/g, '\n');
          const expected: string[] = [];
          // Map offsets of the stripped text back to the CRLF text: each earlier line adds one '\r'.
          const toCrlf = (off: number) => off + (stripped.slice(0, off).match(/\n/g)?.length ?? 0);
          for (const [s, e] of oracleHits(p, stripped, { wholeWord }))
            expected.push(`${toCrlf(s)}-${toCrlf(e)}`);
          for (const internal of [{}, { forceStrategy: 're2' as const }]) {
            const got: string[] = [];
            compileInternal(p, { mode: 'regex', caseMode: 'sensitive', wholeWord }, internal).scan(
              t,
              (s, e) => {
                if (!(s === e && t[s - 1] === '\r')) got.push(`${s}-${e}`);
              },
            );
            expect({ p, t, wholeWord, got }).toEqual({ p, t, wholeWord, got: expected });
          }
        }),
        { numRuns: 300 * RUNS },
      );
    },
    30_000 * RUNS,
  );
});

describe('strategies', () => {
  const strategy = (p: string) => compileMatcher(p, { mode: 'regex', caseMode: 'sensitive' }).strategy;
  it.each([
    ['foo', 'literal'],
    ['TODO|FIXME', 'native'],
    ['(?i)readme', 'native'],
    ['a{2,5}b', 'native'],
    ['function\\s+calculateTotal', 'mixed'],
    ['\\w+Symbol\\(', 'mixed'],
    ['a*a*a*a*a*b', 'mixed'],
    ['(a+)+$', 're2'],
    ['(a|ab)*c', 're2'],
    ['(\\w+\\s?)+$', 're2'],
    ['(?:x\\w+)+', 're2'],
    ['(ab)*', 're2'],
  ])('%s -> %s', (p, s) => {
    expect(strategy(p)).toBe(s);
  });

  it('(a|a)*b is rewritten to [a]*b (bounded, so not re2 and not native)', () => {
    expect(strategy('(a|a)*b')).toBe('mixed');
  });

  it('mixed runs re2js on long lines and V8 on short ones, with the same hits', () => {
    const text = ['ab', 'x'.repeat(50) + 'ab', 'cab', 'ab'.repeat(30)].join('\n');
    const expected = oracleHits('a*b', text);
    const got: Array<[number, number]> = [];
    compileInternal('a*b', { mode: 'regex', caseMode: 'sensitive' }, { lineLimit: 10 }).scan(text, (s, e) => {
      got.push([s, e]);
    });
    expect(got).toEqual(expected);
    expect(got.length).toBe(1 + 1 + 1 + 30);
  });

  it('onHit returning false stops the scan', () => {
    for (const internal of [
      {},
      { forceStrategy: 're2' as const },
      { forceStrategy: 'mixed' as const, lineLimit: 1 },
    ]) {
      const m = compileInternal('a\\w*', { mode: 'regex', caseMode: 'sensitive' }, internal);
      const got: number[] = [];
      m.scan('ab ac\nad ae', (s) => {
        got.push(s);
        return got.length < 3;
      });
      expect(got).toEqual([0, 3, 6]);
    }
    const lit = compileMatcher('a', { mode: 'literal', caseMode: 'sensitive' });
    let n = 0;
    lit.scan('aaaa', () => ++n < 2);
    expect(n).toBe(2);
  });
});

describe('required literals', () => {
  const lits = (p: string, caseMode: MatcherOptions['caseMode'] = 'sensitive') =>
    compileMatcher(p, { mode: 'regex', caseMode }).requiredLiterals;
  it.each<[string, string[] | null]>([
    ['foo', ['foo']],
    ['TODO|FIXME', ['TODO', 'FIXME']],
    ['\\w+', null],
    ['foo\\d+barbaz', ['barbaz']],
    ['\\w+Symbol\\(', ['Symbol(']],
    ['function\\s+calculateTotal', ['calculateTotal']],
    ['colou?r', ['color', 'colour']],
    ['(foo|bar)+baz', ['baz']],
    ['a(?i:b)c', ['abc', 'aBc']],
    ['x*', null],
    ['(?:abc)?', null],
    ['\\bfoo\\b', ['foo']],
  ])('%s -> %j', (p, expected) => {
    const got = lits(p);
    if (expected === null) expect(got).toBeNull();
    else expect([...(got ?? [])].sort()).toEqual([...expected].sort());
  });

  it('are lowercased when case-insensitive', () => {
    expect(lits('(?i)ReadMe')).toEqual(['readme']);
    expect(lits('TODO|fixme', 'insensitive')?.sort()).toEqual(['fixme', 'todo']);
    expect(lits('readme', 'smart')).toEqual(['readme']);
  });
});

/** Table-driven tests of the parser and translator: hits of good patterns, errors of bad ones. */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../errors';
import { compileMatcher, isValidRegex } from './index';
import type { CaseMode } from './index';

function hits(pattern: string, text: string, caseMode: CaseMode = 'sensitive', wholeWord = false): string[] {
  const m = compileMatcher(pattern, { mode: 'regex', caseMode, wholeWord });
  const out: string[] = [];
  m.scan(text, (s, e) => {
    out.push(`${s}-${e}:${text.slice(s, e)}`);
  });
  return out;
}

/** [pattern, text, expected hits as "start-end:text"] */
const GOOD: Array<[string, string, string[]]> = [
  // literals and escapes
  ['abc', 'xabcabc', ['1-4:abc', '4-7:abc']],
  ['a\\.b', 'a.b axb', ['0-3:a.b']],
  ['\\x41\\x{42}\\u0043\\u{44}', 'ABCD', ['0-4:ABCD']],
  ['\\t', 'a\tb', ['1-2:\t']],
  ['\\x{263a}', 'smile ☺', ['6-7:☺']],
  ['\\Q a.b*\\E+', ' a.b** a.b', ['0-6: a.b**']],
  ['\\Qa|b', 'a|b', ['0-3:a|b']],
  ['\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/\\-', '*+?()[]{}|^$\\/-', ['0-15:*+?()[]{}|^$\\/-']],
  ['\\060\\0', '0\0', ['0-2:0\0']],
  // dot, classes
  ['a.c', 'abc a\tc', ['0-3:abc', '4-7:a\tc']],
  ['[a-c]+', 'xxabcdab', ['2-5:abc', '6-8:ab']],
  ['[^a-c]+', 'abxyc', ['2-4:xy']],
  ['[]a]+', 'x]a]', ['1-4:]a]']],
  ['[^]a]', ']ab', ['2-3:b']],
  ['[a-]+', 'x-a-', ['1-4:-a-']],
  ['[[:alpha:]]+', '12ab3', ['2-4:ab']],
  ['[[:^alpha:][:upper:]]+', 'abC1d', ['2-4:C1']],
  ['[\\d\\s]+', 'a1 2b', ['1-4:1 2']],
  ['[^\\W]+', '--ab_1--', ['2-6:ab_1']],
  ['\\d+', 'a123b٣', ['1-4:123']],
  ['\\w+', 'héllo', ['0-1:h', '2-5:llo']],
  ['\\s', 'a b\tc\vd', ['1-2: ', '3-4:\t']],
  ['\\S+', 'a\vb c', ['0-3:a\vb', '4-5:c']],
  ['\\pL+', '12éa3', ['2-4:éa']],
  ['\\p{Greek}+', 'abc αβγ', ['4-7:αβγ']],
  ['\\PL+', 'ab12cd', ['2-4:12']],
  ['\\p{^L}+', 'ab12cd', ['2-4:12']],
  ['[\\p{Lu}\\d]+', 'aB1c', ['1-3:B1']],
  // anchors
  ['^ab', 'ab ab\nab', ['0-2:ab', '6-8:ab']],
  ['ab$', 'ab ab\nab', ['3-5:ab', '6-8:ab']],
  ['\\Aab', 'ab\nab', ['0-2:ab', '3-5:ab']],
  ['ab\\z', 'ab\nab', ['0-2:ab', '3-5:ab']],
  ['(?m)^a$', 'a\na', ['0-1:a', '2-3:a']],
  ['\\bfoo\\b', 'foo foobar barfoo (foo)', ['0-3:foo', '19-22:foo']],
  ['\\Boo\\B', 'foo foobar', ['5-7:oo']],
  // groups and alternation
  ['(ab)+', 'ababa', ['0-4:abab']],
  ['(?:ab|a)c', 'abc ac', ['0-3:abc', '4-6:ac']],
  ['(?P<x>a)(?<y>b)', 'ab', ['0-2:ab']],
  ['a|ab', 'ab', ['0-1:a']],
  ['ab|a', 'ab', ['0-2:ab']],
  ['TODO|FIXME', 'x TODO y FIXME', ['2-6:TODO', '9-14:FIXME']],
  // quantifiers
  ['a{2}', 'aaaaa', ['0-2:aa', '2-4:aa']],
  ['a{2,}', 'a aaa', ['2-5:aaa']],
  ['a{1,2}', 'aaa', ['0-2:aa', '2-3:a']],
  ['a{,2}', 'a{,2}', ['0-5:a{,2}']],
  ['a+?', 'aaa', ['0-1:a', '1-2:a', '2-3:a']],
  ['a*?b', 'aab', ['0-3:aab']],
  ['a??b', 'ab', ['0-2:ab']],
  ['(?U)a+', 'aaa', ['0-1:a', '1-2:a', '2-3:a']],
  ['(?U)a+?', 'aaa', ['0-3:aaa']],
  ['x(?:ab){2,3}', 'xababab', ['0-7:xababab']],
  // flags
  ['(?i)abc', 'ABC aBc abc', ['0-3:ABC', '4-7:aBc', '8-11:abc']],
  ['a(?i:b)c', 'abc aBc ABC abC', ['0-3:abc', '4-7:aBc']],
  ['(?i)a(?-i)b', 'Ab AB ab', ['0-2:Ab', '6-8:ab']],
  ['(?i:a|b)c', 'Ac Bc bC', ['0-2:Ac', '3-5:Bc']],
  ['(?i)[a-c]+', 'xAbC', ['1-4:AbC']],
  ['(?i)[^a]', 'aAb', ['2-3:b']],
  ['(?i)k', 'kK\u212a', ['0-1:k', '1-2:K', '2-3:\u212a']],
  ['(?i)σ', 'Σσς', ['0-1:Σ', '1-2:σ', '2-3:ς']],
  ['(?s).', 'ab', ['0-1:a', '1-2:b']],
  ['(?x) a b # comment', 'ab', ['0-2:ab']],
  ['(?x)a\\ b', 'a b', ['0-3:a b']],
  // empty pattern and empty hits
  ['', 'ab', ['0-0:', '1-1:', '2-2:']],
  ['a*', 'baa', ['0-0:', '1-3:aa']],
  ['x*', 'ab\n\nc', ['0-0:', '1-1:', '2-2:', '3-3:', '4-4:', '5-5:']],
  // astral characters are one code point
  ['.', '😀a', ['0-2:😀', '2-3:a']],
  ['^.$', '😀\na', ['0-2:😀', '3-4:a']],
  ['[😀-😂]+', 'x😀😁y', ['1-5:😀😁']],
  ['\\x{1F600}', '😀', ['0-2:😀']],
];

/** [pattern, fragment of the expected message] */
const BAD: Array<[string, string]> = [
  ['(ab', 'unclosed group'],
  ['ab)', 'unmatched )'],
  ['[a', 'unclosed character class'],
  ['[]', 'unclosed character class'],
  ['*a', 'missing argument to repetition operator'],
  ['a|+', 'missing argument to repetition operator'],
  ['(?i)*', 'missing argument to repetition operator'],
  ['a**', 'invalid nested repetition operator'],
  ['a{2}{3}', 'invalid nested repetition operator'],
  ['a{2,1}', 'invalid repeat count'],
  ['a{1001}', 'invalid repeat count'],
  ['(a{100}){11}', 'invalid repeat count'],
  ['(a)\\1', 'backreferences are not supported'],
  ['(?P<n>a)(?P=n)', 'backreferences'],
  ['(?=a)', 'look-around'],
  ['(?!a)', 'look-around'],
  ['(?<=a)b', 'look-around'],
  ['(?<!a)b', 'look-around'],
  ['a\\nb', "the literal '\\n' is not allowed"],
  ['a\nb', "the literal '\\n' is not allowed"],
  ['\\x0a', "the literal '\\n' is not allowed"],
  ['[\\n]', "the literal '\\n' is not allowed"],
  ['[z-a]', 'invalid character class range'],
  ['[[:foo:]]', 'invalid character class range'],
  ['\\p{Foo}', 'unknown Unicode class'],
  ['\\pX', 'unknown Unicode class'],
  ['\\q', 'invalid escape sequence'],
  ['\\Z', 'invalid escape sequence'],
  ['\\C', 'not supported'],
  ['\\x{110000}', 'not a Unicode scalar value'],
  ['\\xZ1', 'invalid escape sequence'],
  ['[a-\\d]', 'invalid escape sequence'],
  ['a\\', 'trailing backslash'],
  ['(?P<1-x>a)', 'invalid named capture'],
  ['(?P<n>a)(?P<n>b)', 'duplicate capture group name'],
  ['(?z)', 'invalid or unsupported Perl syntax'],
  ['(?i-)', 'invalid flags'],
  ['(?#c)', 'invalid or unsupported Perl syntax'],
];

describe('good patterns', () => {
  it.each(GOOD)('%j on %j', (pattern, text, expected) => {
    expect(hits(pattern, text)).toEqual(expected);
    expect(isValidRegex(pattern)).toBe(true);
  });
});

describe('bad patterns', () => {
  it.each(BAD)('%j is rejected (%s)', (pattern, fragment) => {
    let err: unknown;
    try {
      compileMatcher(pattern, { mode: 'regex', caseMode: 'sensitive' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QuarryError);
    const q = err as QuarryError;
    expect(q.code).toBe('InvalidPattern');
    expect(q.message).toContain('regex parse error');
    expect(q.message).toContain(fragment);
    expect(q.data.pattern).toBe(pattern);
    expect(isValidRegex(pattern)).toBe(false);
  });

  it('reports where the error is', () => {
    const offsetOf = (p: string) => {
      try {
        compileMatcher(p, { mode: 'regex', caseMode: 'sensitive' });
      } catch (e) {
        return (e as QuarryError).data.offset;
      }
      return 'no error';
    };
    expect(offsetOf('ab(cd')).toBe(2);
    expect(offsetOf('ab[cd')).toBe(2);
    expect(offsetOf('abc**')).toBe(3);
    expect(offsetOf('x(a)\\1')).toBe(4);
    expect(offsetOf('xy(?=a)')).toBe(2);
    expect(offsetOf('ab\ncd')).toBe(2);
  });

  it('a literal-mode pattern with a newline is rejected too', () => {
    expect(() => compileMatcher('a\nb', { mode: 'literal', caseMode: 'sensitive' })).toThrow(QuarryError);
  });
});

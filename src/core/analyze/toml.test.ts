/** The TOML reader: every value form, and errors with line numbers that leave the rest readable. */
import { describe, expect, it } from 'vitest';
import { parseToml } from './toml';

describe('toml', () => {
  it('reads strings of every form, numbers, dates, arrays of tables and dotted keys', () => {
    const { value, errors } = parseToml(
      [
        'a = "tab\\there \\u00e9"',
        "b = 'C:\\raw'",
        'c = """',
        'line one \\',
        '   continued"""',
        "d = '''",
        "two\nlines'''",
        'e = 0x1F',
        'f = 1_000',
        'g = -3.5e2',
        'h = 1979-05-27 07:32:00Z',
        'i.j."k.l" = true',
        '[[t]]',
        'x = 1',
        '[[t]]',
        'x = 2',
        '[t.sub]',
        'y = [ [1, 2], ["a"], ]',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    expect(value).toEqual({
      a: 'tab\there é',
      b: 'C:\\raw',
      c: 'line one continued',
      d: 'two\nlines',
      e: 31,
      f: 1000,
      g: -350,
      h: '1979-05-27 07:32:00Z',
      i: { j: { 'k.l': true } },
      t: [{ x: 1 }, { x: 2, sub: { y: [[1, 2], ['a']] } }],
    });
  });
  it('errors carry line numbers; keys after a broken header go nowhere; duplicates keep the first', () => {
    const { value, errors } = parseToml(
      'a = 1\na = 2\n[bad\nz = 1\n[ok]\nb = "unterminated\nc = 3\nd = [1, 2\n',
    );
    expect(value).toEqual({ a: 1, ok: { c: 3 } });
    expect(errors).toEqual([
      'line 2: duplicate key "a"',
      'line 3: expected "]"',
      'line 6: unterminated string',
      'line 8: unterminated array',
    ]);
  });
  it('deep nesting is an error, not a stack overflow', () => {
    const { errors } = parseToml(`x = ${'['.repeat(5000)}`);
    expect(errors).toEqual(['line 1: values nested too deeply']);
  });
});

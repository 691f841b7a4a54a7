/** TOML through smol-toml: what the hand-written reader it replaced lacked, and reading on past errors. */
import { TomlDate } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseToml } from './toml';

describe('toml', () => {
  it('integers past 2^53 stay exact and dates are checked and typed (the old reader rounded and kept text)', () => {
    const { value, errors } = parseToml('big = 9007199254740993\nsmall = 42\nwhen = 1979-05-27T07:32:00Z\n');
    expect(errors).toEqual([]);
    expect(value.big).toBe(9007199254740993n);
    expect(value.small).toBe(42);
    expect(value.when).toBeInstanceOf(TomlDate);
    expect((value.when as TomlDate).toISOString()).toBe('1979-05-27T07:32:00.000Z');
    expect(parseToml('when = 1979-13-45\nok = 1').errors).toEqual([expect.stringMatching(/^line 1: /)]);
  });
  it('a table opened twice is an error, and its second keys go nowhere', () => {
    const { value, errors } = parseToml('[a]\nx = 1\n[a]\ny = 2\n[b]\nz = 3\n');
    expect(value).toEqual({ a: { x: 1 }, b: { z: 3 } });
    expect(errors).toEqual([expect.stringMatching(/^line 3: /)]);
  });
  it('errors carry line numbers; keys after a broken header go nowhere; duplicates keep the first', () => {
    const { value, errors } = parseToml(
      'a = 1\na = 2\n[bad\nz = 1\n[ok]\nb = "unterminated\nc = 3\nd = [1, 2\n',
    );
    expect(value).toEqual({ a: 1, ok: { c: 3 } });
    expect(errors.map((e) => e.replace(/:.*/, ''))).toEqual(['line 2', 'line 3', 'line 6', 'line 9']);
  });
  it('a broken line inside an array of arrays drops that value only', () => {
    const { value, errors } = parseToml('x = [\n  [1, 2],\n  [3, oops],\n]\ny = 2\n');
    expect(value).toEqual({ y: 2 });
    expect(errors).toEqual(['line 3: invalid value']);
  });
  it('keys named like Object.prototype members are data', () => {
    const { value } = parseToml('__proto__ = 1\n[constructor]\na = 1\n');
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
  });
  it('deep nesting is an error, not a stack overflow', () => {
    const { value, errors } = parseToml(`x = ${'['.repeat(5000)}`);
    expect(value).toEqual({});
    expect(errors).toEqual(['line 1: document contains excessively nested structures. aborting.']);
  });
});

import { describe, expect, it } from 'vitest';
import { languageOf, segmentLine, tokenizeLine } from './highlight';

const flat = (line: string, lang: Parameters<typeof tokenizeLine>[1]) =>
  tokenizeLine(line, lang).map((t) => [line.slice(t.start, t.end), t.kind]);

describe('tokenizer', () => {
  it('colours a TypeScript line', () => {
    expect(flat(`export const x = "a // b"; // note`, 'c-like')).toEqual([
      ['export', 'kw'],
      ['const', 'kw'],
      ['"a // b"', 'str'],
      ['// note', 'com'],
    ]);
    expect(flat(`  return calculateTotal(42) as Money;`, 'c-like')).toEqual([
      ['return', 'kw'],
      ['calculateTotal', 'fn'],
      ['42', 'num'],
      ['as', 'kw'],
      ['Money', 'type'],
    ]);
    expect(flat(` * @param x a doc comment`, 'c-like')).toEqual([[' * @param x a doc comment', 'com']]);
  });

  it('treats # as a comment in Python and shell', () => {
    expect(flat(`def f(): # hi`, 'hash')).toEqual([
      ['def', 'kw'],
      ['f', 'fn'],
      ['# hi', 'com'],
    ]);
  });

  it('is linear on a pathological line', () => {
    const line = '"'.repeat(1) + '\\'.repeat(100_000);
    const t0 = performance.now();
    tokenizeLine(line, 'c-like');
    expect(performance.now() - t0).toBeLessThan(200);
  });

  it('maps extensions to languages', () => {
    expect(languageOf('src/a.tsx')).toBe('c-like');
    expect(languageOf('x/Dockerfile')).toBe('hash');
    expect(languageOf('README.md')).toBe('plain');
  });
});

describe('segmentLine', () => {
  it('wraps each hit in one marked piece, splitting tokens', () => {
    const line = 'const needle = 1;';
    const pieces = segmentLine(line, tokenizeLine(line, 'c-like'), [[2, 8]]);
    expect(pieces.map((p) => [p.mark, p.segments.map((s) => `${s.kind}:${s.text}`).join('|')])).toEqual([
      [false, 'kw:co'],
      [true, 'kw:nst|plain: ne'],
      [false, 'plain:edle = |num:1|plain:;'],
    ]);
    expect(pieces.flatMap((p) => p.segments.map((s) => s.text)).join('')).toBe(line);
  });

  it('merges overlapping hits and keeps empty lines', () => {
    expect(
      segmentLine(
        'aaaa',
        [],
        [
          [0, 2],
          [1, 3],
        ],
      ).map((p) => p.mark),
    ).toEqual([true, false]);
    expect(segmentLine('', [], [])).toEqual([{ mark: false, segments: [] }]);
  });
});

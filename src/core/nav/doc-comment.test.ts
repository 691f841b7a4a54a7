import { describe, expect, it } from 'vitest';
import { rankDefinitions } from './definitions';
import { signatureAt, symbolDoc } from './doc-comment';
import { POLYGLOT } from './fixtures/polyglot';

const split = (text: string) => text.split('\n');

describe('symbolDoc', () => {
  it('reads a JSDoc block above a TypeScript function, past a decorator, and its one-line signature', () => {
    const lines = split(
      [
        'import x from "y";',
        '',
        '/**',
        ' * Formats cents as dollars.',
        ' *',
        ' * @param cents an amount',
        ' */',
        '@memo()',
        'export function formatMoney(cents: number): string {',
        '  return "";',
        '}',
      ].join('\n'),
    );
    expect(symbolDoc(lines, 9)).toEqual({
      signature: 'export function formatMoney(cents: number): string',
      doc: 'Formats cents as dollars.\n\n@param cents an amount',
    });
  });

  it('continues a signature while its brackets are open, dedented, and stops at the body', () => {
    const lines = split(
      [
        '  async run(',
        '    query: string,',
        '    options: { limit: number } = { limit: 3 },',
        '  ): Promise<void> {',
        '    await go();',
      ].join('\n'),
    );
    expect(signatureAt(lines, 1)).toEqual({
      text: 'async run(\n  query: string,\n  options: { limit: number } = { limit: 3 },\n): Promise<void>',
      lastLine: 4,
    });
    // a C prototype stops at its `;`, a line comment after it is left out
    expect(signatureAt(['int clamp_value(int v, int lo, int hi); // clamp'], 1).text).toBe(
      'int clamp_value(int v, int lo, int hi)',
    );
  });

  it('reads line comments (Go, Rust ///, shell #) but not a preprocessor line or a comment after a gap', () => {
    const go = split(
      'package money\n\n// Round rounds to cents.\n// Half up.\nfunc Round(v float64) float64 {',
    );
    expect(symbolDoc(go, 5)).toEqual({
      signature: 'func Round(v float64) float64',
      doc: 'Round rounds to cents.\nHalf up.',
    });
    const rust = split('/// Adds.\n#[inline]\npub fn add(a: u32) -> u32 {');
    expect(symbolDoc(rust, 3).doc).toBe('Adds.');
    expect(symbolDoc(split('#include "a.h"\nint f(void);'), 2).doc).toBe('');
    expect(symbolDoc(split('// licence\n\nint f(void) {'), 3).doc).toBe('');
  });

  it('reads a Python docstring under the def, one line or several', () => {
    const py = split(
      [
        'def apply_discount(price, rate):',
        '    """Price after a discount."""',
        '    return price',
        '',
        'def pay(',
        '    price,',
        '):',
        '    """',
        '    Pays.',
        '',
        '      Indented detail.',
        '    """',
      ].join('\n'),
    );
    expect(symbolDoc(py, 1)).toEqual({
      signature: 'def apply_discount(price, rate):',
      doc: 'Price after a discount.',
    });
    expect(symbolDoc(py, 5)).toEqual({
      signature: 'def pay(\n    price,\n):',
      doc: 'Pays.\n\n  Indented detail.',
    });
  });

  it('gives nothing for a line it cannot read, and definitions carry both', () => {
    expect(symbolDoc(null, 3)).toEqual({ signature: '', doc: '' });
    expect(symbolDoc(['x'], 9)).toEqual({ signature: '', doc: '' });
    const money = split(POLYGLOT['ts/src/money.ts']);
    const [def] = rankDefinitions(
      { name: 'formatMoney', from: 'ts/src/app.ts', imports: { files: new Set(), dirs: new Set() } },
      [
        {
          path: 'ts/src/money.ts',
          startLine: 1,
          endLine: 4,
          symbolName: 'formatMoney',
          chunkType: 'function',
        },
      ],
      () => money,
    );
    expect(def).toMatchObject({
      line: 2,
      signature: 'export function formatMoney(cents: number): string',
      doc: 'Formats cents as dollars.',
    });
  });
});

/**
 * Seed 004's chunking, rule by rule. Each expectation was first observed on the reference
 * engine (Locus 0.6.2, see chunks.ts); test/parity checks the whole pipeline against it.
 */
import { describe, expect, it } from 'vitest';
import { decodeSeedText, rustLines, seedChunks, tokenSource } from './chunks';

const starts = (text: string) =>
  seedChunks('a.ts', text).map((c) => [c.startLine, c.endLine, c.chunkType, c.symbolName ?? null]);

describe('seed 004 symbols', () => {
  it('knows the eight line starts, and nothing else', () => {
    const text = [
      'export function a1() {}',
      'export async function a2() {}',
      'export class A3 {}',
      'export const a4 = 1;',
      'function a5() {}',
      'async function a6() {}',
      'def a7(x):',
      'class A8 {}',
      'export default function no1() {}',
      'export function* no2() {}',
      'export interface No3 {}',
      'export type No4 = 1;',
      'export let no5 = 1;',
      'export const no6: number = 2;',
      '  function no7() {}',
      'def no8:',
      'classy No9 {}',
      'export function 9no() {}',
    ].join('\n');
    expect(starts(text)).toEqual([
      [1, 1, 'function', 'a1'],
      [2, 2, 'function', 'a2'],
      [3, 3, 'class', 'A3'],
      [4, 4, 'const', 'a4'],
      [5, 5, 'function', 'a5'],
      [6, 6, 'function', 'a6'],
      [7, 7, 'function', 'a7'],
      [8, 18, 'class', 'A8'],
    ]);
  });
  it('takes any Unicode whitespace between words, across lines too, and ASCII names only', () => {
    const text =
      'export\tfunction  two() {}\nfunction\nacross() {}\nexport const  x  = 1\nclass\n  Foo {}\nfunction\u00a0nbsp() {}\nexport function naïve() {}\ndef  spaced (y):\nexport const zeta=3;';
    expect(starts(text).map((s) => s[3])).toEqual([
      'two',
      'across',
      'x',
      'Foo',
      'nbsp',
      'na',
      'spaced',
      'zeta',
    ]);
    expect(starts(text).map((s) => s[0])).toEqual([1, 2, 4, 5, 7, 8, 9, 10]);
  });
  it('starts lines at \\n only: a lone \\r or a BOM hides a symbol', () => {
    expect(starts('\ufeffexport function bom() {}\nfunction second() {}\n')).toEqual([
      [2, 2, 'function', 'second'],
    ]);
    expect(starts('function dupe() {}\r\rfunction lone() {}\n')).toEqual([[1, 1, 'function', 'dupe']]);
  });
  it('ends a chunk before the next symbol, the last at the end of the file, never nested', () => {
    const text =
      'import x from "y";\n\nexport class Gamma {\n  method() {}\n}\nexport function alpha() {}\n\nexport function alpha() {}\n';
    expect(starts(text)).toEqual([
      [3, 5, 'class', 'Gamma'],
      [6, 7, 'function', 'alpha'],
      [8, 8, 'function', 'alpha'], // the same name on another line is another chunk
    ]);
  });
});

describe('seed 004 chunk texts', () => {
  it('puts the preamble before every chunk, unless it joins to the empty string', () => {
    const [a, b] = seedChunks(
      'a.ts',
      '// head\nimport x from "y";\nexport function a() {}\nfunction b() {}\n',
    );
    expect(a.text).toBe('// head\nimport x from "y";\nexport function a() {}');
    expect(b.text).toBe('// head\nimport x from "y";\nfunction b() {}');
    expect(seedChunks('b.ts', '\nexport function afterBlank() {}\n')[0].text).toBe(
      'export function afterBlank() {}',
    );
    expect(seedChunks('c.ts', '   \nexport function afterSpaces() {}\n')[0].text).toBe(
      '   \nexport function afterSpaces() {}',
    );
    expect(seedChunks('d.ts', '\n\nexport function afterTwo() {}\n')[0].text).toBe(
      '\n\nexport function afterTwo() {}',
    );
  });
  it('drops the \\r of \\r\\n in symbol chunks, and keeps a file chunk as read', () => {
    expect(
      seedChunks('a.ts', 'export function crlf() {\r\n  return 1;\r\n}\r\nfunction two() {}\r\n').map(
        (c) => c.text,
      ),
    ).toEqual(['export function crlf() {\n  return 1;\n}', 'function two() {}']);
    expect(seedChunks('p.ts', 'plain\r\nfile\r\n')).toEqual([
      {
        path: 'p.ts',
        startLine: 1,
        endLine: 2,
        chunkType: 'file',
        text: 'plain\r\nfile\r\n',
        head: '',
        body: 'plain\r\nfile\r\n',
      },
    ]);
  });
  it('makes a file without a symbol one chunk of at least one line', () => {
    expect(starts('')).toEqual([[1, 1, 'file', null]]);
    expect(starts('\n\n')).toEqual([[1, 2, 'file', null]]);
    expect(starts('no symbols\nsecond line')).toEqual([[1, 2, 'file', null]]);
  });
  it('tokens come from the path words, the name and the text', () => {
    const [c] = seedChunks('src/db/pool-manager.ts', 'export class PoolManager {}\n');
    expect(tokenSource(c)).toBe('src db pool manager ts PoolManager export class PoolManager {}');
    const [f] = seedChunks('README.md', '# Title\n');
    expect(tokenSource(f)).toBe('README md  # Title\n');
  });
});

describe('reading like the engine', () => {
  it("splits lines as Rust's str::lines()", () => {
    expect(rustLines('')).toEqual([]);
    expect(rustLines('a')).toEqual(['a']);
    expect(rustLines('a\n')).toEqual(['a']);
    expect(rustLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(rustLines('a\n\n')).toEqual(['a', '']);
    expect(rustLines('a\rb\r')).toEqual(['a\rb\r']); // a \r without \n stays
  });
  it('keeps the BOM, and reads bytes that are not UTF-8 as an empty text', () => {
    expect(decodeSeedText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
    expect(decodeSeedText(new Uint8Array([0x61, 0xe9, 0x62]))).toBe('');
    expect(decodeSeedText(new TextEncoder().encode('é😀'))).toBe('é😀');
  });
});

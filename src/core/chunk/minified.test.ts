/** Which files count as minified (text only in the indexes): generated cases and real trees. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_LONG_LINE, LONG_LINE, minifiedDetail } from './minified';
import { oneLineBundle } from './minified.testutil';

const normalLines = (n: number) =>
  Array.from({ length: n }, (_, i) => `  const v${i} = compute(alpha, beta); // line ${i}\n`).join('');

describe('minified: generated cases', () => {
  it('a 1 MB one-line bundle is minified, with its line and size in the detail', () => {
    const text = oneLineBundle(1_048_000);
    expect(minifiedDetail('src/app.js', text)).toBe(
      `1 line of ${text.length.toLocaleString('en-US')} characters`,
    );
    expect(minifiedDetail('src/app.js', text + '\n')).toBe(
      `1 line of ${(text.length + 1).toLocaleString('en-US')} characters`,
    );
  });
  it('a licence header above the bundle does not hide it', () => {
    const text = `/**\n * @license\n * Copyright 2010-2025 Someone\n * SPDX-License-Identifier: MIT\n */\n${oneLineBundle(200_000)}\n`;
    expect(minifiedDetail('vendor/lib.js', text)).toMatch(
      /^6 lines of 200,\d{3} characters, the longest 200,\d{3}$/,
    );
  });
  it('nor does an inline source map after it (a long line that is not code counts for neither side)', () => {
    const text = `${oneLineBundle(50_000)}\n//# sourceMappingURL=data:application/json;base64,${'QUJD'.repeat(40_000)}\n`;
    expect(minifiedDetail('out/app.js', text)).not.toBeNull();
  });
  it('ordinary code is not, nor is one long line among ordinary ones', () => {
    expect(minifiedDetail('src/a.ts', normalLines(2_000))).toBeNull();
    expect(
      minifiedDetail(
        'src/a.ts',
        normalLines(100) + `export const HUGE = [${'1, '.repeat(1_666)}];\n` + normalLines(100),
      ),
    ).toBeNull(); // a 5,000-character line
    expect(
      minifiedDetail('src/a.ts', normalLines(3) + `const a = (${'x, '.repeat(3_000)});\n` + normalLines(3)),
    ).toBeNull(); // 9,000: under LONG_LINE
    expect(minifiedDetail('src/a.js', 'function a(){}')).toBeNull();
  });
  it('a data file of many long lines is not (no line reaches LONG_LINE)', () => {
    const row = (i: number) =>
      `  { "id": ${i}, "name": "item${i}", "tags": [${Array.from({ length: 180 }, (_, k) => `"tag${k}"`).join(', ')}] },\n`;
    const text = `export const DATA = [\n${Array.from({ length: 300 }, (_, i) => row(i)).join('')}];\nexport function lookup(i) { return DATA[i]; }\n`;
    expect(row(1).length).toBeGreaterThan(1_500);
    expect(text.length).toBeGreaterThan(400_000);
    expect(minifiedDetail('src/data.js', text)).toBeNull();
  });
  it('long lines that are data, not code, are left alone: base64, a Unicode table, numbers, one long word', () => {
    const base64 = `export const IMAGE = "data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAA'.repeat(2_000)}";\n`;
    expect(minifiedDetail('src/image.js', normalLines(10) + base64 + normalLines(10))).toBeNull();
    expect(
      minifiedDetail(
        'src/re.js',
        `export const ID = /[${'\\u0041-\\u005a\\u00c0-\\u00d6'.repeat(1_000)}]/;\n`,
      ),
    ).toBeNull();
    expect(
      minifiedDetail(
        'src/table.js',
        `const T = [${Array.from({ length: 5_000 }, (_, i) => i * 7).join(',')}];\nexport function t(i) { return T[i]; }\n`,
      ),
    ).toBeNull();
    expect(minifiedDetail('src/exact.ts', `export function exact() {}\n${'y'.repeat(1_048_549)}`)).toBeNull(); // the parity corpus' size edge
  });
  it('a built name or a source-map comment lowers the long line to BUILT_LONG_LINE characters', () => {
    const text = oneLineBundle(3_000);
    expect(text.length).toBeGreaterThan(BUILT_LONG_LINE);
    expect(text.length).toBeLessThan(LONG_LINE);
    expect(minifiedDetail('lib/x.js', text)).toBeNull();
    for (const name of ['lib/x.min.js', 'lib/x-min.js', 'lib/x.min.mjs', 'lib/x.min.cjs', 'lib/x.bundle.js'])
      expect(minifiedDetail(name, text), name).not.toBeNull();
    expect(minifiedDetail('lib/x.js', `${text}\n//# sourceMappingURL=x.js.map\n`)).not.toBeNull();
    expect(minifiedDetail('lib/x.min.d.ts', text)).toBeNull(); // declarations are not built bundles
    expect(minifiedDetail('lib/x.min.js', normalLines(50))).toBeNull(); // a readable file named .min.js
  });
});

/** Every file of these trees with an indexed extension, up to the walk's 1 MiB. */
function sourceFiles(dir: string, keep: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && keep.test(e.name) && fs.statSync(p).size <= 1_048_576) out.push(p);
    }
  };
  walk(dir);
  return out;
}

describe('minified: real trees', () => {
  const INDEXED = /\.(ts|tsx|js|jsx|mjs|cjs|rs|md|py|go)$/;
  it.each([
    ['node_modules/typescript/lib', /\.d\.ts$/, 90],
    ['node_modules/@babel/core/lib', INDEXED, 10],
    ['node_modules/three/src', INDEXED, 500],
  ])('no file under %s is minified', (dir, keep, atLeast) => {
    const files = sourceFiles(path.resolve(dir), keep);
    expect(files.length).toBeGreaterThanOrEqual(atLeast);
    const minified = files
      .map((f) => [f, minifiedDetail(f, fs.readFileSync(f, 'utf8'))])
      .filter(([, d]) => d !== null);
    expect(minified).toEqual([]);
  });
  const built = [
    'node_modules/three/build/three.module.min.js',
    'node_modules/three/examples/jsm/libs/draco/draco_decoder.js',
    'node_modules/prettier/standalone.js',
  ];
  it.each(built)('%s (when installed) is minified', (file) => {
    if (!fs.existsSync(file)) return; // three.module.min.js is not in every three release
    expect(minifiedDetail(file, fs.readFileSync(file, 'utf8'))).toMatch(
      /^[\d,]+ lines? of [\d,]+ characters/,
    );
  });
  it('at least one of those bundles is installed, so the check above ran', () => {
    expect(built.some((f) => fs.existsSync(f))).toBe(true);
  });
});

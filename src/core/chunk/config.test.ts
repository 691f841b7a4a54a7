/** Config files: a 'key' chunk per top-level key of JSON, YAML and TOML. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkConfig, configKindForPath } from './config';
import { MAX_CHARS, MAX_LINES } from './fallback';
import type { Chunk } from './types';

const spans = (chunks: Chunk[]) => chunks.map((c) => [c.startLine, c.endLine, c.symbolName, c.chunkType]);
const keys = (chunks: Chunk[]) => chunks.map((c) => [c.startLine, c.endLine, c.symbolName]);

function checkShape(text: string, chunks: Chunk[]): void {
  const count = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  let prevEnd = 0;
  for (const c of chunks) {
    expect(c.startLine).toBeGreaterThan(prevEnd);
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine).toBeLessThanOrEqual(count);
    expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_LINES);
    prevEnd = c.endLine;
  }
}

describe('configKindForPath', () => {
  it('by final extension and a few documented names, case-sensitive', () => {
    expect(configKindForPath('a/package.json')).toBe('json');
    expect(configKindForPath('tsconfig.base.jsonc')).toBe('json');
    expect(configKindForPath('x.json5')).toBe('json');
    expect(configKindForPath('ci\\build.yml')).toBe('yaml');
    expect(configKindForPath('.github/workflows/ci.yaml')).toBe('yaml');
    expect(configKindForPath('Cargo.toml')).toBe('toml');
    expect(configKindForPath('app/.babelrc')).toBe('json');
    expect(configKindForPath('Pipfile')).toBe('toml');
    for (const p of ['a.JSON', 'json', '.json', 'a.json.bak', '.prettierrc', 'README.md', 'Makefile'])
      expect(configKindForPath(p), p).toBeNull();
  });
});

describe('JSON', () => {
  it('a chunk per top-level member, spanning its whole value', () => {
    const text = [
      '{',
      '  "name": "demo",',
      '  "scripts": {',
      '    "build": "tsc -b",',
      '    "test": "vitest"',
      '  },',
      '  "files": [',
      '    "dist"',
      '  ]',
      '}',
      '',
    ].join('\n');
    expect(spans(chunkConfig('json', 'package.json', text))).toEqual([
      [2, 2, 'name', 'key'],
      [3, 6, 'scripts', 'key'],
      [7, 9, 'files', 'key'],
    ]);
  });

  it('JSONC and JSON5: comments attach above a key, trailing commas, single quotes, bare keys, strings with braces', () => {
    const text = [
      '// tsconfig for the app',
      '{',
      '  // what to compile',
      '  /* the strict family */',
      '  "compilerOptions": {',
      '    "strict": true, // always',
      '    "paths": { "@/*": ["src/*",], },',
      '  },',
      '',
      '  // not attached: a blank line follows',
      '',
      "  include: ['src/**/*.ts', '}//not a comment'],",
      '  "exclude": "{[",',
      '}',
    ].join('\n');
    expect(keys(chunkConfig('json', 'tsconfig.json', text))).toEqual([
      [3, 8, 'compilerOptions'],
      [12, 12, 'include'],
      [13, 13, 'exclude'],
    ]);
  });

  it('members sharing a line share a chunk; escaped keys are decoded', () => {
    expect(keys(chunkConfig('json', 'a.json', '{"a": 1, "b": {\n"c": 2}, "d\\u0041": 3,\n "e": 4}'))).toEqual(
      [
        [1, 2, 'a'],
        [3, 3, 'e'],
      ],
    );
    expect(keys(chunkConfig('json', 'a.json', '{"d\\u0041": 3}'))).toEqual([[1, 1, 'dA']]);
  });

  it('an empty object or file gives nothing; a BOM and CRLF are fine', () => {
    expect(chunkConfig('json', 'a.json', '')).toEqual([]);
    expect(chunkConfig('json', 'a.json', '{}\n')).toEqual([]);
    expect(chunkConfig('json', 'a.json', '  \n')).toEqual([]);
    expect(
      keys(chunkConfig('json', 'a.json', '\uFEFF{\r\n  "a": [\r\n    1\r\n  ],\r\n  "b": 2\r\n}')),
    ).toEqual([
      [2, 4, 'a'],
      [5, 5, 'b'],
    ]);
  });

  it('a top-level array, a scalar or broken JSON falls back to blocks', () => {
    for (const text of [
      '[\n  {"a": 1},\n  {"b": 2}\n]\n',
      '"just a string"',
      '{\n  "a": 1,\n  "b": "unterminated\n}\n',
      '{\n  "a": 1,\n  "b": 2\n', // no closing brace
      '{\n  "a" 1\n}', // no colon
      '{\n  "a": \n}', // no value
      '{"a": 1}\n{"b": 2}\n', // JSON lines
      '{\n  "a": 1 /* unterminated comment\n}',
    ]) {
      const chunks = chunkConfig('json', 'x.json', text);
      expect(chunks.length, text).toBeGreaterThan(0);
      for (const c of chunks) expect(c.chunkType, text).toBe('block');
      checkShape(text, chunks);
    }
  });

  it('a huge value is cut into pieces within the caps, each named by the key', () => {
    const items = Array.from({ length: 450 }, (_, i) => `    "item-${i}",`);
    const text = ['{', '  "small": true,', '  "list": [', ...items, '    "last"', '  ]', '}'].join('\n');
    const chunks = chunkConfig('json', 'x.json', text);
    expect(chunks[0]).toMatchObject({ startLine: 2, endLine: 2, symbolName: 'small' });
    const pieces = chunks.slice(1);
    expect(pieces.length).toBe(5);
    expect(pieces[0].startLine).toBe(3);
    expect(pieces[pieces.length - 1].endLine).toBe(455);
    for (const p of pieces) expect(p).toMatchObject({ symbolName: 'list', chunkType: 'key' });
    checkShape(text, chunks);
  });

  it('one huge line of JSON is one chunk (a line cannot be cut)', () => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])));
    expect(text.length).toBeGreaterThan(MAX_CHARS);
    expect(keys(chunkConfig('json', 'x.json', text))).toEqual([[1, 1, 'k0']]);
  });
});

describe('YAML', () => {
  it('a chunk per column-0 key to the line before the next key; comments directly above attach', () => {
    const text = [
      '# CI workflow',
      '',
      'name: ci',
      '# when it runs',
      'on:',
      '  push:',
      '    branches: [main]',
      '',
      '  pull_request: {}',
      '',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: |',
      '          npm ci',
      '',
      '          npm test',
      '',
    ].join('\n');
    expect(spans(chunkConfig('yaml', 'ci.yml', text))).toEqual([
      [3, 3, 'name', 'key'],
      [4, 9, 'on', 'key'],
      [11, 18, 'jobs', 'key'],
    ]);
  });

  it('quoted keys, merge keys, anchors; `key:value`, list items, flow and comments are not keys', () => {
    const text = [
      '"quoted: key": 1',
      "'it''s': 2",
      'base: &base',
      '  a: 1',
      '<<: *base',
      'url:http://example.com',
      'http://x.y: 3',
      '{flow: 1}',
      'key with spaces  : 4',
      'a #b: 5',
    ].join('\n');
    expect(keys(chunkConfig('yaml', 'x.yaml', text))).toEqual([
      [1, 1, 'quoted: key'],
      [2, 2, "it's"],
      [3, 4, 'base'],
      [5, 6, '<<'],
      [7, 8, 'http://x.y'],
      [9, 10, 'key with spaces'],
    ]);
  });

  it('documents split at --- and ...; a document without keys gets blocks, directives none', () => {
    const text = [
      '%YAML 1.2',
      '---',
      'apiVersion: v1',
      'kind: Service',
      '--- # second',
      '# about the list',
      '- one',
      '- two',
      '...',
      'kind: Deployment',
      'spec:',
      '  replicas: 2',
    ].join('\n');
    expect(spans(chunkConfig('yaml', 'k8s.yaml', text))).toEqual([
      [3, 3, 'apiVersion', 'key'],
      [4, 4, 'kind', 'key'],
      [6, 8, 'about', 'block'],
      [10, 10, 'kind', 'key'],
      [11, 12, 'spec', 'key'],
    ]);
  });

  it('CRLF, a BOM, no final newline, a huge value', () => {
    expect(keys(chunkConfig('yaml', 'x.yml', '\uFEFFa: 1\r\nb:\r\n  - 2\r\n'))).toEqual([
      [1, 1, 'a'],
      [2, 3, 'b'],
    ]);
    const big = ['deps:', ...Array.from({ length: 250 }, (_, i) => `  - pkg-${i}`), 'after: 1'].join('\n');
    const chunks = chunkConfig('yaml', 'x.yml', big);
    expect(chunks.map((c) => c.symbolName)).toEqual(['deps', 'deps', 'deps', 'after']);
    checkShape(big, chunks);
  });
});

describe('TOML', () => {
  it('top-level keys before the first table, then a chunk per table and array table', () => {
    const text = [
      '# the project',
      'title = "demo"',
      'authors = [',
      '  "a",',
      '  "b",',
      ']',
      '',
      '[package]',
      'name = "demo"',
      '',
      '# binaries',
      '[[bin]]',
      'name = "one"',
      '',
      '[[bin]]',
      'name = "two"',
      '',
      '[ dependencies . "serde.derive" ]  # spaced',
      'version = "1"',
      '',
    ].join('\n');
    expect(keys(chunkConfig('toml', 'Cargo.toml', text))).toEqual([
      [1, 2, 'title'],
      [3, 6, 'authors'],
      [8, 9, 'package'],
      [11, 13, 'bin'],
      [15, 16, 'bin'],
      [18, 19, 'dependencies."serde.derive"'],
    ]);
  });

  it('headers inside multi-line strings and arrays do not count; dotted and quoted keys', () => {
    const text = [
      'a.b = 1',
      '"quoted key" = """',
      '[not.a.table]',
      'still the string \\""" ',
      '"""',
      "lit = '''",
      '[nor.this]',
      "'''",
      'matrix = [',
      '["x"],',
      '["y"]',
      ']',
      '[real]',
      'k = { x = "[fake]" } # [fake]',
    ].join('\n');
    expect(keys(chunkConfig('toml', 'x.toml', text))).toEqual([
      [1, 1, 'a.b'],
      [2, 5, '"quoted key"'],
      [6, 8, 'lit'],
      [9, 12, 'matrix'],
      [13, 14, 'real'],
    ]);
  });

  it('an array that never closes does not swallow the tables after it', () => {
    const text = ['list = [1, 2', '', '[server]', 'port = 80', '[client]', 'retries = 3'].join('\n');
    expect(keys(chunkConfig('toml', 'x.toml', text))).toEqual([
      [1, 1, 'list'],
      [3, 4, 'server'],
      [5, 6, 'client'],
    ]);
  });

  it('no table and no key falls back to blocks; CRLF and BOM are fine', () => {
    expect(spans(chunkConfig('toml', 'x.toml', 'just text\nmore text\n'))).toEqual([[1, 2, 'just', 'block']]);
    expect(keys(chunkConfig('toml', 'x.toml', '\uFEFFa = 1\r\n[t]\r\nb = 2\r\n'))).toEqual([
      [1, 1, 'a'],
      [2, 3, 't'],
    ]);
    expect(chunkConfig('toml', 'x.toml', '')).toEqual([]);
  });
});

describe('odd input never throws', () => {
  it('binary-ish text, unterminated everything, for every kind', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const binary = Array.from({ length: 20_000 }, () => String.fromCharCode(Math.floor(rnd() * 256))).join(
      '',
    );
    const odd = [
      binary,
      '{',
      '{"a": "',
      '{"a": {"b": [',
      'a: "',
      '---\n---\n',
      '[[',
      'x = """',
      "x = '''\n[t]",
      '\0\0\0',
      '{\n// only a comment',
    ];
    for (const kind of ['json', 'yaml', 'toml'] as const) {
      for (const text of odd) checkShape(text, chunkConfig(kind, 'odd', text));
    }
  });

  it('property: sorted, non-overlapping, within the caps, for any text', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      "'",
      ':',
      ',',
      '=',
      '#',
      '//',
      '/*',
      '*/',
      '\n',
      '\r\n',
      ' ',
      '  ',
      'key',
      '---',
      '[t]',
      '"""',
      '- ',
      'x: 1\n',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('json', 'yaml', 'toml'),
        fc.array(piece, { maxLength: 300 }),
        (kind, parts) => {
          const text = parts.join('');
          checkShape(text, chunkConfig(kind, 'p', text));
        },
      ),
      { numRuns: 500 },
    );
  });
});

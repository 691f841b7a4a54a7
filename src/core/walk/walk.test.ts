import { describe, expect, it } from 'vitest';
import { EXPECTED_WALKED, fixtureTree, writeFixtureDir } from '../../../test/fixtures/repo';
import { NodeFsSource } from '../../adapters/node/fs';
import { MemorySource } from '../source/memory';
import type { FileSource } from '../source/types';
import { decodeBytes } from './decode';
import { NOISY_PATH_SEGMENTS, type Skipped } from './policy';
import { readText, walkFiles } from './walk';

async function walk(source: FileSource, opts: Parameters<typeof walkFiles>[1] = {}) {
  const skipped: Skipped[] = [];
  const files: string[] = [];
  for await (const f of walkFiles(source, { ...opts, onSkip: (s) => skipped.push(s) })) files.push(f.path);
  return { files, skipped };
}

const sources: Array<[string, () => FileSource]> = [
  ['memory', () => new MemorySource(fixtureTree())],
  ['node fs', () => new NodeFsSource(writeFixtureDir())],
];

describe.each(sources)('walk policy over %s', (_name, make) => {
  it('yields exactly the files the policy allows, in name order', async () => {
    const { files } = await walk(make());
    expect(files).toEqual([...EXPECTED_WALKED].sort());
    expect(files).toEqual([...files].sort());
  });

  it('reports every skipped path with its reason', async () => {
    const { skipped } = await walk(make());
    const byPath = Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
    expect(byPath).toMatchObject({
      '.git': 'noisyPath',
      node_modules: 'noisyPath',
      dist: 'noisyPath',
      'debug.log': 'ignored',
      generated: 'ignored',
      'packages/a/local.ts': 'ignored',
      'big/huge.txt': 'tooLarge',
      'loop/self': 'symlinkLoop',
    });
    // a nested .gitignore re-includes what its parent ignored (deepest rule wins)
    expect(byPath['packages/a/sub/local.ts']).toBeUndefined();
  });

  it('walks ignored files when ignore files are turned off, but never noisy directories', async () => {
    const { files } = await walk(make(), { useIgnoreFiles: false });
    expect(files).toContain('debug.log');
    expect(files).toContain('generated/out.ts');
    expect(files).toContain('packages/a/local.ts');
    expect(
      files.some((f) => f.startsWith('node_modules/') || f.startsWith('.git/') || f.startsWith('dist/')),
    ).toBe(false);
  });

  it('honours the size limit as given', async () => {
    const { files } = await walk(make(), { maxFileBytes: 2_000_000 });
    expect(files).toContain('big/huge.txt');
    const small = await walk(make(), { maxFileBytes: 20 });
    expect(small.files).not.toContain('src/app.ts');
    expect(small.skipped.find((s) => s.path === 'src/app.ts')?.reason).toBe('tooLarge');
  });

  it('starts below a directory and still applies ignore files above it', async () => {
    const { files } = await walk(make(), { start: 'packages/a' });
    expect(files).toEqual([
      'packages/a/.gitignore',
      'packages/a/index.ts',
      'packages/a/sub/.gitignore',
      'packages/a/sub/local.ts',
    ]);
  });

  it('reads text in every supported encoding and skips binary files', async () => {
    const source = make();
    const read = async (p: string) => {
      const r = await readText(source, p);
      return r.ok ? r.text : `skipped:${r.skipped.reason}`;
    };
    expect(await read('assets/logo.png')).toBe('skipped:binary');
    expect(await read('encodings/utf16le.txt')).toBe('hello TODO utf16le\nsecond line\n');
    expect(await read('encodings/utf16be.txt')).toBe('hello TODO utf16be\n');
    expect(await read('encodings/bom8.txt')).toBe('TODO after a BOM\n');
    expect(await read('encodings/latin1.txt')).toBe('caf\uFFFD TODO latin1\n');
    expect(await read('missing.txt')).toBe('skipped:unreadable');
  });
});

describe('decodeBytes', () => {
  const cases: Array<{ name: string; bytes: number[]; want: string | 'binary' }> = [
    { name: 'empty', bytes: [], want: '' },
    { name: 'ascii', bytes: [0x61, 0x62], want: 'ab' },
    { name: 'NUL in the first 8 KiB', bytes: [0x61, 0x00, 0x62], want: 'binary' },
    { name: 'UTF-8 BOM stripped', bytes: [0xef, 0xbb, 0xbf, 0x61], want: 'a' },
    { name: 'UTF-16LE BOM (NULs are not binary)', bytes: [0xff, 0xfe, 0x61, 0x00], want: 'a' },
    { name: 'UTF-16BE BOM', bytes: [0xfe, 0xff, 0x00, 0x61], want: 'a' },
    { name: 'truncated UTF-8 never throws', bytes: [0x61, 0xe2, 0x82], want: 'a\uFFFD' },
    { name: 'odd-length UTF-16', bytes: [0xff, 0xfe, 0x61, 0x00, 0x62], want: 'a\uFFFD' },
  ];
  it.each(cases)('$name', ({ bytes, want }) => {
    const d = decodeBytes(new Uint8Array(bytes));
    expect(d.binary ? 'binary' : d.text).toBe(want);
  });

  it('finds a NUL only within the first 8 KiB', () => {
    const late = new Uint8Array(9000).fill(0x61);
    late[8500] = 0;
    expect(decodeBytes(late).binary).toBe(false);
    late[8000] = 0;
    expect(decodeBytes(late).binary).toBe(true);
  });
});

describe('noisy segments', () => {
  it('are the union of seeds 002 and 004', () => {
    for (const s of [
      '.git',
      '.hg',
      '.svn',
      '__pycache__',
      '.pytest_cache',
      '.mypy_cache',
      '.ruff_cache',
      'node_modules',
      'venv',
      '.venv',
      'env',
      '.env',
      'dist',
      'build',
      'target',
      'out',
      '.next',
      '.nuxt',
      '.idea',
      '.vscode',
      '.DS_Store',
    ]) {
      expect(NOISY_PATH_SEGMENTS).toContain(s);
    }
    expect(new Set(NOISY_PATH_SEGMENTS).size).toBe(NOISY_PATH_SEGMENTS.length);
  });
});

describe('byte containment', async () => {
  const { containsBytes, containsBytesCaseless } = await import('./decode');
  const enc = (s: string) => new TextEncoder().encode(s);
  it.each([
    ['hello world', 'world', true],
    ['hello world', 'worlds', false],
    ['aaaab', 'aab', true],
    ['xyz', '', true],
    ['ab', 'abc', false],
    ['q(x)', '(x)', true],
  ])('containsBytes(%j, %j) = %s', (h, n, want) => expect(containsBytes(enc(h), enc(n))).toBe(want));
  it.each([
    ['Hello WORLD', 'world', true],
    ['WebGLRenderer', 'webglrenderer', true],
    ['webgl_renderer', 'webglrenderer', false],
    ['ABAB', 'bab', true],
  ])('containsBytesCaseless(%j, %j) = %s', (h, n, want) =>
    expect(containsBytesCaseless(enc(h), enc(n))).toBe(want),
  );
});

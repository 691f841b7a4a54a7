import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { compileGlob, compilePathFilter } from './glob';

describe('compileGlob (ripgrep --glob semantics)', () => {
  const cases: Array<{ glob: string; path: string; want: boolean }> = [
    { glob: '*.ts', path: 'a.ts', want: true },
    { glob: '*.ts', path: 'src/deep/a.ts', want: true },
    { glob: '*.ts', path: 'src/a.tsx', want: false },
    { glob: '*.{js,ts}', path: 'src/a.js', want: true },
    { glob: '*.{js,ts}', path: 'src/a.ts', want: true },
    { glob: '*.{js,ts}', path: 'src/a.py', want: false },
    { glob: 'src/**/*.ts', path: 'src/a/b/c.ts', want: true },
    { glob: 'src/**/*.ts', path: 'lib/src/c.ts', want: false },
    { glob: '/src/*.ts', path: 'src/a.ts', want: true },
    { glob: '*', path: 'a/b/.hidden', want: true },
    { glob: '[ab].ts', path: 'x/a.ts', want: true },
    { glob: '[ab].ts', path: 'x/c.ts', want: false },
    { glob: '**/test/**', path: 'pkg/test/x.ts', want: true },
  ];
  it.each(cases)('$glob ~ $path = $want', ({ glob, path, want }) => {
    expect(compileGlob(glob, 'g')(path)).toBe(want);
  });

  const bad = ['*.{js,ts', 'a}.ts', '[ab.ts', '', '   '];
  it.each(bad)('rejects %j naming the field', (glob) => {
    try {
      compileGlob(glob, 'file_pattern');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(QuarryError);
      expect((e as QuarryError).code).toBe('InvalidGlob');
      expect((e as QuarryError).message).toContain('file_pattern');
    }
  });
});

describe('compilePathFilter', () => {
  it('combines include, exclude (also as !include), extensions and path substring', () => {
    const f = compilePathFilter({
      include: ['*.ts', '!*.test.ts'],
      exclude: ['vendor/**'],
      extensions: ['.ts'],
      pathContains: 'src',
    })!;
    expect(f('src/a.ts')).toBe(true);
    expect(f('src/a.test.ts')).toBe(false);
    expect(f('vendor/src/a.ts')).toBe(false);
    expect(f('lib/a.ts')).toBe(false);
    expect(f('src/a.tsx')).toBe(false);
  });
  it('extensions are final and case-sensitive', () => {
    const f = compilePathFilter({ extensions: ['ts'] })!;
    expect(f('a.d.ts')).toBe(true);
    expect(f('a.TS')).toBe(false);
    expect(f('ts')).toBe(false);
  });
  it('is null when nothing filters', () => {
    expect(compilePathFilter({})).toBeNull();
  });
});

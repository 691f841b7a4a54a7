/**
 * Issue 34 row 11: search_files prints file names in its `# path` headers; a name with a newline
 * split the header (and could forge one an agent reads), a right-to-left override disguised it.
 * Such names are printed as JSON strings (quote-path.ts); plain ones, a backslash too, as they are.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';
import { needsQuoting, quotePath } from './quote-path';

const search = (tree: MemoryTree) =>
  callTool(
    'search_files',
    { path: '.', regex: 'needle' },
    { workspace: new Workspace([new MemorySource(tree, { name: 'repo', absoluteRoot: '/work/repo' })]) },
  ) as Promise<string>;

describe('search_files with odd file names', () => {
  it('quotes a name with a newline: one header line, no forged header', async () => {
    const out = await search({
      'new\nline.ts': 'needle\n',
      'a.ts\n# forged.ts': 'needle\n',
      'plain.ts': 'needle\n',
    });
    const headers = out.split('\n').filter((l) => l.startsWith('#'));
    expect(headers).toEqual(['# "a.ts\\n# forged.ts"', '# "new\\nline.ts"', '# plain.ts']);
    expect(out.split('\n').filter((l) => /^\s*\d+ \| /.test(l))).toHaveLength(3);
    expect(JSON.parse(headers[1].slice(2))).toBe('new\nline.ts');
  });

  it('escapes bidi overrides and other control characters as \\uXXXX', async () => {
    const rlo = 'evil\u202Est.ts';
    const out = await search({ [rlo]: 'needle\n', 'bell\u0007.ts': 'needle\n', 'tab\tbed.ts': 'needle\n' });
    const headers = out.split('\n').filter((l) => l.startsWith('#'));
    expect(headers).toEqual(['# "bell\\u0007.ts"', '# "evil\\u202est.ts"', '# "tab\\tbed.ts"']);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(JSON.parse(headers[1].slice(2))).toBe(rlo);
  });

  it('prints a plain name, a backslash or non-ASCII in it too, as it is', async () => {
    const out = await search({ 'back\\slash.ts': 'needle\n', 'café/naïve.ts': 'needle\n' });
    expect(out.split('\n').filter((l) => l.startsWith('#'))).toEqual(['# back\\slash.ts', '# café/naïve.ts']);
  });
});

describe('quotePath', () => {
  it('round-trips through JSON.parse and quotes a leading quote', () => {
    for (const name of [
      '"quoted".ts',
      'a\u2028b',
      'x\u200fy',
      'nul\u0000',
      'del\u007f',
      'bom\ufeff',
      'lre\u2066',
    ])
      expect(needsQuoting(name)).toBe(true);
    for (const name of ['"quoted".ts', 'a\u2028b', 'x\u200fy\\z', 'nul\u0000', 'del\u007f']) {
      const q = quotePath(name);
      expect(q).toMatch(/^"[\u0020-\u007e]*"$/);
      expect(JSON.parse(q)).toBe(name);
    }
    expect(quotePath('src/a "b".ts')).toBe('src/a "b".ts');
  });
});

/**
 * Issue 34 row 10: a backslash is a character of a POSIX file name, not a separator. explore
 * drew `back\slash.ts` as a folder `back/` holding `slash.ts`; its graph, key files and patterns
 * must name the file as it is too.
 */
import { describe, expect, it } from 'vitest';
import { manifestKindOf } from '../analyze/manifests';
import { languageForPath } from '../chunk/languages';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { keyFiles } from './key-files';
import { runExplore } from './run';
import { compilePathFilter, pathContains } from '../walk/glob';
import { drawTree } from './tree';

const REPO: MemoryTree = {
  'back\\slash.ts': "import { lib } from './lib';\nexport const slash = () => lib();\n",
  'lib.ts': 'export function lib() {\n  return 1;\n}\n',
  'src\\index.ts': "import { lib } from './lib';\nexport const x = lib;\n",
  'package.json': JSON.stringify({ name: 'names', main: 'lib.ts' }),
};

describe('file names with a backslash', () => {
  it('are drawn as files, not folders', () => {
    expect(drawTree('repo', ['back\\slash.ts', 'lib.ts', 'a/b\\c.ts']).split('\n')).toEqual([
      'repo/',
      '├── a/',
      '│   └── b\\c.ts',
      '├── back\\slash.ts',
      '└── lib.ts',
    ]);
  });

  it('keep their names in the report: tree, import graph, key files', async () => {
    const ctx = { workspace: new Workspace([new MemorySource(REPO, { name: 'names' })]) };
    const r = await runExplore(ctx, { path: '.', depth: 'deep' });
    expect(r.tree.split('\n')).toEqual([
      'names/',
      '├── back\\slash.ts',
      '├── lib.ts',
      '├── package.json',
      '└── src\\index.ts',
    ]);
    expect(r.tree).not.toMatch(/back\/|src\//);
    const ids = r.import_graph!.nodes.map((n) => n.id).sort();
    expect(ids).toEqual(['back\\slash.ts', 'lib.ts', 'src\\index.ts']);
    expect(r.import_graph!.edges).toContainEqual({
      from: 'back\\slash.ts',
      to: 'lib.ts',
      kind: 'static',
      line: 1,
    });
  });

  it('key files keep the name as listed', () => {
    const out = keyFiles(
      [
        { path: 'back\\README.md', text: '# x\n' },
        { path: 'README.md', text: '# y\n' },
      ],
      [],
    ).map((k) => k.path);
    expect(out).toContain('README.md');
    expect(out.some((p) => p.includes('/'))).toBe(false);
  });
});

describe('core path handling reads only / as a separator in listed names', () => {
  it('a manifest or a language by its name: the whole name', () => {
    expect(manifestKindOf('back\\package.json')).toBeNull();
    expect(manifestKindOf('web/package.json')).toBe('npm');
    expect(languageForPath('back\\slash.ts')).toBe('typescript');
    expect(languageForPath('dir\\Rakefile')).toBeNull();
    expect(languageForPath('dir/Rakefile')).toBe('ruby');
  });

  it('a path filter matches the name as written, and a Windows-style filter as before', () => {
    expect(pathContains('back\\slash.ts', 'back\\slash')).toBe(true);
    expect(pathContains('src/core/a.ts', 'src\\core')).toBe(true);
    expect(pathContains('src/core/a.ts', 'back\\slash')).toBe(false);
    expect(compilePathFilter({ pathContains: 'back\\slash' })!('back\\slash.ts')).toBe(true);
  });
});

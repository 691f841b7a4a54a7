import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawTree, naturalCompare } from './tree';

/** The files a drawn tree shows, read back from its lines (indentation is 4 columns a level). */
function readBack(tree: string): { files: string[]; collapsed: Map<string, number> } {
  const files: string[] = [];
  const collapsed = new Map<string, number>();
  const stack: string[] = [];
  for (const line of tree.split('\n').slice(1)) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*)$/.exec(line);
    if (!m) throw new Error(`not a tree line: ${line}`);
    const depth = m[1].length / 4;
    stack.length = depth;
    const entry = m[2];
    if (entry.startsWith('… ')) continue;
    const folded = /^(.*)\/ \((\d+) files?\)$/.exec(entry);
    if (folded) collapsed.set([...stack, folded[1]].join('/'), Number(folded[2]));
    else if (entry.endsWith('/')) stack.push(entry.slice(0, -1));
    else files.push([...stack, entry].join('/'));
  }
  return { files, collapsed };
}

describe('drawTree', () => {
  it('draws a small tree with the tree command’s characters, folders first', () => {
    const tree = drawTree('src/core', [
      'types/classification.ts',
      'README.md',
      'policy/engine.ts',
      'policy/rules.ts',
      'index.ts',
      'types/session.ts',
    ]);
    expect(tree).toBe(
      [
        'src/core/',
        '├── policy/',
        '│   ├── engine.ts',
        '│   └── rules.ts',
        '├── types/',
        '│   ├── classification.ts',
        '│   └── session.ts',
        '├── index.ts',
        '└── README.md',
      ].join('\n'),
    );
  });

  it('indents below a last folder with four spaces and draws three levels', () => {
    const tree = drawTree('repo', ['a/b/c.ts', 'a/b/d.ts', 'a/e.ts', 'z/y/x.ts']);
    expect(tree).toBe(
      [
        'repo/',
        '├── a/',
        '│   ├── b/',
        '│   │   ├── c.ts',
        '│   │   └── d.ts',
        '│   └── e.ts',
        '└── z/',
        '    └── y/',
        '        └── x.ts',
      ].join('\n'),
    );
  });

  it('collapses a folder on the last level to its file count (all files below it)', () => {
    const tree = drawTree('r', [
      'src/core/utils/a.ts',
      'src/core/utils/deep/b.ts',
      'src/core/utils/deep/er/c.ts',
      'src/core/one/x.ts',
      'src/core/main.ts',
    ]);
    expect(tree).toBe(
      [
        'r/',
        '└── src/',
        '    └── core/',
        '        ├── one/ (1 file)',
        '        ├── utils/ (3 files)',
        '        └── main.ts',
      ].join('\n'),
    );
    expect(drawTree('r', ['a/b.ts', 'a/c.ts', 'd.ts'], { levels: 1 })).toBe(
      ['r/', '├── a/ (2 files)', '└── d.ts'].join('\n'),
    );
    expect(drawTree('r', ['a/b.ts'], { levels: 0 })).toBe('r/');
  });

  it('caps the entries of a folder and counts the rest, files and folders', () => {
    const files = [
      ...Array.from({ length: 4 }, (_, i) => `d${i}/f.ts`),
      ...Array.from({ length: 6 }, (_, i) => `file${i}.ts`),
    ];
    expect(drawTree('r', files, { maxEntriesPerDir: 3, levels: 1 })).toBe(
      [
        'r/',
        '├── d0/ (1 file)',
        '├── d1/ (1 file)',
        '├── d2/ (1 file)',
        '└── … 7 more (6 files, 1 folder)',
      ].join('\n'),
    );
    expect(drawTree('r', files, { maxEntriesPerDir: 8, levels: 1 }).split('\n').slice(-2)).toEqual([
      '├── file3.ts',
      '└── … 2 more (2 files)',
    ]);
    // the cap applies in nested folders too, with the nested prefix
    const nested = drawTree('r', ['x/a.ts', 'x/b.ts', 'x/c.ts', 'y.ts'], { maxEntriesPerDir: 2 });
    expect(nested).toBe(
      ['r/', '├── x/', '│   ├── a.ts', '│   ├── b.ts', '│   └── … 1 more (1 file)', '└── y.ts'].join('\n'),
    );
  });

  it('orders names case-insensitively and naturally, stably', () => {
    const tree = drawTree('r', [
      'file10.ts',
      'File2.ts',
      'file1.ts',
      'b.ts',
      'A.ts',
      'a.ts',
      'Zed/x',
      'alpha/x',
    ]);
    expect(tree.split('\n')).toEqual([
      'r/',
      '├── alpha/',
      '│   └── x',
      '├── Zed/',
      '│   └── x',
      '├── A.ts',
      '├── a.ts',
      '├── b.ts',
      '├── file1.ts',
      '├── File2.ts',
      '└── file10.ts',
    ]);
    expect(['x10', 'x9', 'x09', 'X1', 'x1'].sort(naturalCompare)).toEqual(['X1', 'x1', 'x9', 'x09', 'x10']);
  });

  it('an empty list is the root line alone; empty and ".." paths are ignored; duplicates drawn once; a backslash is no separator', () => {
    expect(drawTree('src/', [])).toBe('src/');
    expect(drawTree('', [])).toBe('./');
    expect(
      drawTree('r', ['', '../up.ts', 'a/../b.ts', '/', './x.ts', 'x.ts', 'dir\\win.ts', 'a//b.ts']),
    ).toBe(['r/', '├── a/', '│   └── b.ts', '├── dir\\win.ts', '└── x.ts'].join('\n')); // a backslash is part of a name
  });

  it('a name with a newline stays on its line; a file and a folder of the same name both show', () => {
    expect(drawTree('r', ['bad\nname.ts', 'a', 'a/b'])).toBe(
      ['r/', '├── a/', '│   └── b', '├── a', '└── bad?name.ts'].join('\n'),
    );
  });

  it('property: with no cap, every file at depth <= levels appears exactly once and collapsed counts add up', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,6}$/).filter((s) => s !== '.' && s !== '..');
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.array(path, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (paths, levels) => {
        const tree = drawTree('root', paths, { levels, maxEntriesPerDir: Infinity });
        const { files, collapsed } = readBack(tree);
        const unique = [...new Set(paths)];
        const shallow = unique.filter((p) => p.split('/').length <= levels).sort();
        expect([...files].sort()).toEqual(shallow);
        // every deeper file is inside exactly one collapsed folder, and the counts match
        const deep = unique.filter((p) => p.split('/').length > levels);
        let counted = 0;
        for (const n of collapsed.values()) counted += n;
        expect(counted).toBe(deep.length);
        for (const p of deep) expect(collapsed.has(p.split('/').slice(0, levels).join('/'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: with a cap, no folder shows more than the cap plus one summary line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,3}$/), { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        (paths, cap) => {
          const lines = drawTree('r', paths, { maxEntriesPerDir: cap }).split('\n');
          const children = new Map<string, number>();
          const stack: number[] = [];
          lines.slice(1).forEach((line, i) => {
            const depth = (/^((?:│ {3}| {4})*)/.exec(line)?.[1].length ?? 0) / 4;
            stack.length = depth;
            const parent = depth === 0 ? 'root' : String(stack[depth - 1]);
            children.set(parent, (children.get(parent) ?? 0) + 1);
            stack[depth] = i;
          });
          for (const n of children.values()) expect(n).toBeLessThanOrEqual(cap + 1);
        },
      ),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { ExploreCorpus, resolveExploreRoots } from './corpus';
import { importGraph } from './imports';

async function graphOf(files: MemoryTree, path = '.') {
  const ws = new Workspace([new MemorySource(files, { name: 'repo' })]);
  return importGraph(new ExploreCorpus(ws, await resolveExploreRoots(ws, path)));
}

const edge = (g: Awaited<ReturnType<typeof graphOf>>, from: string, to: string) =>
  g.edges.find((e) => e.from === from && e.to === to);

describe('import graph over fixture repositories', () => {
  it('resolves a tsconfig paths alias, inherited through extends', async () => {
    const g = await graphOf({
      'tsconfig.base.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } },
      }),
      'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json' }),
      'src/main.ts': "import { util } from '@app/lib/util';\nutil();\n",
      'src/lib/util.ts': 'export const util = () => 1;\n',
    });
    expect(edge(g, 'src/main.ts', 'src/lib/util.ts')).toMatchObject({ kind: 'static', line: 1 });
    expect(g.unresolved).toEqual([]);
  });

  it('resolves a monorepo package import through its exports to the source file', async () => {
    const g = await graphOf({
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
      'packages/core/package.json': JSON.stringify({
        name: '@acme/core',
        exports: { '.': { import: './dist/index.js' }, './strings': './dist/strings.js' },
      }),
      'packages/core/src/index.ts': "export * from './strings';\n",
      'packages/core/src/strings.ts': 'export const up = (s: string) => s.toUpperCase();\n',
      'packages/web/package.json': JSON.stringify({
        name: '@acme/web',
        dependencies: { '@acme/core': '*', react: '^19' },
      }),
      'packages/web/src/app.ts':
        "import { up } from '@acme/core/strings';\nimport * as core from '@acme/core';\nimport React from 'react';\n",
    });
    expect(edge(g, 'packages/web/src/app.ts', 'packages/core/src/strings.ts')?.line).toBe(1);
    expect(edge(g, 'packages/web/src/app.ts', 'packages/core/src/index.ts')?.line).toBe(2);
    expect(edge(g, 'packages/web/src/app.ts', 'react')).toBeTruthy();
    expect(g.nodes.find((n) => n.id === 'react')).toMatchObject({ kind: 'external', fanIn: 1 });
    expect(g.externals).toBe(1);
  });

  it('reports a real cycle with its path, and lists a type-only cycle apart', async () => {
    const g = await graphOf({
      'src/a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'src/b.ts': "import { a } from './a';\nexport const b = () => a();\n",
      'src/model.ts': "import type { View } from './view';\nexport interface Model { v?: View }\n",
      'src/view.ts': "import type { Model } from './model';\nexport interface View { m?: Model }\n",
      'src/lazy.ts': "export const load = () => import('./host');\n",
      'src/host.ts': "import { load } from './lazy';\nload();\n",
    });
    expect(g.cycles).toEqual([
      { files: ['src/a.ts', 'src/b.ts'], path: ['src/a.ts', 'src/b.ts', 'src/a.ts'] },
    ]);
    expect(g.typeCycles.map((c) => c.files)).toEqual([['src/model.ts', 'src/view.ts']]);
    expect(g.dynamicCycles.map((c) => c.files)).toEqual([['src/host.ts', 'src/lazy.ts']]);
    expect(edge(g, 'src/model.ts', 'src/view.ts')?.kind).toBe('type');
    expect(edge(g, 'src/lazy.ts', 'src/host.ts')?.kind).toBe('dynamic');
  });

  it('resolves Python relative and absolute imports', async () => {
    const g = await graphOf({
      'pkg/__init__.py': '',
      'pkg/core.py': 'from .util import helper\nfrom . import models\nimport os\n',
      'pkg/util.py': 'def helper():\n    return 1\n',
      'pkg/models.py': 'from pkg.util import helper\n',
      'main.py': 'import pkg.core\n',
    });
    expect(edge(g, 'pkg/core.py', 'pkg/util.py')?.line).toBe(1);
    // `from . import models` names the package's module models.py
    expect(edge(g, 'pkg/core.py', 'pkg/models.py')?.line).toBe(2);
    expect(edge(g, 'pkg/models.py', 'pkg/util.py')).toBeTruthy();
    expect(edge(g, 'main.py', 'pkg/core.py')).toBeTruthy();
    expect(g.nodes.some((n) => n.id === 'os' && n.kind === 'external')).toBe(true);
  });

  it('resolves a Go module import to the package folder from go.mod', async () => {
    const g = await graphOf({
      'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n',
      'cmd/shop/main.go':
        'package main\n\nimport (\n\t"fmt"\n\t"example.com/shop/internal/cart"\n\t"github.com/google/uuid"\n)\n',
      'internal/cart/cart.go': 'package cart\n',
      'internal/cart/total.go': 'package cart\n',
    });
    expect(edge(g, 'cmd/shop/main.go', 'internal/cart/cart.go')?.line).toBe(5);
    expect(edge(g, 'cmd/shop/main.go', 'github.com/google/uuid')).toBeTruthy();
    expect(g.entryPoints).toContain('cmd/shop/main.go');
  });

  it('resolves Rust mod declarations and crate paths, and C includes', async () => {
    const g = await graphOf({
      'Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n',
      'src/main.rs': 'mod config;\nuse crate::config::Settings;\nfn main() {}\n',
      'src/config.rs': 'pub struct Settings;\n',
      'c/main.c': '#include <stdio.h>\n#include "util.h"\nint main(void) { return 0; }\n',
      'c/util.h': 'int util(void);\n',
    });
    expect(edge(g, 'src/main.rs', 'src/config.rs')?.line).toBe(1);
    expect(edge(g, 'c/main.c', 'c/util.h')?.line).toBe(2);
    expect(edge(g, 'c/main.c', 'stdio.h')).toBeTruthy();
    expect(g.entryPoints).toContain('src/main.rs');
  });

  it('finds hubs and orphans, and leaves entry points, tests and configs out of the orphans', async () => {
    const g = await graphOf({
      'package.json': JSON.stringify({ name: 'app', main: './src/index.ts' }),
      'src/index.ts': "import './a';\nimport './b';\n",
      'src/a.ts': "import { log } from './log';\n",
      'src/b.ts': "import { log } from './log';\n",
      'src/log.ts': 'export const log = console.log;\n',
      'src/unused.ts': 'export const nobody = 1;\n',
      'src/a.test.ts': "import './a';\n",
      'vite.config.ts': 'export default {};\n',
    });
    expect(g.hubs.fanIn[0]).toEqual({ path: 'src/a.ts', count: 2 });
    expect(g.hubs.fanIn.find((h) => h.path === 'src/log.ts')?.count).toBe(2);
    expect(g.orphans).toEqual(['src/unused.ts']);
    expect(g.entryPoints).toContain('src/index.ts');
  });

  it('keeps the imports of the explored folder, resolving against the whole root', async () => {
    const g = await graphOf(
      {
        'src/core/a.ts': "import { x } from '../shared/x';\n",
        'src/core/used-outside.ts': 'export const u = 1;\n',
        'src/core/unused.ts': 'export const nobody = 1;\n',
        'src/shared/x.ts': 'export const x = 1;\n',
        'src/other/y.ts': "import { x } from '../shared/x';\nimport { u } from '../core/used-outside';\n",
      },
      'src/core',
    );
    expect(g.files).toBe(4);
    // imported from outside the folder: not an orphan
    expect(g.orphans).toEqual(['src/core/a.ts', 'src/core/unused.ts']);
    expect(edge(g, 'src/core/a.ts', 'src/shared/x.ts')).toBeTruthy();
    expect(g.nodes.some((n) => n.id === 'src/other/y.ts')).toBe(false);
  });

  it('lists unresolved relative imports with their line', async () => {
    const g = await graphOf({ 'a.ts': "\nimport { gone } from './missing';\n" });
    expect(g.unresolved).toEqual([{ from: 'a.ts', specifier: './missing', line: 2 }]);
  });
});

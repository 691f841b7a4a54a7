import { describe, expect, it } from 'vitest';
import { extractJsImports, resolveJsImport, type JsResolveContext } from './imports-js';

describe('extractJsImports', () => {
  it('reads every import form with its kind and line, and nothing in comments', () => {
    const text = [
      "import React from 'react';",
      "import { a, b as c } from './util';",
      "import type { Props } from './types';",
      "import { type A, type B } from './only-types';",
      "import { type C, d } from './mixed';",
      "import './side-effect.css';",
      "export * from './reexport';",
      "export { x } from '../x';",
      'const fs = require("node:fs");',
      "const Lazy = () => import('./Lazy');",
      "// import nope from './commented';",
      "/* import nope2 from './block-commented'; */",
      "const s = 'http://example.com // not a comment';",
      'import {',
      '  multi,',
      '  line,',
      "} from '@scope/pkg/sub';",
    ].join('\n');
    expect(extractJsImports(text)).toEqual([
      { specifier: 'react', kind: 'static', line: 1 },
      { specifier: './util', kind: 'static', line: 2 },
      { specifier: './types', kind: 'type', line: 3 },
      { specifier: './only-types', kind: 'type', line: 4 },
      { specifier: './mixed', kind: 'static', line: 5 },
      { specifier: './side-effect.css', kind: 'static', line: 6 },
      { specifier: './reexport', kind: 'static', line: 7 },
      { specifier: '../x', kind: 'static', line: 8 },
      { specifier: 'node:fs', kind: 'static', line: 9 },
      { specifier: './Lazy', kind: 'dynamic', line: 10 },
      { specifier: '@scope/pkg/sub', kind: 'static', line: 17 },
    ]);
  });
});

describe('resolveJsImport', () => {
  const files = new Set([
    'src/app.ts',
    'src/util.ts',
    'src/lib/index.ts',
    'src/components/Button.tsx',
    'src/esm.ts',
    'packages/core/package.json',
    'packages/core/src/index.ts',
    'packages/core/src/deep/thing.ts',
    'data/config.json',
  ]);
  const ctx: JsResolveContext = {
    files,
    tsconfig: {
      dir: '',
      baseUrl: '.',
      paths: { '@/*': ['src/*'], '@components/*': ['src/components/*'], 'exact-alias': ['src/util.ts'] },
    },
    packages: new Map([['@acme/core', 'packages/core']]),
  };
  it.each([
    ['./util', 'src/app.ts', { file: 'src/util.ts' }],
    ['./lib', 'src/app.ts', { file: 'src/lib/index.ts' }],
    ['./esm.js', 'src/app.ts', { file: 'src/esm.ts' }], // a .js specifier finds its .ts source
    ['../data/config.json', 'src/app.ts', { file: 'data/config.json' }],
    ['@/components/Button', 'src/app.ts', { file: 'src/components/Button.tsx' }],
    ['@components/Button', 'src/app.ts', { file: 'src/components/Button.tsx' }],
    ['exact-alias', 'src/app.ts', { file: 'src/util.ts' }],
    ['src/util', 'src/lib/index.ts', { file: 'src/util.ts' }], // baseUrl
    ['@acme/core', 'src/app.ts', { file: 'packages/core/src/index.ts' }],
    ['@acme/core/deep/thing', 'src/app.ts', { file: 'packages/core/src/deep/thing.ts' }],
    ['react-dom/client', 'src/app.ts', { external: 'react-dom' }],
    ['@tanstack/react-virtual', 'src/app.ts', { external: '@tanstack/react-virtual' }],
    ['node:path', 'src/app.ts', { builtin: 'path' }],
    ['fs/promises', 'src/app.ts', { builtin: 'fs/promises' }],
    ['./missing', 'src/app.ts', { unresolved: './missing' }],
    ['../../../outside', 'src/app.ts', { unresolved: '../../../outside' }],
  ])('%s from %s', (spec, from, expected) => {
    expect(resolveJsImport(spec, from, ctx)).toEqual(expected);
  });
});

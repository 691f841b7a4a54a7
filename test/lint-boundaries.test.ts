/**
 * The layer rules (eslint-rules/boundaries.js) with the project's own layer table
 * (eslint-rules/layers.js), run by ESLint over a small src/ tree written to a temporary folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import boundaries from '../eslint-rules/boundaries.js';
import { CORE_PACKAGES, LAYER_OPTIONS, UI_PACKAGES, UI_WORKER_SURFACE } from '../eslint-rules/layers.js';

let dir = '';
const write = (rel: string, text: string) => {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

const config: Linter.Config[] = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
    plugins: { quarry: boundaries },
    rules: {
      'quarry/layers': ['error', LAYER_OPTIONS],
      'quarry/browser-closure': ['error', LAYER_OPTIONS],
      'quarry/no-computed-module-loading': 'error',
    },
  },
];

/** `line rule: message` for every report on one file (relative to the fixture root). */
async function lint(rel: string, rule?: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: config });
  const [result] = await eslint.lintFiles([rel]);
  return result.messages
    .filter((m) => !rule || m.ruleId === rule)
    .map((m) => `${m.line} ${m.ruleId}: ${m.message}`);
}

const PULLS = 'this import pulls Node into the browser bundle';
const SURFACE = UI_WORKER_SURFACE.join(', ');
const NO_LAYER =
  'it is in no layer, so the layer rules cannot see what it imports (add its folder to eslint-rules/layers.js)';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-lint-'));
  // 'buffer' is a declared package here (the npm polyfill), so a bare 'buffer' is not Node's
  write(
    'package.json',
    JSON.stringify({ name: 'fixture', type: 'module', dependencies: { buffer: '6.0.3' } }),
  );
  write(
    'src/core/ok.ts',
    "import picomatch from 'picomatch';\nimport type { Node } from 'web-tree-sitter';\nexport const ok = picomatch;\nexport type N = Node;\n",
  );
  write(
    'src/core/bad.ts',
    "import { join } from 'node:path';\nimport React from 'react';\nimport { w } from '../worker/w';\nexport const bad = [join, React, w];\n",
  );
  write(
    'src/adapters/node/fs.ts',
    "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  );
  write('src/adapters/browser/leaf.ts', 'export const leaf = 1;\n');
  write(
    'src/adapters/browser/reader.ts',
    "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  );
  write('src/adapters/browser/bridge.ts', "export * from './leaf';\nexport { read } from './reader';\n");
  write('src/adapters/git/polyfill.ts', "import { Buffer } from 'buffer';\nexport const B = Buffer;\n");
  write('src/adapters/git/builtin.ts', "import { Buffer } from 'node:buffer';\nexport const B = Buffer;\n");
  write('src/worker/w.ts', "import { read } from '../adapters/browser/bridge';\nexport const w = read;\n");
  write('src/worker/lazy.ts', "export const load = () => import('./w');\n");
  write(
    'src/worker/types-only.ts',
    "import type { read } from '../adapters/browser/reader';\nexport type { read as R2 } from '../adapters/node/fs';\nexport type R = typeof read;\n",
  );
  write('src/worker/cycle-a.ts', "import { b } from './cycle-b';\nexport const a = () => b;\n");
  write(
    'src/worker/cycle-b.ts',
    "import { a } from './cycle-a';\nimport { leaf } from '../adapters/browser/leaf';\nexport const b = () => [a, leaf];\n",
  );
  write(
    'src/worker/start.ts',
    "export const start = () => new Worker(new URL('./entry.ts', import.meta.url), { type: 'module' });\n",
  );
  write(
    'src/worker/entry.ts',
    "import { read } from '../adapters/browser/bridge';\nexport const entry = read;\n",
  );
  write(
    'src/worker/node-host.ts',
    "import { Worker } from 'node:worker_threads';\nimport { read } from '../adapters/node/fs';\nexport const host = [Worker, read];\n",
  );
  write(
    'src/worker/computed.ts',
    "const name = './w';\nexport const m = () => import(name);\nexport const t = () => import(`./w`);\nexport const r = () => require(name);\nexport const e = () => new Worker('postMessage(1)', { eval: true } as never);\n",
  );
  write(
    'src/worker/create-require.ts',
    "import { createRequire } from 'node:module';\nexport const req = createRequire(import.meta.url);\n",
  );
  write(
    'src/ui/view.tsx',
    "import { read } from '../adapters/node/fs';\nimport { w } from '../worker/w';\nexport const View = () => [read, w];\n",
  );
  write('src/ui/view.test.ts', "import { read } from '../adapters/node/fs';\nexport const x = read;\n");
  write('src/ui/via-git.ts', "import { B } from '../adapters/git/polyfill';\nexport const x = B;\n");
  write(
    'src/cli/main.ts',
    "import { readFileSync } from 'node:fs';\nimport { read } from '../adapters/node/fs';\nimport { w } from '../worker/w';\nexport const main = [readFileSync, read, w];\n",
  );
  write(
    'src/worker/later.ts',
    "import { late } from '../adapters/browser/late';\nexport const later = late;\n",
  );
  write('src/adapters/browser/late.ts', 'export const late = 1;\n');

  // (a) a file under src/ in no layer, used as a pass-through; and a file outside src/
  write('src/misc/pass.ts', "import { View } from '../ui/view';\nexport const p = View;\n");
  write('src/core/via-misc.ts', "import { p } from '../misc/pass';\nexport const x = p;\n");
  write('lib/outside.ts', "export { View } from '../src/ui/view';\n");
  write('src/core/via-outside.ts', "import { View } from '../../lib/outside';\nexport const x = View;\n");
  write('src/core/via-core.ts', "import { ok } from './ok';\nexport const x = ok;\n");
  // (b) import.meta.glob, beside the import.meta uses that load nothing
  write('src/worker/glob.ts', "export const mods = import.meta.glob('../ui/*.tsx');\n");
  write(
    'src/worker/meta.ts',
    "export const wasm = new URL('./x.wasm', import.meta.url).href;\nexport const dev = import.meta.env;\n",
  );
  // (c) ui reaching into the worker's engine side, or the worker's packages
  write('src/worker/session.ts', 'export const session = 1;\n');
  write('src/worker/client.ts', 'export class EngineClient {}\n');
  write('src/worker/protocol.ts', 'export interface Msg {\n  id: number;\n}\n');
  write(
    'src/ui/reach.ts',
    "import { session } from '../worker/session';\nimport git from 'isomorphic-git';\nexport const x = [session, git];\n",
  );
  write(
    'src/ui/client-only.tsx',
    "import { useState } from 'react';\nimport { EngineClient } from '../worker/client';\nimport type { Msg } from '../worker/protocol';\nexport const x = [useState, EngineClient];\nexport type M = Msg;\n",
  );
  // (d) packages as the browser build resolves them: one whose browser entry reaches 'fs' through
  // another package; one that reaches Node only under the `node` condition, behind a `browser`
  // field that empties 'fs', or in a function (a Node-only branch)
  const pkg = (name: string, json: object, files: Record<string, string>) => {
    write(`node_modules/${name}/package.json`, JSON.stringify({ name, ...json }));
    for (const [f, text] of Object.entries(files)) write(`node_modules/${name}/${f}`, text);
  };
  pkg(
    'node-entry',
    { main: 'dist/index.js' },
    { 'dist/index.js': "module.exports = require('node-dep');\n" },
  );
  pkg(
    'node-dep',
    { main: 'index.js' },
    { 'index.js': "const fs = require('fs');\nmodule.exports = fs.readFileSync;\n" },
  );
  pkg(
    'dual',
    {
      type: 'module',
      exports: { '.': { node: './node.js', browser: './browser.js', default: './node.js' } },
    },
    {
      'node.js': "export { readFileSync as read } from 'node:fs';\n",
      'browser.js': "export { read } from './fetch.js';\n",
      'fetch.js': "export const read = (u) => fetch(u);\nexport const inNode = () => import('node:fs');\n",
    },
  );
  pkg(
    'mapped',
    { main: 'index.js', browser: { fs: false, './node.js': './web.js' } },
    {
      'index.js': "const fs = require('fs');\nmodule.exports = [fs, require('./node.js')];\n",
      'node.js': "module.exports = require('path');\n",
      'web.js': 'module.exports = {};\n',
    },
  );
  write('src/adapters/embed/model.ts', "import read from 'node-entry';\nexport const m = read;\n");
  write(
    'src/adapters/embed/model-ok.ts',
    "import { read } from 'dual';\nimport mapped from 'mapped';\nexport const m = [read, mapped];\n",
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('quarry/layers', () => {
  it('core imports only core, its listed packages and no Node builtin', async () => {
    expect(await lint('src/core/ok.ts')).toEqual([]);
    expect(await lint('src/core/bad.ts', 'quarry/layers')).toEqual([
      "1 quarry/layers: core may not import the Node builtin 'node:path'",
      `2 quarry/layers: core may not import the package 'react' (allowed: ${CORE_PACKAGES.join(', ')})`,
      "3 quarry/layers: core may not import worker ('../worker/w'); it may import: core",
    ]);
  });

  it('ui never imports adapters/node or adapters/git', async () => {
    expect(await lint('src/ui/view.tsx', 'quarry/layers')).toEqual([
      "1 quarry/layers: ui may not import adapters/node ('../adapters/node/fs'); it may import: core, worker, adapters/browser, ui",
      `2 quarry/layers: ui may import only ${SURFACE} of worker ('../worker/w')`,
    ]);
    expect(await lint('src/ui/via-git.ts', 'quarry/layers')).toEqual([
      "1 quarry/layers: ui may not import adapters/git ('../adapters/git/polyfill'); it may import: core, worker, adapters/browser, ui",
    ]);
  });

  it('counts type-only imports as dependencies between layers', async () => {
    expect(await lint('src/worker/types-only.ts', 'quarry/layers')).toEqual([
      "2 quarry/layers: worker may not import adapters/node ('../adapters/node/fs'); it may import: core, adapters/browser, adapters/embed, adapters/git, worker",
    ]);
  });

  it('adapters/git may use the buffer package but not node:buffer', async () => {
    expect(await lint('src/adapters/git/polyfill.ts')).toEqual([]);
    expect(await lint('src/adapters/git/builtin.ts')).toEqual([
      "1 quarry/layers: adapters/git may not import the Node builtin 'node:buffer'",
    ]);
  });

  it('lets tests, the Node hosts and the CLI reach Node', async () => {
    expect(await lint('src/ui/view.test.ts')).toEqual([]);
    expect(await lint('src/worker/node-host.ts')).toEqual([]);
    expect(await lint('src/cli/main.ts', 'quarry/layers')).toEqual([]);
    expect(await lint('src/adapters/node/fs.ts')).toEqual([]);
  });
});

describe('quarry/browser-closure', () => {
  it('names the chain from a worker file to the Node builtin its imports reach', async () => {
    expect(await lint('src/worker/w.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/w.ts -> src/adapters/browser/bridge.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
  });

  it('follows dynamic imports and worker entries', async () => {
    expect(await lint('src/worker/lazy.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/lazy.ts -> src/worker/w.ts -> src/adapters/browser/bridge.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
    expect(await lint('src/worker/start.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/start.ts -> src/worker/entry.ts -> src/adapters/browser/bridge.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
  });

  it('reports from ui and core too, and a chain that ends in a Node-only file', async () => {
    expect(await lint('src/ui/view.tsx', 'quarry/browser-closure')).toEqual([
      `2 quarry/browser-closure: ${PULLS} (ui): src/ui/view.tsx -> src/worker/w.ts -> src/adapters/browser/bridge.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
    write('src/adapters/browser/to-node.ts', "export { read } from '../node/fs';\n");
    write(
      'src/worker/via-node.ts',
      "import { read } from '../adapters/browser/to-node';\nexport const v = read;\n",
    );
    expect(await lint('src/worker/via-node.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/via-node.ts -> src/adapters/browser/to-node.ts -> src/adapters/node/fs.ts (adapters/node is Node-only)`,
    ]);
  });

  it('skips type-only imports (erased), ends on cycles, and leaves the direct case to quarry/layers', async () => {
    expect(await lint('src/worker/types-only.ts', 'quarry/browser-closure')).toEqual([]);
    expect(await lint('src/worker/cycle-a.ts')).toEqual([]);
    expect(await lint('src/adapters/browser/reader.ts')).toEqual([
      "1 quarry/layers: adapters/browser may not import the Node builtin 'node:fs'",
    ]);
  });

  it('sees a file change between two runs in one process (the per-file cache is keyed by mtime and size)', async () => {
    expect(await lint('src/worker/later.ts')).toEqual([]);
    write('src/adapters/browser/late.ts', "import { read } from './reader';\nexport const late = read;\n");
    expect(await lint('src/worker/later.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/later.ts -> src/adapters/browser/late.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
  });

  it('looks an import up again when the file it led to is gone (the resolved targets are cached)', async () => {
    write('src/worker/gone-a.ts', "import { b } from './gone-b';\nexport const a = b;\n");
    write('src/worker/gone-b.ts', "import { c } from './gone-c';\nexport const b = c;\n");
    write('src/worker/gone-c.ts', 'export const c = 1;\n');
    expect(await lint('src/worker/gone-a.ts')).toEqual([]);
    rmSync(join(dir, 'src/worker/gone-c.ts'));
    write('src/worker/gone-c/index.ts', "export { read as c } from '../../adapters/browser/reader';\n");
    expect(await lint('src/worker/gone-a.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (worker): src/worker/gone-a.ts -> src/worker/gone-b.ts -> src/worker/gone-c/index.ts -> src/adapters/browser/reader.ts imports 'node:fs'`,
    ]);
  });
});

describe('issue 32: what the layer rules used to miss', () => {
  it('(a) reports a file under src/ in no layer, an import of one, and an import from outside src/', async () => {
    expect(await lint('src/core/via-misc.ts', 'quarry/layers')).toEqual([
      `1 quarry/layers: core may not import src/misc/pass.ts ('../misc/pass'): ${NO_LAYER}`,
    ]);
    expect(await lint('src/misc/pass.ts')).toEqual([
      '1 quarry/layers: src/misc/pass.ts is under src/ but in no layer: add its folder to eslint-rules/layers.js',
    ]);
    expect(await lint('src/core/via-outside.ts', 'quarry/layers')).toEqual([
      `1 quarry/layers: core may not import lib/outside.ts, outside src/, ('../../lib/outside'): ${NO_LAYER}`,
    ]);
    expect(await lint('src/core/via-core.ts')).toEqual([]);
  });

  it('(b) reports import.meta.glob, not import.meta.url or .env', async () => {
    expect(await lint('src/worker/glob.ts')).toEqual([
      '1 quarry/layers: import.meta.glob loads modules by pattern, which the layer rules cannot check: import each module by name',
    ]);
    expect(await lint('src/worker/meta.ts')).toEqual([]);
  });

  it("(c) ui reaches the worker only through its client surface, and uses only the page's packages", async () => {
    expect(await lint('src/ui/reach.ts')).toEqual([
      `1 quarry/layers: ui may import only ${SURFACE} of worker ('../worker/session')`,
      `2 quarry/layers: ui may not import the package 'isomorphic-git' (allowed: ${UI_PACKAGES.join(', ')})`,
    ]);
    expect(await lint('src/ui/client-only.tsx')).toEqual([]);
  });

  it("(d) follows a package's browser build to the Node builtin it loads", async () => {
    expect(await lint('src/adapters/embed/model.ts')).toEqual([
      `1 quarry/browser-closure: ${PULLS} (adapters/embed): src/adapters/embed/model.ts -> node_modules/node-entry/dist/index.js -> node_modules/node-dep/index.js imports 'fs'`,
    ]);
    // the browser condition, the browser field and a Node-only branch keep Node out, as in Vite's build
    expect(await lint('src/adapters/embed/model-ok.ts')).toEqual([]);
  });
});

describe('quarry/no-computed-module-loading', () => {
  it('flags import()/require() of a computed name and eval-ed workers, not literal names', async () => {
    expect(await lint('src/worker/computed.ts', 'quarry/no-computed-module-loading')).toEqual([
      "2 quarry/no-computed-module-loading: import() with a computed module name hides the import from the layer rules: use a literal ('./x')",
      "4 quarry/no-computed-module-loading: require() with a computed module name hides the import from the layer rules: use a literal ('./x')",
      '5 quarry/no-computed-module-loading: a Worker started with eval: true runs code built from a string, which the layer rules cannot follow',
    ]);
  });

  it('flags createRequire', async () => {
    expect(await lint('src/worker/create-require.ts', 'quarry/no-computed-module-loading')).toEqual([
      '1 quarry/no-computed-module-loading: createRequire loads modules the layer rules cannot follow: only src/cli and src/adapters/node may use it',
    ]);
  });
});

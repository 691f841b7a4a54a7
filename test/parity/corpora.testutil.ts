/**
 * Corpora for the parity suite, written to fresh folders (the engine stores its index in
 * `<root>/.coderag/`): code from npm packages installed as dev dependencies (ts, js and md
 * files only, the extensions both 0.6.2 and seed 004 index), and a fixture of our own with
 * every edge the chunking rules name.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const KEEP = /\.(ts|js|md)$/;

function copyTree(from: string, to: string, keep: (name: string) => boolean = (n) => KEEP.test(n)): number {
  let n = 0;
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    if (e.isDirectory() && e.name === 'node_modules') continue; // both skip it; the edge fixture shows that
    if (e.isDirectory()) n += copyTree(src, path.join(to, e.name), keep);
    else if (e.isFile() && keep(e.name)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(src, path.join(to, e.name));
      n++;
    }
  }
  return n;
}

export interface Corpus {
  name: string;
  dir: string;
}

export function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `quarry-parity-${name}-`));
}

/**
 * Part of three.js's sources (1.1 MB, 200 modules: the engine re-reads its whole stored index
 * on every call, about a second a call for all of three's 6.5 MB): classes at the start of a
 * line, exported at the end.
 */
export function threeCorpus(): Corpus {
  const dir = tempDir('three');
  for (const sub of ['math', 'core', 'objects', 'cameras', 'lights', 'animation'])
    copyTree(path.resolve('node_modules/three/src', sub), path.join(dir, 'src', sub));
  fs.copyFileSync(path.resolve('node_modules/three/README.md'), path.join(dir, 'README.md'));
  return { name: 'three', dir };
}

/** TypeScript's ES lib declarations, the DOM's (over 1 MiB: both skip it) and Babel's compiled core. */
export function declarationsCorpus(): Corpus {
  const dir = tempDir('decl');
  copyTree(path.resolve('node_modules/typescript/lib'), path.join(dir, 'typescript/lib'), (n) =>
    /^lib\.(es.*|decorators.*|dom)\.d\.ts$/.test(n),
  );
  copyTree(path.resolve('node_modules/@babel/core'), path.join(dir, 'babel-core'));
  return { name: 'typescript lib + @babel/core', dir };
}

/** Every edge of the chunking and the walk, in the extensions both versions index. */
export function edgeCorpus(): Corpus {
  const dir = tempDir('edges');
  const w = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  };
  w(
    'src/db/pool.ts',
    "import { Pool } from 'pg';\nimport type { Config } from './config';\n\nexport function createPool(config: Config) {\n  return new Pool(config);\n}\n\nexport class PoolManager {\n  pools = new Map();\n  get(name: string) { return this.pools.get(name); }\n}\n",
  );
  w(
    'src/db/connection.ts',
    'export const connect = async (url: string) => {\n  return url;\n};\nfunction helper() { return 1 }\n',
  );
  w(
    'src/db/README.md',
    '# Database\nThe connection pool keeps connections open.\n\n## Pool size\nTen by default.\n',
  );
  w(
    'src/forms.ts',
    [
      '// preamble words: session token',
      "import x from 'y';",
      'export function alpha(a) { return a; }',
      'export async function beta() {}',
      'export class Gamma {',
      '  method() { return alpha(1); }',
      '}',
      'export const delta = 1;',
      'export const epsilon: number = 2;',
      'export const zeta=3;',
      'function eta() {}',
      'async function theta() {}',
      'export  function twoSpaces() {}',
      'export function $dollar() {}',
      'export function naïve() {}',
      'export default function defaulted() {}',
      'export function* gen() {}',
      '  function indented() {}',
      'class Iota {}',
      'class Kappa extends Iota {}',
      'export interface Lambda {}',
      'def pyInTs(x):',
      'def noparen:',
      'export function alpha(a) { return a; }',
      'function\nacross() {}',
      'export const x\n= 1',
      'class\n  Foo {}',
      'function\u00a0nbsp() {}',
      'export\tfunction tabbed() {}',
      'function dupe() {}\r\rfunction lone() {}',
      'export function 9nine() {}',
      '',
    ].join('\n'),
  );
  w('src/crlf.ts', 'export function crlf() {\r\n  return 1;\r\n}\r\nfunction two() {}\r\n');
  w('src/crlf-nosym.ts', 'plain session\r\nfile\r\n');
  w('src/bom.ts', '\ufeffexport function bom() {}\nfunction second() {}\n');
  w('src/blank-first.ts', '\nexport function afterBlank() {}\n');
  w('src/spaces-first.ts', '   \nexport function afterSpaces() {}\n');
  w('src/two-blank.ts', '\n\nexport function afterTwo() {}\n');
  w('src/empty.ts', '');
  w('src/blank.ts', '\n\n');
  w('src/latin1.ts', Buffer.from([0x65, 0x78, 0x70, 0x6f, 0x72, 0x74, 0x20, 0xe9, 0x0a]));
  w(
    'src/binary.js',
    Buffer.from([
      0x00, 0x01, 0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x20, 0x62, 0x69, 0x6e, 0x28, 0x29, 0x0a,
    ]),
  );
  w(
    'src/wide.ts',
    `import z from "q";\nexport function wide() {\n  // ${'é'.repeat(50)}${'😀'.repeat(50)}${'x'.repeat(400)} session token\n}\n`,
  );
  w(
    'src/long.ts',
    `import { alpha } from "./alpha";\nexport function longOne() {\n${Array.from({ length: 60 }, (_, i) => `  const v${i} = compute${i}(alpha, beta, gamma);\n`).join('')}}\nexport function after() { return alpha; }\n`,
  );
  w('src/lib.rs', 'fn rusty() {}\npub fn pubrust() {}\nfunction inrs() {}\n');
  w('src/view.tsx', 'export function View() { return <div>session</div>; }\n');
  w('UPPER.TS', 'export function upper() {}\n');
  w('notes.txt', 'session token pool\n');
  w('.hidden/h.ts', 'export function hidden() { return "session"; }\n');
  w('.gitignore', 'ignored.ts\n');
  w('ignored.ts', 'export function ignoredButIndexed() { return "token"; }\n');
  w('node_modules/pkg/index.ts', 'export function inNodeModules() {}\n');
  w('dist/out.js', 'function inDist() {}\n');
  w('crate/target/t.ts', 'function inTarget() {}\n');
  w('sub/target.ts', 'export function targetIsAFileName() { return "pool"; }\n');
  w('docs/guide.md', '# Guide\n\n## Sessions\nEvery request carries a session token.\n');
  w('big.ts', `export function big() {}\n${'x'.repeat(1_048_576)}\n`);
  w('exact.ts', `export function exact() {}\n${'y'.repeat(1_048_576 - 27)}`); // exactly 1 MiB: indexed
  fs.symlinkSync(path.join(dir, 'src/db/pool.ts'), path.join(dir, 'src/pool-link.ts'));
  fs.symlinkSync(path.join(dir, 'src/db'), path.join(dir, 'dblink'));
  return { name: 'edges', dir };
}

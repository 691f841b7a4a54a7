/** Small hand-written fixture repositories for the e2e suite. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FixtureFiles } from './opfs';

export const SMALL_APP: FixtureFiles = {
  'package.json': '{ "name": "small-app", "version": "1.0.0" }\n',
  '.gitignore': 'dist/\n*.log\n',
  'src/app.ts': [
    "import { formatMoney } from './util/strings';",
    '',
    '// TODO: support discounts',
    'export function calculateTotal(items: number[]): number {',
    '  let total = 0;',
    '  for (const item of items) total += item;',
    '  return total;',
    '}',
    '',
    'export const label = formatMoney(calculateTotal([1, 2, 3]));',
    '',
  ].join('\n'),
  'src/util/strings.ts':
    'export function formatMoney(n: number): string {\n  return `$${n.toFixed(2)}`;\n}\n',
  'src/components/Button.tsx':
    'export function Button({ label }: { label: string }) {\n  return <button>{label}</button>;\n}\n',
  'dist/bundle.js': 'console.log("built output, ignored");\n',
  'debug.log': 'ignored log line\n',
  'README.md': '# Small app\n\nCalculates totals.\n',
};

/** File names and lines that would be markup if a page ever rendered them as HTML. */
export const HOSTILE: FixtureFiles = {
  '<img src=x onerror=alert(1)>.ts':
    'export const evil = "<script>alert(\'xss\')</script>";\n// <img src=x onerror=alert(2)> in a comment\n',
  'src/<b onmouseover=alert(3)>bold.md':
    '<script>alert(4)</script>\n<iframe src="javascript:alert(5)"></iframe>\n',
  'src/ok.ts': 'export const fine = "<script>";\n',
};

/** A line that makes a backtracking regex engine take exponential time on `(a+)+$`. */
export function catastrophicRepo(): FixtureFiles {
  const files: FixtureFiles = { 'README.md': '# Catastrophic regex fixture\n' };
  const line = 'a'.repeat(30_000) + '!';
  for (let i = 0; i < 20; i++) files[`data/long${i}.txt`] = `${line}\nplain text line ${i}\n`;
  return files;
}

/** 10,000 small source files in 100 directories. */
export function tenThousandFiles(): FixtureFiles {
  const files: FixtureFiles = {};
  for (let d = 0; d < 100; d++) {
    for (let f = 0; f < 100; f++) {
      files[`pkg${d}/mod${f}.ts`] =
        `// file ${d}/${f}\nexport const value${d}_${f} = ${d * 100 + f};\nexport function get${f}() { return value${d}_${f}; }\n`;
    }
  }
  return files;
}

/** The folders writeDiskRepo made, removed when the test worker's process ends. */
const written: string[] = [];
process.once('exit', () => {
  for (const dir of written) rmSync(dir, { recursive: true, force: true });
});

/** Write a fixture to a fresh directory on disk (for the webkitdirectory input); returns its path. */
export function writeDiskRepo(name: string, files: FixtureFiles): string {
  const parent = mkdtempSync(join(tmpdir(), 'quarry-e2e-'));
  written.push(parent);
  const root = join(parent, name);
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return root;
}

/**
 * A repository built to break things, generated at test time in a temp directory: symlinks
 * out of the root, a FIFO, a locked directory, a 50 MB log, 5 MB and 900 KB minified bundles, 20,000
 * files in one folder, a 20-level deep tree, and names with HTML, quotes, a newline, emoji,
 * a backslash and a right-to-left override. Readable by every user (the permission tests
 * run the CLI as `nobody`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const HOSTILE_NAMES = [
  '<img src=x onerror=alert(1)>.ts',
  `quote"'.ts`,
  'new\nline.ts',
  'emoji😀.ts',
  'rtl\u202Etxt.exe',
  'back\\slash.ts',
];
export const WIDE_FILES = 20_000;
export const DEEP_LEVELS = 20;
export const BIG_LOG_LINES = 1_000_000; // "line 0000001 of the big log" x 1e6: about 30 MB... see bigLogLine
export const SECRET = 'hostile-secret-outside-the-root';

export function bigLogLine(n: number): string {
  return `line ${String(n).padStart(7, '0')} of the big log, padded to fifty bytes`;
}

export interface HostileRepo {
  root: string;
  /** A directory beside the root holding a secret the repository links to. */
  outside: string;
  hasFifo: boolean;
  cleanup(): void;
}

export function buildHostileRepo(opts: { wide?: boolean; big?: boolean } = {}): HostileRepo {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-hostile-'));
  fs.chmodSync(base, 0o755);
  const root = path.join(base, 'repo');
  const outside = path.join(base, 'outside');
  const w = (rel: string, text: string | Buffer) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret.ts'), `export const secret = '${SECRET}';\n`);

  w('src/app.ts', 'export function validateUser(name: string) {\n  return name.length > 0;\n}\n');
  w('src/util.ts', 'export function formatName(name: string) {\n  return name.trim();\n}\n');
  for (const name of HOSTILE_NAMES) w(`names/${name}`, `export const marker = 'hostile-name-marker';\n`);

  // links: out of the root (followed by nothing), inside it (followed)
  fs.symlinkSync(outside, path.join(root, 'outside_link'));
  fs.symlinkSync('/', path.join(root, 'root_link'));
  fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'secret_link.ts'));
  fs.symlinkSync('../../outside/secret.ts', path.join(root, 'src', 'relative_secret.ts'));
  fs.symlinkSync('/dev/zero', path.join(root, 'zero_link'));
  fs.symlinkSync('src', path.join(root, 'inside_link'));
  fs.symlinkSync('app.ts', path.join(root, 'src', 'app_alias.ts'));

  const hasFifo = spawnSync('mkfifo', [path.join(root, 'pipe.ts')]).status === 0;

  // a directory nobody else may enter, with a link into it
  w('locked/inner.ts', 'export const lockedInner = 1;\n');
  fs.symlinkSync('locked/inner.ts', path.join(root, 'into_locked.ts'));
  fs.chmodSync(path.join(root, 'locked'), 0o000);

  // 20 levels deep
  w(
    Array.from({ length: DEEP_LEVELS }, (_, i) => `d${i}`).join('/') + '/deep.ts',
    'export const deepest = true;\n',
  );

  // a 5 MB minified bundle on one line
  const parts: string[] = [];
  for (let i = 0, size = 0; size < 5 * 1024 * 1024; i++) {
    const p = `function m${i}(a){return a+${i}};`;
    parts.push(p);
    size += p.length;
  }
  w('vendor/bundle.min.js', parts.join(''));
  // and one under the 1 MiB walk cap: walked and text-searched, but minified (no symbol chunks)
  w('vendor/small.js', parts.join('').slice(0, 900_000));

  if (opts.big !== false) {
    const lines: string[] = [];
    for (let n = 1; n <= BIG_LOG_LINES; n++) lines.push(bigLogLine(n));
    w('logs/big.log', lines.join('\n') + '\n');
  }
  if (opts.wide !== false) {
    const wide = path.join(root, 'wide');
    fs.mkdirSync(wide);
    for (let i = 0; i < WIDE_FILES; i++)
      fs.writeFileSync(path.join(wide, `f${String(i).padStart(5, '0')}.txt`), 'w\n');
  }
  const all = (p: string) => {
    // readable by others (the locked directory stays locked)
    if (p === path.join(root, 'locked')) return;
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) all(path.join(p, e));
  };
  all(root);
  fs.chmodSync(outside, 0o755);
  return {
    root,
    outside,
    hasFifo,
    cleanup: () => {
      fs.chmodSync(path.join(root, 'locked'), 0o755);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

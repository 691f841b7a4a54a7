/**
 * Builds the benchmark corpus (>= 100 MB of real code) from npm packages installed as dev
 * dependencies, into .bench/corpus. Noisy segment names (dist, build, ...) are renamed so
 * Quarry's walk policy and ripgrep's defaults see the same files; dotfiles and source maps
 * are left out so ripgrep's hidden-file rule does not matter. A smaller corpus (a quick check
 * of the bench itself, BENCH_CORPUS_MB) goes to its own directory, .bench/corpus-<n>mb.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NOISY_PATH_SEGMENTS } from '../src/core/walk/policy';

const PACKAGES = ['typescript', 'three', 'react-dom', '@babel/core', 'next'];
const TEXT_EXT = /\.(js|mjs|cjs|ts|mts|cts|tsx|jsx|json|md|d\.ts|css|html|txt|glsl|wgsl)$/;
export const CORPUS_DIR = path.resolve('.bench/corpus');
const MIN_BYTES = 100 * 1024 * 1024;
const TARGET_BYTES = 125 * 1024 * 1024;
const noisy = new Set(NOISY_PATH_SEGMENTS);

function safeSegment(seg: string): string {
  return noisy.has(seg) ? `${seg}_` : seg;
}

export function buildCorpus(smallMb?: number): { dir: string; files: number; bytes: number } {
  const small = smallMb !== undefined && Number.isFinite(smallMb) && smallMb > 0;
  const dir = small ? path.resolve(`.bench/corpus-${smallMb}mb`) : CORPUS_DIR;
  const target = small ? smallMb * 1024 * 1024 : TARGET_BYTES;
  const stamp = `${dir}.complete`; // beside the corpus, not in it: every file in it is the corpus's
  if (fs.existsSync(stamp)) {
    const [files, bytes] = fs.readFileSync(stamp, 'utf8').split(' ').map(Number);
    return { dir, files, bytes };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  outer: for (const pkg of PACKAGES) {
    const base = path.resolve('node_modules', pkg);
    if (!fs.existsSync(base))
      throw new Error(`bench corpus: npm package ${pkg} is not installed (run npm ci)`);
    const stack = [''];
    while (stack.length) {
      const rel = stack.pop()!;
      const entries = fs
        .readdirSync(path.join(base, rel), { withFileTypes: true })
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const e of entries) {
        if (e.name.startsWith('.') || e.name === 'node_modules') continue;
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) stack.push(child);
        else if (e.isFile() && TEXT_EXT.test(e.name) && !e.name.endsWith('.map')) {
          const src = path.join(base, child);
          const dest = path.join(dir, pkg.replace('/', '__'), ...child.split('/').map(safeSegment));
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          fs.copyFileSync(src, dest);
          files++;
          bytes += fs.statSync(src).size;
          if (bytes >= target) break outer;
        }
      }
    }
  }
  if (!small && bytes < MIN_BYTES)
    throw new Error(`bench corpus is only ${(bytes / 1e6).toFixed(1)} MB; need 100 MB`);
  fs.writeFileSync(stamp, `${files} ${bytes}`);
  return { dir, files, bytes };
}

/**
 * The second corpus, mostly C: the sources an npm native addon ships (libxmljs2 vendors
 * libxml2, ~7 MB of C with its headers, plus its own C++ binding and JS), copied as they are
 * into .bench/corpus-c.
 */
export const C_CORPUS_PACKAGE = 'libxmljs2';
export function buildCCorpus(): { dir: string; files: number; bytes: number } {
  const dir = path.resolve('.bench/corpus-c');
  const stamp = `${dir}.complete`; // beside the corpus, not in it: every file in it is the corpus's
  if (fs.existsSync(stamp)) {
    const [files, bytes] = fs.readFileSync(stamp, 'utf8').split(' ').map(Number);
    return { dir, files, bytes };
  }
  const base = path.resolve('node_modules', C_CORPUS_PACKAGE);
  if (!fs.existsSync(base))
    throw new Error(`bench C corpus: npm package ${C_CORPUS_PACKAGE} is not installed (run npm ci)`);
  fs.rmSync(dir, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  const visit = (rel: string) => {
    for (const e of fs
      .readdirSync(path.join(base, rel), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(child);
      else if (e.isFile()) {
        const dest = path.join(dir, ...child.split('/').map(safeSegment));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.copyFileSync(path.join(base, child), dest);
        files++;
        bytes += fs.statSync(dest).size;
      }
    }
  };
  visit('');
  fs.writeFileSync(stamp, `${files} ${bytes}`);
  return { dir, files, bytes };
}

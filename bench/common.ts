import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import type { GrepRequest } from '../src/core/grep/types';

export interface Query {
  name: string;
  req: Pick<GrepRequest, 'pattern' | 'mode' | 'caseMode'>;
  rgArgs: string[];
}

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

/**
 * ripgrep from Debian's package, installed with apt when it is not on the PATH (as
 * scripts/test.sh installs chromium). False when it is still missing after that.
 */
export function ensureRipgrep(): boolean {
  if (hasRipgrepCached()) return true;
  console.log('== rg is not on the PATH: installing Debian ripgrep (apt)');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root ? [] : ['sudo', '-n'];
  const run = (args: string[]) => {
    const [cmd, ...rest] = [...sudo, ...args];
    return (
      spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
        .status === 0
    );
  };
  const ok =
    run(['apt-get', 'update', '-qq']) &&
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'ripgrep']);
  rgKnown = hasRipgrep();
  if (!ok || !rgKnown)
    console.log(`could not install ripgrep${root ? '' : ' (needs root or passwordless sudo)'}`);
  return rgKnown;
}

/** The rg command line of a query over '.' (an explicit path: rg would read a piped stdin otherwise). */
function rgArgv(q: Query, extra: string[], threads: RgThreads): string[] {
  return [
    ...(threads === 1 ? ['-j1'] : []),
    '--no-config',
    '-n',
    '--null',
    '--no-heading',
    '--with-filename',
    '--color',
    'never',
    ...extra,
    ...q.rgArgs,
    '.',
  ];
}

/** 'default': rg picks its thread count (what a user gets); 1: rg -j1. */
export type RgThreads = 'default' | 1;

/** Threads rg uses by default here: the available parallelism, at most 12 (ripgrep's rule). */
export const RG_DEFAULT_THREADS = Math.min(12, os.availableParallelism());

/**
 * One timed rg run; its output goes to /dev/null (nothing captured or parsed while timed).
 * null when rg is missing.
 */
export function rgTimed(dir: string, q: Query, threads: RgThreads, extra: string[] = []): number | null {
  if (!hasRipgrepCached()) return null;
  const t = performance.now();
  const r = spawnSync('rg', rgArgv(q, extra, threads), {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  return ms;
}

/** rg's (path, line) pairs for a query, from one untimed run (paths relative, './' stripped); null when rg is missing. */
export function rgPairs(dir: string, q: Query, extra: string[] = []): string[] | null {
  if (!hasRipgrepCached()) return null;
  const r = spawnSync('rg', rgArgv(q, extra, 'default'), {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  const pairs: string[] = [];
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const nul = line.indexOf('\0');
    const colon = line.indexOf(':', nul + 1);
    pairs.push(`${line.slice(0, nul).replace(/^\.\//, '')}:${line.slice(nul + 1, colon)}`);
  }
  return pairs;
}

let rgKnown: boolean | null = null;
function hasRipgrepCached(): boolean {
  rgKnown ??= hasRipgrep();
  return rgKnown;
}

/** 'yes', or how two lists of (path, line) pairs differ. */
export function sameSets(a: string[], b: string[]): string {
  const sa = new Set(a);
  const sb = new Set(b);
  const onlyA = a.filter((x) => !sb.has(x));
  const onlyB = b.filter((x) => !sa.has(x));
  return onlyA.length === 0 && onlyB.length === 0
    ? 'yes'
    : `NO (+${onlyA.length} quarry-only, +${onlyB.length} rg-only, e.g. ${[...onlyA, ...onlyB].slice(0, 2).join(' ')})`;
}

export function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const r of rows) console.log(r.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  '));
}

/** Stops a server started with `detached: true` (vite preview and the processes it started): its whole process group. */
export function stopGroup(server: { pid?: number }): void {
  try {
    process.kill(-server.pid!);
  } catch {
    // already gone
  }
}

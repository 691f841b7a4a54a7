import { spawnSync } from 'node:child_process';
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

/** rg -j1 over `dir` (paths relative, './' stripped); null when rg is missing. */
export function rgRun(dir: string, q: Query, extra: string[] = []): { ms: number; pairs: string[] } | null {
  if (!hasRipgrepCached()) return null;
  const t = performance.now();
  // an explicit '.' (rg would read a piped stdin otherwise)
  const r = spawnSync('rg', ['-j1', '--no-config', '-n', '--null', '--no-heading', '--with-filename', '--color', 'never', ...extra, ...q.rgArgs, '.'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  const pairs: string[] = [];
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const nul = line.indexOf('\0');
    const colon = line.indexOf(':', nul + 1);
    pairs.push(`${line.slice(0, nul).replace(/^\.\//, '')}:${line.slice(nul + 1, colon)}`);
  }
  return { ms, pairs };
}

let rgKnown: boolean | null = null;
function hasRipgrepCached(): boolean {
  rgKnown ??= hasRipgrep();
  return rgKnown;
}

export function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const r of rows) console.log(r.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  '));
}

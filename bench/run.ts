/**
 * npm run bench — Quarry's text engine against ripgrep (rg -j1) on the same >= 100 MB corpus.
 * For each query: both must find the same (path, line) pairs; prints Quarry's time / rg's.
 * Times are medians of several warm runs in this one process (absolute times drift on
 * shared machines; the ratio is the number to read). Not a test: nothing asserts on time.
 */
import { spawnSync } from 'node:child_process';
import { NodeFsSource } from '../src/adapters/node-fs';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { searchWorkspace } from '../src/core/grep/search';
import type { GrepRequest } from '../src/core/grep/types';
import { Workspace } from '../src/core/source/workspace';
import { buildCorpus } from './corpus';

interface Query {
  name: string;
  req: Pick<GrepRequest, 'pattern' | 'mode' | 'caseMode'>;
  rgArgs: string[];
}

export const QUERIES: Query[] = [
  { name: 'literal identifier', req: { pattern: 'createSourceFile', mode: 'literal', caseMode: 'sensitive' }, rgArgs: ['-F', '-e', 'createSourceFile'] },
  { name: 'case-insensitive literal', req: { pattern: 'webglrenderer', mode: 'literal', caseMode: 'insensitive' }, rgArgs: ['-F', '-i', '-e', 'webglrenderer'] },
  { name: 'regex with a literal part', req: { pattern: 'function\\s+\\w+Type\\(', mode: 'regex', caseMode: 'sensitive' }, rgArgs: ['-e', 'function\\s+\\w+Type\\('] },
  { name: 'alternation', req: { pattern: 'useEffect|useLayoutEffect|useInsertionEffect', mode: 'regex', caseMode: 'sensitive' }, rgArgs: ['-e', 'useEffect|useLayoutEffect|useInsertionEffect'] },
  { name: 'rare string', req: { pattern: 'ERR_INVALID_ARG_VALUE_XYZ_NOT_THERE', mode: 'literal', caseMode: 'sensitive' }, rgArgs: ['-F', '-e', 'ERR_INVALID_ARG_VALUE_XYZ_NOT_THERE'] },
  { name: 'very common string', req: { pattern: 'return', mode: 'literal', caseMode: 'sensitive' }, rgArgs: ['-F', '-e', 'return'] },
  { name: 'regex, no literal', req: { pattern: '\\b[A-Z][a-z]+Error\\b', mode: 'regex', caseMode: 'sensitive' }, rgArgs: ['-e', '\\b[A-Z][a-z]+Error\\b'] },
];

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function quarryRun(ws: Workspace, q: Query) {
  const pairs: string[] = [];
  const t = performance.now();
  const summary = await searchWorkspace(
    ws,
    { ...q.req, maxResults: Number.MAX_SAFE_INTEGER, maxFileBytes: Number.MAX_SAFE_INTEGER },
    (r) => {
      for (const m of r.matches) pairs.push(`${m.path}:${m.line}`);
    },
    { yielder: NEVER_YIELD },
  );
  return { ms: performance.now() - t, pairs, summary };
}

function rgRun(dir: string, q: Query) {
  const t = performance.now();
  // an explicit '.' (rg would read a piped stdin otherwise); './' is stripped from the paths
  const r = spawnSync('rg', ['-j1', '--no-config', '-n', '--null', '--no-heading', '--with-filename', '--color', 'never', ...q.rgArgs, '.'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  const pairs: string[] = [];
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const nul = line.indexOf('\0');
    const colon = line.indexOf(':', nul + 1);
    const file = line.slice(0, nul).replace(/^\.\//, '');
    pairs.push(`${file}:${line.slice(nul + 1, colon)}`);
  }
  return { ms, pairs };
}

function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

async function main() {
  const corpus = buildCorpus();
  console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB in ${corpus.dir}`);
  const ws = new Workspace([new NodeFsSource(corpus.dir)]);
  const rg = hasRipgrep();
  if (!rg) console.log('rg is not on the PATH (Debian package ripgrep): printing Quarry times only');
  console.log(`runs per query: ${RUNS} (median)\n`);
  const rows: string[][] = [['query', 'strategy', 'matches', 'quarry ms', 'rg -j1 ms', 'ratio', 'same results']];
  // warm the page cache once
  await quarryRun(ws, QUERIES[4]);
  for (const q of QUERIES) {
    const qTimes: number[] = [];
    const rTimes: number[] = [];
    let qPairs: string[] = [];
    let rPairs: string[] = [];
    let strategy = '';
    for (let i = 0; i < RUNS; i++) {
      const a = await quarryRun(ws, q);
      qTimes.push(a.ms);
      qPairs = a.pairs;
      strategy = a.summary.strategy;
      if (rg) {
        const b = rgRun(corpus.dir, q);
        rTimes.push(b.ms);
        rPairs = b.pairs;
      }
    }
    let same = '-';
    if (rg) {
      const qs = new Set(qPairs);
      const rs = new Set(rPairs);
      const onlyQ = qPairs.filter((p) => !rs.has(p));
      const onlyR = rPairs.filter((p) => !qs.has(p));
      same = onlyQ.length === 0 && onlyR.length === 0 ? 'yes' : `NO (+${onlyQ.length} quarry-only, +${onlyR.length} rg-only, e.g. ${[...onlyQ, ...onlyR].slice(0, 2).join(' ')})`;
    }
    const qm = median(qTimes);
    const rm = rg ? median(rTimes) : NaN;
    rows.push([q.name, strategy, String(qPairs.length), qm.toFixed(1), rg ? rm.toFixed(1) : '-', rg ? (qm / rm).toFixed(2) + 'x' : '-', same]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join('  '));
  console.log('\nratio = Quarry time / ripgrep time (lower is better; target for an unindexed scan: <= 2x)');
}

await main();

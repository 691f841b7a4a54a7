/**
 * npm run bench — Quarry's engines against baselines run in this same process or script
 * (absolute times drift on shared machines; read the ratios). Not a test: nothing asserts on time.
 *   1. unindexed text search vs ripgrep (rg -j1) on the same >= 100 MB corpus, same (path, line) pairs
 *   2. the index: build, MiniSearch, memory, stored size, BM25 latency, indexed search vs rg, reopen
 *   3. the worker round trip: query -> first and last batch through a real worker
 *   4. git clone over a local git http-backend: the isomorphic-git adapter vs native git
 * BENCH_RUNS (default 5) sets the runs per query; BENCH_ONLY=scan|worker|index|clone runs one section.
 */
import { NodeFsSource } from '../src/adapters/node/fs';
import { searchWorkspace } from '../src/core/grep/search';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { Workspace } from '../src/core/source/workspace';
import { median, printTable, rgRun, hasRipgrep, type Query } from './common';
import { buildCorpus } from './corpus';
import { runIndexBench } from './index-bench';
import { runWorkerBench } from './worker-bench';
import { runCloneBench } from './clone';

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
const ONLY = process.env.BENCH_ONLY;

async function quarryScan(ws: Workspace, q: Query) {
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

async function runScanBench(dir: string) {
  console.log('\n== unindexed text search (issue 2): Quarry scan vs rg -j1, same files');
  const ws = new Workspace([new NodeFsSource(dir)]);
  await quarryScan(ws, QUERIES[4]); // warm the page cache
  const rows: string[][] = [['query', 'strategy', 'matches', 'quarry ms', 'rg -j1 ms', 'ratio', 'same results']];
  for (const q of QUERIES) {
    const qt: number[] = [];
    const rt: number[] = [];
    let qp: string[] = [];
    let rp: string[] = [];
    let strategy = '';
    for (let i = 0; i < RUNS; i++) {
      const a = await quarryScan(ws, q);
      qt.push(a.ms);
      qp = a.pairs;
      strategy = a.summary.strategy;
      const b = rgRun(dir, q);
      if (b) {
        rt.push(b.ms);
        rp = b.pairs;
      }
    }
    let same = '-';
    if (rt.length) {
      const qs = new Set(qp);
      const rs = new Set(rp);
      const onlyQ = qp.filter((p) => !rs.has(p));
      const onlyR = rp.filter((p) => !qs.has(p));
      same = !onlyQ.length && !onlyR.length ? 'yes' : `NO (+${onlyQ.length} quarry-only, +${onlyR.length} rg-only, e.g. ${[...onlyQ, ...onlyR].slice(0, 2).join(' ')})`;
    }
    rows.push([q.name, strategy, String(qp.length), median(qt).toFixed(1), rt.length ? median(rt).toFixed(1) : '-', rt.length ? `${(median(qt) / median(rt)).toFixed(2)}x` : '-', same]);
  }
  printTable(rows);
  console.log('ratio = Quarry time / ripgrep time (lower is better; target for an unindexed scan: <= 2x)');
}

async function main() {
  const corpus = buildCorpus();
  console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB in ${corpus.dir}; ${RUNS} runs per query (median)`);
  if (!hasRipgrep()) console.log('rg is not on the PATH (Debian package ripgrep): Quarry times only');
  if (!ONLY || ONLY === 'scan') await runScanBench(corpus.dir);
  if (!ONLY || ONLY === 'worker') await runWorkerBench(corpus.dir, QUERIES, RUNS);
  if (!ONLY || ONLY === 'index') await runIndexBench(corpus.dir, corpus.bytes, QUERIES, RUNS);
  if (!ONLY || ONLY === 'clone') await runCloneBench();
}

await main();

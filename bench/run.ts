/**
 * npm run bench — Quarry's engines against baselines run in this same process or script
 * (absolute times drift on shared machines; read the ratios). Not a test: nothing asserts on time.
 *   1. unindexed text search vs ripgrep on the same >= 100 MB corpus, same (path, line) pairs;
 *      rg timed with its default thread count (what a user gets) and with -j1
 *   2. the index: build, MiniSearch on the same chunk documents, memory, stored size, BM25
 *      latency, indexed search vs rg, reopen
 *   2b. the index build on every core: the parsing pool vs one thread vs MiniSearch on the same
 *      files, text-ready and ranked-ready times, parse throughput, coverage; again on a corpus
 *      that is mostly C
 *   3. the worker round trip: query -> first and last batch through a real worker
 *   4. git clone over a local git http-backend: the isomorphic-git adapter vs native git
 *   5. semantic search (bench/semantic): recall@1/5 and MRR@10 of codebase_search, Ranked,
 *      semantic and hybrid on labelled questions over three npm packages; embedding throughput
 *      in Node (vs @energetic-ai/embeddings) and in Chromium's embedding worker, model load,
 *      memory, vector query p50/p95 at 10k and 100k chunks (vs a float32 scan), stored size
 * Timed runs only time the search: rg's output goes to /dev/null and ours to a counting sink;
 * the (path, line) pairs compared come from separate untimed runs. rg is Debian's package,
 * installed with apt when missing.
 *   6. explore (bench/explore): deep explore per analyzer vs reading every file; a 10,000-file
 *      repository's import graph (target < 5 s); the drawn graph's main-thread tasks while
 *      panning at 2,000 nodes in Chromium (target: none over 50 ms)
 *   7. navigation (bench/nav): 200 seeded clicks on names in the corpus through a worker: go to
 *      definition p50/p95 (target p95 < 50 ms), find references to the first files on screen
 *      (target p95 < 150 ms) and to the last, beside `rg -w -F -s NAME`; references compared
 *      line by line with rg's
 * BENCH_RUNS (default 5) sets the runs per query; BENCH_ONLY=scan|worker|index|build|seed004|clone|scale|semantic|explore|nav|history|blame runs one
 * section; BENCH_CORPUS_MB=<n> builds a smaller corpus of about n MB (a quick check of the bench
 * itself, in its own directory; the figures are only meaningful on the full corpus).
 */
import { NodeFsSource } from '../src/adapters/node/fs';
import { searchWorkspace } from '../src/core/grep/search';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { Workspace } from '../src/core/source/workspace';
import { ensureRipgrep, median, printTable, RG_DEFAULT_THREADS, rgPairs, rgTimed, sameSets, type Query } from './common';
import { buildBench } from './build-bench';
import { buildCorpus } from './corpus';
import { runIndexBench } from './index-bench';
import { runSeedBench } from './seed-bench';
import { runWorkerBench } from './worker-bench';
import { runCloneBench } from './clone';
import { runScaleBench } from './scale-bench';
import { runQualityBench } from './semantic/quality';
import { runEmbedBench } from './semantic/embed-bench';
import { runExploreBench } from './explore/explore-bench';
import { runGraphViewBench } from './explore/graph-view';
import { runHistoryBench } from './history/history-bench';
import { runBlameBench } from './history/blame-bench';
import { runNavBench } from './nav/nav-bench';

export const QUERIES: Query[] = [
  { name: 'literal identifier', req: { pattern: 'createSourceFile', mode: 'literal', caseMode: 'sensitive' }, rgArgs: ['-F', '-e', 'createSourceFile'] },
  { name: 'case-insensitive literal', req: { pattern: 'webglrenderer', mode: 'literal', caseMode: 'insensitive' }, rgArgs: ['-F', '-i', '-e', 'webglrenderer'] },
  { name: 'regex with a literal part', req: { pattern: 'function\\s+\\w+Type\\(', mode: 'regex', caseMode: 'sensitive' }, rgArgs: ['-e', 'function\\s+\\w+Type\\('] },
  {
    name: 'alternation',
    req: { pattern: 'useEffect|useLayoutEffect|useInsertionEffect', mode: 'regex', caseMode: 'sensitive' },
    rgArgs: ['-e', 'useEffect|useLayoutEffect|useInsertionEffect'],
  },
  {
    name: 'rare string',
    req: { pattern: 'ERR_INVALID_ARG_VALUE_XYZ_NOT_THERE', mode: 'literal', caseMode: 'sensitive' },
    rgArgs: ['-F', '-e', 'ERR_INVALID_ARG_VALUE_XYZ_NOT_THERE'],
  },
  { name: 'very common string', req: { pattern: 'return', mode: 'literal', caseMode: 'sensitive' }, rgArgs: ['-F', '-e', 'return'] },
  { name: 'regex, no literal', req: { pattern: '\\b[A-Z][a-z]+Error\\b', mode: 'regex', caseMode: 'sensitive' }, rgArgs: ['-e', '\\b[A-Z][a-z]+Error\\b'] },
];

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ONLY = process.env.BENCH_ONLY;

const scanRequest = (q: Query) => ({ ...q.req, maxResults: Number.MAX_SAFE_INTEGER, maxFileBytes: Number.MAX_SAFE_INTEGER });

/** One timed scan: the sink only counts (as rg's timed output goes to /dev/null). */
async function quarryScanTimed(ws: Workspace, q: Query) {
  let count = 0;
  const t = performance.now();
  const summary = await searchWorkspace(ws, scanRequest(q), (r) => void (count += r.matches.length), { yielder: NEVER_YIELD });
  return { ms: performance.now() - t, count, summary };
}

/** The scan's (path, line) pairs, from an untimed run. */
async function quarryScanPairs(ws: Workspace, q: Query): Promise<string[]> {
  const pairs: string[] = [];
  await searchWorkspace(
    ws,
    scanRequest(q),
    (r) => {
      for (const m of r.matches) pairs.push(`${m.path}:${m.line}`);
    },
    { yielder: NEVER_YIELD },
  );
  return pairs;
}

async function runScanBench(dir: string) {
  console.log(`\n== unindexed text search (issue 2): Quarry scan (one thread) vs rg (default: ${RG_DEFAULT_THREADS} threads here) and rg -j1, same files`);
  const ws = new Workspace([new NodeFsSource(dir)]);
  await quarryScanTimed(ws, QUERIES[4]); // warm the page cache
  rgTimed(dir, QUERIES[4], 'default');
  const rows: string[][] = [['query', 'strategy', 'matches', 'quarry ms', 'rg ms', 'rg -j1 ms', 'quarry/rg', 'quarry/rg -j1', 'same results']];
  for (const q of QUERIES) {
    const qt: number[] = [];
    const rt: number[] = [];
    const r1: number[] = [];
    let count = 0;
    let strategy = '';
    for (let i = 0; i < RUNS; i++) {
      const a = await quarryScanTimed(ws, q);
      qt.push(a.ms);
      count = a.count;
      strategy = a.summary.strategy;
      const d = rgTimed(dir, q, 'default');
      if (d !== null) rt.push(d);
      const j = rgTimed(dir, q, 1);
      if (j !== null) r1.push(j);
    }
    const ours = await quarryScanPairs(ws, q);
    const theirs = rgPairs(dir, q);
    const ratio = (xs: number[]) => (xs.length ? `${(median(qt) / median(xs)).toFixed(2)}x` : '-');
    rows.push([
      q.name,
      strategy,
      String(count),
      median(qt).toFixed(1),
      rt.length ? median(rt).toFixed(1) : '-',
      r1.length ? median(r1).toFixed(1) : '-',
      ratio(rt),
      ratio(r1),
      theirs ? sameSets(ours, theirs) : '-',
    ]);
  }
  printTable(rows);
  console.log('ratio = Quarry time / ripgrep time (lower is better; target for an unindexed scan: <= 2x rg -j1)');
}

async function main() {
  // History (issue 18) builds its own 10,000-commit repository: no search corpus needed.
  if (ONLY === 'history') return runHistoryBench();
  // Blame (issue 18) builds its own 5,000-line, 1,000-commit repository.
  if (ONLY === 'blame') return runBlameBench();
  const corpus = buildCorpus(process.env.BENCH_CORPUS_MB ? Number(process.env.BENCH_CORPUS_MB) : undefined);
  console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB in ${corpus.dir}; ${RUNS} runs per query (median)`);
  const needsRg = !ONLY || ONLY === 'scan' || ONLY === 'index' || ONLY === 'nav';
  if (needsRg && !ensureRipgrep()) console.log('rg is not available: Quarry times only');
  if (!ONLY || ONLY === 'scan') await runScanBench(corpus.dir);
  if (!ONLY || ONLY === 'worker') await runWorkerBench(corpus.dir, QUERIES, RUNS);
  if (!ONLY || ONLY === 'index') await runIndexBench(corpus.dir, corpus.bytes, QUERIES, RUNS);
  if (!ONLY || ONLY === 'build') await buildBench(corpus.dir);
  if (!ONLY || ONLY === 'seed004') await runSeedBench(corpus.dir);
  if (!ONLY || ONLY === 'clone') await runCloneBench();
  if (!ONLY || ONLY === 'scale') await runScaleBench();
  if (!ONLY || ONLY === 'nav') await runNavBench(corpus.dir);
  if (!ONLY || ONLY === 'explore') {
    await runExploreBench(corpus.dir);
    await runGraphViewBench();
  }
  if (!ONLY) await runHistoryBench();
  if (!ONLY) await runBlameBench();
  if (!ONLY || ONLY === 'semantic') {
    await runQualityBench();
    await runEmbedBench();
  }
}

await main();

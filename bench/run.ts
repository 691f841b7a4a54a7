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
 *      memory, vector query p50/p95 at 10k and 100k chunks (vs a float32 scan), stored size;
 *      the first semantic answer on ~6,000 chunks (issue 36): time to the first answer on the
 *      embedding pool (one thread per core) and to embed every chunk, chunks/s of the pool vs one
 *      thread vs @energetic-ai/embeddings on the same views (bench/semantic/first-answer.ts;
 *      BENCH_SEMANTIC=first runs only that part of the section); then the same in Chromium on the
 *      demo repository (bench/semantic/browser-first-answer.ts; BENCH_SEMANTIC=browser alone)
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
 *   8. the query language (bench/query-bench.ts): the same pattern with and without file:, -file:,
 *      lang: and a glob (never slower), booleans beside their first term, type:commit on a
 *      10,000-commit stored log (target first results < 200 ms) and type:diff over 1,000 commits
 *      beside git log -G / -S (the same commits)
 * BENCH_RUNS (default 5) sets the runs per query; BENCH_ONLY=scan|worker|index|build|seed004|clone|scale|semantic|explore|nav|query|history|blame|reopen runs one
 * section; BENCH_QUERY=<part of a query name> runs only those queries; BENCH_CORPUS_MB=<n> builds a smaller corpus of about n MB (a quick check of the bench
 * itself, in its own directory; the figures are only meaningful on the full corpus).
 */
import { NodeFsSource } from '../src/adapters/node/fs';
import { nodeSearchPool } from '../src/adapters/node/search-pool';
import { Workspace } from '../src/core/source/workspace';
import { ensureRipgrep, printTable, RG_DEFAULT_THREADS, type Query } from './common';
import { ms, searchRow, times } from './search-rows';
import { buildBench } from './build-bench';
import { buildCorpus } from './corpus';
import { runIndexBench } from './index-bench';
import { runSeedBench } from './seed-bench';
import { runWorkerBench } from './worker-bench';
import { runCloneBench } from './clone';
import { runScaleBench } from './scale-bench';
import { runQualityBench } from './semantic/quality';
import { runEmbedBench } from './semantic/embed-bench';
import { runFirstAnswerBench } from './semantic/first-answer';
import { runBrowserFirstAnswerBench } from './semantic/browser-first-answer';
import { runExploreBench } from './explore/explore-bench';
import { runGraphViewBench } from './explore/graph-view';
import { runReopenBench } from './reopen/reopen-bench';
import { runHistoryBench } from './history/history-bench';
import { runBlameBench } from './history/blame-bench';
import { runNavBench } from './nav/nav-bench';
import { runQueryBench } from './query-bench';

export const QUERIES: Query[] = [
  {
    name: 'literal identifier',
    req: { pattern: 'createSourceFile', mode: 'literal', caseMode: 'sensitive' },
    rgArgs: ['-F', '-e', 'createSourceFile'],
  },
  {
    name: 'case-insensitive literal',
    req: { pattern: 'webglrenderer', mode: 'literal', caseMode: 'insensitive' },
    rgArgs: ['-F', '-i', '-e', 'webglrenderer'],
  },
  {
    name: 'regex with a literal part',
    req: { pattern: 'function\\s+\\w+Type\\(', mode: 'regex', caseMode: 'sensitive' },
    rgArgs: ['-e', 'function\\s+\\w+Type\\('],
  },
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
  {
    name: 'very common string',
    req: { pattern: 'return', mode: 'literal', caseMode: 'sensitive' },
    rgArgs: ['-F', '-e', 'return'],
  },
  {
    name: 'regex, no literal',
    req: { pattern: '\\b[A-Z][a-z]+Error\\b', mode: 'regex', caseMode: 'sensitive' },
    rgArgs: ['-e', '\\b[A-Z][a-z]+Error\\b'],
  },
];

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** BENCH_QUERY=<part of a name>: only the matching queries (a quick look at one row). */
const PICKED = QUERIES.filter((q) => !process.env.BENCH_QUERY || q.name.includes(process.env.BENCH_QUERY));
const ONLY = process.env.BENCH_ONLY;

const scanRequest = (q: Query) => ({
  ...q.req,
  maxResults: Number.MAX_SAFE_INTEGER,
  maxFileBytes: Number.MAX_SAFE_INTEGER,
});

async function runScanBench(dir: string) {
  const pool = nodeSearchPool();
  console.log(
    `\n== unindexed text search (issues 2, 19): Quarry scan on one thread and on the search pool (${pool.lanes} worker_threads + the coordinator) vs rg (default: ${RG_DEFAULT_THREADS} threads here) and rg -j1, same files`,
  );
  const ws = new Workspace([new NodeFsSource(dir)]);
  const setup = { ws, dir, pool, request: scanRequest, runs: RUNS };
  await searchRow({ ...setup, runs: 1 }, QUERIES[4]); // warm the page cache and start the threads
  const rows: string[][] = [
    [
      'query',
      'strategy',
      'matches',
      '1 thread ms',
      'pool ms',
      'first batch ms',
      'rg ms',
      'rg -j1 ms',
      'pool/rg',
      'pool/rg -j1',
      'same as rg',
      'pool = 1 thread',
    ],
  ];
  for (const q of PICKED) {
    const r = await searchRow(setup, q);
    rows.push([
      r.query,
      r.strategy,
      String(r.matches),
      ms(r.oneMs),
      ms(r.poolMs),
      ms(r.firstMs),
      ms(r.rgMs),
      ms(r.rg1Ms),
      times(r.poolMs / r.rgMs),
      times(r.poolMs / r.rg1Ms),
      r.sameAsRg,
      r.sameAsOne,
    ]);
  }
  printTable(rows);
  console.log(
    'ratio = Quarry pool time / ripgrep time (lower is better; target: every query <= 1.5x rg with its default threads); first batch = the first file of matches in walk order',
  );
  pool.dispose();
}

async function main() {
  // History (issue 18) builds its own 10,000-commit repository: no search corpus needed.
  if (ONLY === 'history') return runHistoryBench();
  // Blame (issue 18) builds its own 5,000-line, 1,000-commit repository.
  if (ONLY === 'blame') return runBlameBench();
  // Reopening a 4,000-file folder from its stored listing (issue 33): Chromium over the built app.
  if (ONLY === 'reopen') return runReopenBench();
  const corpus = buildCorpus(process.env.BENCH_CORPUS_MB ? Number(process.env.BENCH_CORPUS_MB) : undefined);
  console.log(
    `corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB in ${corpus.dir}; ${RUNS} runs per query (median)`,
  );
  const needsRg = !ONLY || ONLY === 'scan' || ONLY === 'index' || ONLY === 'nav';
  if (needsRg && !ensureRipgrep()) console.log('rg is not available: Quarry times only');
  if (!ONLY || ONLY === 'scan') await runScanBench(corpus.dir);
  if (!ONLY || ONLY === 'worker') await runWorkerBench(corpus.dir, PICKED, RUNS);
  if (!ONLY || ONLY === 'index') await runIndexBench(corpus.dir, corpus.bytes, PICKED, RUNS);
  if (!ONLY || ONLY === 'build') await buildBench(corpus.dir);
  if (!ONLY || ONLY === 'seed004') await runSeedBench(corpus.dir);
  if (!ONLY || ONLY === 'clone') await runCloneBench();
  if (!ONLY || ONLY === 'scale') await runScaleBench();
  if (!ONLY || ONLY === 'nav') await runNavBench(corpus.dir);
  if (!ONLY || ONLY === 'query') await runQueryBench(corpus.dir, nodeSearchPool(), RUNS);
  if (!ONLY || ONLY === 'explore') {
    await runExploreBench(corpus.dir);
    await runGraphViewBench();
  }
  if (!ONLY) await runHistoryBench();
  if (!ONLY) await runBlameBench();
  if (!ONLY || ONLY === 'semantic') {
    const part = process.env.BENCH_SEMANTIC;
    if (!part) {
      await runQualityBench();
      await runEmbedBench();
    }
    if (part !== 'browser') await runFirstAnswerBench();
    if (part !== 'first') await runBrowserFirstAnswerBench();
  }
}

await main();

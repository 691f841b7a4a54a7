/**
 * Issue 35's speed rows. (a) A filter never makes a query slower than without it: the same
 * pattern with and without file:, -file:, lang: and a glob, planned by core/query and searched
 * on the corpus (one thread and the pool), each beside ripgrep given the same filter as a user
 * would write it (-g / -t); the answers are checked against rg's (path, line) pairs. (b) A
 * boolean query (AND / NOT) beside the plain term. (c) History: the 10,000-commit repository's
 * stored log searched by type:commit (first results, target < 200 ms) and the newest 1,000
 * commits by type:diff beside git log -G / -S (bench/history/search-bench.ts).
 */
import { NodeFsSource } from '../src/adapters/node/fs';
import type { SearchPool } from '../src/core/grep/pool';
import { searchWorkspace } from '../src/core/grep/search';
import type { GrepRequest } from '../src/core/grep/types';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { parseQuery } from '../src/core/query/parse';
import { planQuery } from '../src/core/query/plan';
import { Workspace } from '../src/core/source/workspace';
import { ensureRipgrep, median, printTable, rgPairs, rgTimed, sameSets } from './common';
import { runHistorySearchBench } from './history/search-bench';
import { ms, times } from './search-rows';

interface FilterCase {
  /** The query as typed in the box. */
  query: string;
  /** The same search for ripgrep. */
  rg: string[];
}

const BASE = 'createElement';
const CASES: FilterCase[] = [
  { query: BASE, rg: ['-F', '-e', BASE] },
  { query: `${BASE} lang:typescript`, rg: ['-F', '-e', BASE, '-g', '*.{ts,mts,cts,tsx}'] },
  { query: `${BASE} -file:test`, rg: ['-F', '-e', BASE, '-g', '!*test*'] },
  { query: `${BASE} file:*.js`, rg: ['-F', '-e', BASE, '-g', '*.js'] },
  { query: `${BASE} file:\\.d\\.ts$`, rg: ['-F', '-e', BASE, '-g', '*.d.ts'] },
  {
    query: `${BASE} lang:javascript -file:min`,
    rg: ['-F', '-e', BASE, '-g', '*.{js,mjs,cjs,jsx}', '-g', '!*min*'],
  },
];
/** [query, first term, second term, operator]: checked against rg's lines of each term, combined per file. */
const BOOLEANS: [string, string, string, 'AND' | 'NOT' | 'OR' | null][] = [
  ['readFile', 'readFile', '', null],
  ['readFile AND writeFile', 'readFile', 'writeFile', 'AND'],
  ['readFile NOT writeFile', 'readFile', 'writeFile', 'NOT'],
  ['readFile OR writeFile', 'readFile', 'writeFile', 'OR'],
];

function requestOf(query: string): GrepRequest {
  const plan = planQuery(parseQuery(query), { caseSensitive: true, defaultCount: Number.MAX_SAFE_INTEGER });
  if (plan.type !== 'file' || !plan.request) throw new Error(`not a text query: ${query}`);
  return { ...plan.request, maxResults: Number.MAX_SAFE_INTEGER, maxFileBytes: Number.MAX_SAFE_INTEGER };
}

async function timed(ws: Workspace, req: GrepRequest, pool: SearchPool | undefined) {
  const pairs: string[] = [];
  const t = performance.now();
  await searchWorkspace(ws, req, (f) => void f.matches.forEach((m) => pairs.push(`${m.path}:${m.line}`)), {
    yielder: NEVER_YIELD,
    pool,
  });
  return { ms: performance.now() - t, pairs };
}

/** `runs` timed runs on one thread and on the pool (each followed by `between`, e.g. rg's run); medians and the last answer. */
async function timeRuns(ws: Workspace, req: GrepRequest, pool: SearchPool, runs: number, between = () => {}) {
  const one: number[] = [];
  const many: number[] = [];
  let pairs: string[] = [];
  for (let i = 0; i < runs; i++) {
    one.push((await timed(ws, req, undefined)).ms);
    const p = await timed(ws, req, pool);
    many.push(p.ms);
    pairs = p.pairs;
    between();
  }
  return { oneMs: median(one), poolMs: median(many), pairs };
}

async function rows(ws: Workspace, dir: string, pool: SearchPool, runs: number, cases: FilterCase[]) {
  const out: string[][] = [
    ['query', 'matches', '1 thread ms', 'pool ms', 'rg ms (same filter)', 'pool vs unfiltered', 'same as rg'],
  ];
  let unfiltered = NaN;
  await timed(ws, requestOf(cases[0].query), pool); // warm the page cache and start the threads
  for (const c of cases) {
    const req = requestOf(c.query);
    const rg: number[] = [];
    const { oneMs, poolMs, pairs } = await timeRuns(ws, req, pool, runs, () => {
      const r = rgTimed(dir, { name: c.query, req, rgArgs: c.rg }, 'default');
      if (r !== null) rg.push(r);
    });
    const theirs = rgPairs(dir, { name: c.query, req, rgArgs: c.rg });
    if (c === cases[0]) unfiltered = poolMs;
    out.push([
      c.query,
      String(pairs.length),
      ms(oneMs),
      ms(poolMs),
      rg.length ? ms(median(rg)) : '-',
      c === cases[0] ? '-' : times(poolMs / unfiltered),
      theirs ? sameSets(pairs, theirs) : '-',
    ]);
  }
  return out;
}

/** rg's (path, line) pairs of one literal term. */
function rgLines(dir: string, term: string): string[] {
  const req: GrepRequest = { pattern: term, mode: 'literal', caseMode: 'sensitive' };
  return rgPairs(dir, { name: term, req, rgArgs: ['-F', '-e', term] }) ?? [];
}

/** What a boolean query lists, from rg's lines of each term: files kept by the operator, lines of the shown terms. */
function rgBoolean(dir: string, a: string, b: string, op: 'AND' | 'NOT' | 'OR' | null): string[] {
  const la = rgLines(dir, a);
  if (!op) return la;
  const lb = rgLines(dir, b);
  const fileOf = (pair: string) => pair.slice(0, pair.lastIndexOf(':'));
  const fa = new Set(la.map(fileOf));
  const fb = new Set(lb.map(fileOf));
  if (op === 'OR') return [...new Set([...la, ...lb])];
  if (op === 'NOT') return la.filter((p) => !fb.has(fileOf(p)));
  return [...new Set([...la, ...lb])].filter((p) => fa.has(fileOf(p)) && fb.has(fileOf(p)));
}

async function booleanRows(ws: Workspace, dir: string, pool: SearchPool, runs: number) {
  const out: string[][] = [
    ['query', 'matches', '1 thread ms', 'pool ms', 'vs first term', 'same as rg per term, combined by file'],
  ];
  let base = NaN;
  for (const [query, a, b, op] of BOOLEANS) {
    const { oneMs, poolMs, pairs } = await timeRuns(ws, requestOf(query), pool, runs);
    if (!op) base = poolMs;
    out.push([
      query,
      String(pairs.length),
      ms(oneMs),
      ms(poolMs),
      op ? times(poolMs / base) : '-',
      sameSets(pairs, rgBoolean(dir, a, b, op)),
    ]);
  }
  return out;
}

export async function runQueryBench(dir: string, pool: SearchPool, runs: number): Promise<void> {
  ensureRipgrep();
  const ws = new Workspace([new NodeFsSource(dir)]);
  console.log(
    '\n== query language (issue 35): a filter never makes a query slower (pool ms / unfiltered pool ms; < 1.00x is faster)',
  );
  printTable(await rows(ws, dir, pool, runs, CASES));
  console.log(
    '\n== query language: a boolean query beside its first term (one search for the alternation, files kept by the expression)',
  );
  printTable(await booleanRows(ws, dir, pool, runs));
  await runHistorySearchBench();
}

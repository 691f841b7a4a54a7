/**
 * One row per query for the text-search tables (issue 19): Quarry on one thread and on the
 * worker pool (worker_threads, as the CLI runs it), ripgrep with its default threads and -j1.
 * Timed runs only count: Quarry's sink counts lines, rg's output goes to /dev/null. The
 * answers are compared in separate untimed runs: the pool's batches and summary against one
 * thread's (identical), and the pool's (path, line) pairs against rg's.
 */
import type { SearchPool } from '../src/core/grep/pool';
import type { SearchPrefilter } from '../src/core/grep/prefilter';
import { searchWorkspace } from '../src/core/grep/search';
import type { GrepFileResult, GrepRequest } from '../src/core/grep/types';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import type { Workspace } from '../src/core/source/workspace';
import { median, rgPairs, rgTimed, sameSets, type Query } from './common';

export interface SearchRow {
  query: string;
  strategy: string;
  matches: number;
  oneMs: number;
  poolMs: number;
  /** Time to the first file's matches in walk order through the pool (NaN: no match). */
  firstMs: number;
  rgMs: number;
  rg1Ms: number;
  sameAsRg: string;
  sameAsOne: string;
}

export interface RowSetup {
  ws: Workspace;
  dir: string;
  pool: SearchPool;
  prefilter?: () => SearchPrefilter;
  request: (q: Query) => GrepRequest;
  rgExtra?: string[];
  runs: number;
  /**
   * The request delivers only its first lines and counts the rest (the app's first screen): the
   * answer is checked as rg's count and a part of rg's lines, not as the same set.
   */
  firstLines?: boolean;
}

async function timed(s: RowSetup, q: Query, pool: SearchPool | undefined) {
  let count = 0;
  let first = NaN;
  const t = performance.now();
  const summary = await searchWorkspace(
    s.ws,
    s.request(q),
    (r) => {
      if (Number.isNaN(first)) first = performance.now() - t;
      count += r.matches.length;
    },
    { yielder: NEVER_YIELD, prefilter: s.prefilter?.(), pool },
  );
  return { ms: performance.now() - t, first, count, summary };
}

async function answer(s: RowSetup, q: Query, pool: SearchPool | undefined) {
  const files: GrepFileResult[] = [];
  const summary = await searchWorkspace(s.ws, s.request(q), (r) => void files.push(r), {
    yielder: NEVER_YIELD,
    prefilter: s.prefilter?.(),
    pool,
  });
  return { files, summary: { ...summary, elapsedMs: 0 } };
}

export async function searchRow(s: RowSetup, q: Query): Promise<SearchRow> {
  const one: number[] = [];
  const many: number[] = [];
  const firsts: number[] = [];
  const rg: number[] = [];
  const rg1: number[] = [];
  let count = 0;
  let strategy = '';
  for (let i = 0; i < s.runs; i++) {
    one.push((await timed(s, q, undefined)).ms);
    const p = await timed(s, q, s.pool);
    many.push(p.ms);
    firsts.push(p.first);
    count = p.count;
    strategy = p.summary.strategy;
    const d = rgTimed(s.dir, q, 'default', s.rgExtra);
    if (d !== null) rg.push(d);
    const j = rgTimed(s.dir, q, 1, s.rgExtra);
    if (j !== null) rg1.push(j);
  }
  const a = await answer(s, q, undefined);
  const b = await answer(s, q, s.pool);
  const sameAsOne = JSON.stringify(a) === JSON.stringify(b) ? 'yes' : 'NO';
  const theirs = rgPairs(s.dir, q, s.rgExtra);
  const ours = b.files.flatMap((f) => f.matches.map((m) => `${m.path}:${m.line}`));
  const sameAsRg = !theirs
    ? '-'
    : s.firstLines
      ? firstLinesOf(ours, b.summary.total, theirs)
      : sameSets(ours, theirs);
  return {
    query: q.name,
    strategy,
    matches: count,
    oneMs: median(one),
    poolMs: median(many),
    firstMs: firsts.some(Number.isNaN) ? NaN : median(firsts),
    rgMs: rg.length ? median(rg) : NaN,
    rg1Ms: rg1.length ? median(rg1) : NaN,
    sameAsRg,
    sameAsOne,
  };
}

/** A first-lines answer against rg's: the same count, and every delivered line one of rg's. */
function firstLinesOf(ours: string[], total: number, theirs: string[]): string {
  const all = new Set(theirs);
  const stray = ours.filter((x) => !all.has(x));
  if (total === theirs.length && !stray.length) return `yes (count; ${ours.length} lines)`;
  return `NO (count ${total} vs rg ${theirs.length}; ${stray.length} lines not rg's)`;
}

export const ms = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(1));
export const times = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(2)}x`);

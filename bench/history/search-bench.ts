/**
 * History search (issue 35) on the history bench's 10,000-commit repository (git fast-import,
 * then gc: one pack with deltas), in Node:
 *   - the log read through history-log.ts (what the search runs over);
 *   - type:commit: first results (50 hits) and the full search over the log, vs
 *     `git log --grep/--author` on the same repository;
 *   - type:diff over the newest 1,000 commits (a fresh object store per run): lines (-G) and
 *     pickaxe count (-S), vs `git log --no-renames -G/-S <oid>..HEAD` (ratio = git / ours).
 * Every commit list is compared with git's (printed; the bench throws after the table if one
 * differs). Not a test: nothing asserts on time.
 *
 *   npx tsx -e "import('./bench/history/search-bench.ts').then(m=>m.runHistorySearchBench())"
 *
 * BENCH_RUNS (default 3) runs per row; BENCH_HISTORY_COMMITS (default 10,000) the repository's size;
 * BENCH_DIFF_COMMITS (default 1,000) the commits the diff search covers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { searchDiffs, type DiffSearchMode } from '../../src/adapters/git/diff-search';
import { readHistoryLog } from '../../src/adapters/git/history-log';
import { GitObjectStore } from '../../src/adapters/git/objects';
import {
  literalMatcher,
  regexMatcher,
  searchCommits,
  type CommitQuery,
  type TextMatcher,
} from '../../src/core/git/commit-search';
import type { LogCommit } from '../../src/core/git/types';
import { median, printTable } from '../common';
import { historyRepo } from './history-bench';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const COMMITS = Number(process.env.BENCH_HISTORY_COMMITS ?? 10_000);
const DIFF_COMMITS = Number(process.env.BENCH_DIFF_COMMITS ?? 1_000);

const gitOids = (dir: string, args: string[]): string[] =>
  execFileSync('git', ['log', '--format=%H', ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
  })
    .split('\n')
    .filter(Boolean);

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

/** Median ms of `fn` over RUNS runs, and its last value. */
async function timeRuns<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    value = await fn();
    times.push(performance.now() - t);
  }
  return [median(times), value as T];
}

async function readLog(dir: string): Promise<{ log: LogCommit[]; ms: number }> {
  const gitdir = path.join(dir, '.git');
  const log: LogCommit[] = [];
  const t = performance.now();
  await readHistoryLog(fs, new GitObjectStore(fs, gitdir), {
    dir,
    gitdir,
    onPart: (p) => {
      if (p.kind !== 'commits') return;
      if (p.reset) log.length = 0;
      for (const c of p.commits) log.push(c);
    },
  });
  return { log, ms: performance.now() - t };
}

interface Row {
  cells: string[];
  same: boolean;
}

function sameList(ours: string[], git: string[]): string {
  if (ours.length === git.length && ours.every((o, i) => o === git[i])) return `yes (${ours.length})`;
  const g = new Set(git);
  const o = new Set(ours);
  return `NO: ${ours.length} vs git ${git.length} (+${ours.filter((x) => !g.has(x)).length} ours-only, +${git.filter((x) => !o.has(x)).length} git-only)`;
}

async function commitRows(dir: string, log: LogCommit[]): Promise<Row[]> {
  const cases: Array<{ name: string; query: CommitQuery; git: string[] }> = [
    {
      name: 'literal -i "module 42"',
      query: { match: literalMatcher('module 42', false) },
      git: ['-i', '-F', '--grep=module 42'],
    },
    {
      name: 'regex "change [0-9]+7 was"',
      query: { match: regexMatcher('change [0-9]+7 was') },
      git: ['-E', '--grep=change [0-9]+7 was'],
    },
    {
      name: 'author "Dev 3" + "^Change 9"',
      query: { author: literalMatcher('Dev 3'), match: regexMatcher('^Change 9') },
      git: ['-E', '--author=Dev 3', '--grep=^Change 9'],
    },
    {
      name: 'no match',
      query: { match: literalMatcher('no such text') },
      git: ['-F', '--grep=no such text'],
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    const [first] = await timeRuns(() => searchCommits(log, c.query, { limit: 50, countAll: false }));
    const [full, result] = await timeRuns(() => searchCommits(log, c.query));
    const [gitMs, git] = await timeRuns(() => gitOids(dir, c.git));
    const same = sameList(
      result.hits.map((h) => h.commit.oid),
      git,
    );
    rows.push({
      cells: [`type:commit ${c.name}`, ms(first), ms(full), ms(gitMs), (gitMs / full).toFixed(1), same],
      same: same.startsWith('yes'),
    });
  }
  return rows;
}

async function diffRows(dir: string, log: LogCommit[]): Promise<Row[]> {
  const gitdir = path.join(dir, '.git');
  const commits = log.slice(0, DIFF_COMMITS);
  const range = log.length > DIFF_COMMITS ? [`${log[DIFF_COMMITS].oid}..HEAD`] : [];
  const cases: Array<{ name: string; matcher: TextMatcher; mode: DiffSearchMode; git: string[] }> = [
    {
      name: '-G "value[0-9]*77 ="',
      matcher: regexMatcher('value[0-9]*77 ='),
      mode: 'lines',
      git: ['-Gvalue[0-9]*77 ='],
    },
    {
      name: '-i -G "VALUE9[0-9]5[0-9] "',
      matcher: regexMatcher('VALUE9[0-9]5[0-9] ', false),
      mode: 'lines',
      git: ['-i', '-GVALUE9[0-9]5[0-9] '],
    },
    { name: '-S "value91"', matcher: literalMatcher('value91'), mode: 'count', git: ['-Svalue91'] },
    {
      name: '-S "= 99[0-9]+;" --pickaxe-regex',
      matcher: regexMatcher('= 99[0-9]+;'),
      mode: 'count',
      git: ['-S= 99[0-9]+;', '--pickaxe-regex'],
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    let first = 0;
    const firsts: number[] = [];
    const [ours, result] = await timeRuns(async () => {
      const t = performance.now();
      first = 0;
      const r = await searchDiffs({
        objects: new GitObjectStore(fs, gitdir),
        commits,
        matcher: c.matcher,
        mode: c.mode,
        onHit: () => (first ||= performance.now() - t),
      });
      firsts.push(first);
      return r;
    });
    const [gitMs, git] = await timeRuns(() => gitOids(dir, ['--no-renames', ...c.git, ...range]));
    const same = sameList(
      result.hits.map((h) => h.commit.oid),
      git,
    );
    rows.push({
      cells: [
        `type:diff ${c.name}`,
        ms(median(firsts)),
        ms(ours),
        ms(gitMs),
        (gitMs / ours).toFixed(2),
        same,
      ],
      same: same.startsWith('yes'),
    });
  }
  return rows;
}

export async function runHistorySearchBench(): Promise<void> {
  console.log(
    `\n== History search: ${COMMITS.toLocaleString('en-US')} commits, diffs over the newest ${DIFF_COMMITS.toLocaleString('en-US')} (${RUNS} runs, median) ==`,
  );
  const dir = historyRepo(COMMITS);
  const { log, ms: logMs } = await readLog(dir);
  const gitLog = gitOids(dir, []);
  console.log(
    `log read through history-log.ts: ${log.length} commits in ${ms(logMs)} ms (same as git log: ${sameList(
      log.map((c) => c.oid),
      gitLog,
    )})`,
  );
  const rows = [...(await commitRows(dir, log)), ...(await diffRows(dir, log))];
  printTable([
    ['search', 'first ms', 'full ms', 'git ms', 'git/ours', 'same commits as git'],
    ...rows.map((r) => r.cells),
  ]);
  const bad = rows.filter((r) => !r.same);
  if (bad.length)
    throw new Error(`history search differs from git on: ${bad.map((r) => r.cells[0]).join('; ')}`);
}

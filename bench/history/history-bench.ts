/**
 * History first paint (issue 18) on a 10,000-commit repository built with `git fast-import`
 * (then `git gc`: one pack with deltas and a commit-graph, as a real clone has), in Node:
 *   - the log through the engine API (EngineClient over createEngineApi, the folder opened
 *     through the File System Access adapter over node fs): time to the first batch (what the
 *     view paints first) and to the whole log, cold (nothing stored) and cached (the stored
 *     log, HEAD unchanged), and after one new commit (incremental);
 *   - the same log from the adapter over node fs directly;
 *   - baseline: `git log --format=...` of the same repository (ratio = ours / git's);
 *   - the previous History path (isomorphic-git log + a tree diff per commit, 100 commits, and
 *     statusMatrix), and history() as explore and the CLI read it now;
 *   - uncommitted changes: the index-stat comparison vs `git status --porcelain` vs
 *     isomorphic-git's statusMatrix (which hashes every file).
 * The commit lists are checked against git's. Not a test: nothing asserts on time.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import '../../src/adapters/git/node-shims.testutil';
import * as git from 'isomorphic-git';
import { diffTrees, history } from '../../src/adapters/git/history';
import { readHistoryLog } from '../../src/adapters/git/history-log';
import { nodeHandle } from '../../src/adapters/git/node-handle.testutil';
import { GitObjectStore } from '../../src/adapters/git/objects';
import { fastImportStream } from '../../src/adapters/git/scratch-repo.testutil';
import { worktreeStatus } from '../../src/adapters/git/worktree-status';
import { MemoryIndexStore } from '../../src/core/rank/persist';
import { EngineClient, inThreadTransport } from '../../src/worker/client';
import { createEngineApi } from '../../src/worker/engine';
import type { RecentRepo } from '../../src/adapters/browser/recent';
import { median, printTable } from '../common';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const COMMITS = Number(process.env.BENCH_HISTORY_COMMITS ?? 10_000);

function gitRun(dir: string, args: string[], input?: Buffer): string {
  return execFileSync('git', args, {
    cwd: dir,
    input,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'b@x',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'b@x',
    },
  });
}

/** The repository, built once and kept under .bench (a stamp marks it complete). */
export function historyRepo(commits = COMMITS): string {
  const dir = path.resolve(`.bench/history-${commits}`);
  const stamp = `${dir}.complete`;
  if (fs.existsSync(stamp)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  gitRun(dir, ['init', '-q', '-b', 'main']);
  const t = performance.now();
  gitRun(dir, ['fast-import', '--quiet'], fastImportStream(commits, { files: 400 }));
  gitRun(dir, ['checkout', '-q', '-f', 'main']);
  gitRun(dir, ['gc', '-q']);
  console.log(
    `built ${commits} commits with git fast-import + gc in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  fs.writeFileSync(stamp, '');
  return dir;
}

const timed = async <T>(fn: () => Promise<T> | T): Promise<[number, T]> => {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
};

function folderHandles() {
  const recent: RecentRepo[] = [];
  return {
    remember: async (h: FileSystemDirectoryHandle) =>
      recent[0] ?? (recent.push({ id: 'bench', name: h.name, handle: h, openedAt: Date.now() }), recent[0]),
    list: async () => recent,
    forget: async () => undefined,
  };
}

/**
 * One run of the history job through the engine API: ms to the first commits part, to the last
 * one (the whole log on screen), and to the uncommitted changes (read beside the log).
 */
async function engineRun(client: EngineClient): Promise<{
  first: number;
  all: number;
  oids: string[];
  refresh: string;
  uncommittedMs: number;
  jobMs: number;
}> {
  let first = 0;
  let last = 0;
  let uncommittedMs = 0;
  let list: string[] = [];
  const t = performance.now();
  const end = await client.historyLog({}).onBatch((items) =>
    items.forEach((p) => {
      if (p.kind === 'commits') {
        last = performance.now() - t;
        if (!first) first = last;
        list = p.reset ? p.commits.map((c) => c.oid) : list.concat(p.commits.map((c) => c.oid));
      }
      if (p.kind === 'uncommitted') uncommittedMs = performance.now() - t;
    }),
  ).done;
  return {
    first,
    all: last,
    oids: list,
    refresh: String(end.stats.refresh),
    uncommittedMs,
    jobMs: performance.now() - t,
  };
}

export async function runHistoryBench(): Promise<void> {
  console.log(
    `\n== History first paint: ${COMMITS.toLocaleString('en-US')} commits (${RUNS} runs, median) ==`,
  );
  const dir = historyRepo();
  const gitdir = path.join(dir, '.git');
  await import('../../src/adapters/git'); // the worker loads the adapter on first use: not part of the figures

  // baseline: git log of the same repository, with the fields History shows
  const format = '--format=%H%x00%P%x00%an%x00%ae%x00%at%x00%ct%x00%B%x01';
  const gitLog: number[] = [];
  let gitOids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [ms, out] = await timed(() => gitRun(dir, ['log', format]));
    gitLog.push(ms);
    gitOids = out
      .split('\x01')
      .map((s) => s.trim().split('\x00')[0])
      .filter(Boolean);
  }
  const gitFirst: number[] = [];
  for (let i = 0; i < RUNS; i++)
    gitFirst.push((await timed(() => gitRun(dir, ['log', '-n', '50', format])))[0]);

  // the adapter over node fs
  const direct: number[] = [];
  const directFirst: number[] = [];
  let directOids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    let first = 0;
    const oids: string[] = [];
    const t = performance.now();
    await readHistoryLog(fs, new GitObjectStore(fs, gitdir), {
      dir,
      gitdir,
      onPart: (p) => {
        if (p.kind !== 'commits') return;
        if (!first) first = performance.now() - t;
        for (const c of p.commits) oids.push(c.oid);
      },
    });
    direct.push(performance.now() - t);
    directFirst.push(first);
    directOids = oids;
  }

  // through the engine API: cold, cached, then after a new commit
  const cold: Array<Awaited<ReturnType<typeof engineRun>>> = [];
  const cached: Array<Awaited<ReturnType<typeof engineRun>>> = [];
  for (let i = 0; i < RUNS; i++) {
    const store = new MemoryIndexStore();
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ indexStore: store, folderHandles: folderHandles() })),
    );
    await client.openRepo({
      kind: 'handle',
      name: 'history-bench',
      handle: nodeHandle(dir, 'history-bench') as unknown as FileSystemDirectoryHandle,
    }).done;
    cold.push(await engineRun(client));
    cached.push(await engineRun(client));
    if (i === RUNS - 1)
      console.log(
        `stored log: ${(store.data.get('history:recent:bench')!.length / 1024 / 1024).toFixed(1)} MiB`,
      );
    client.dispose();
  }

  // incremental: one commit on top (in a copy, so the bench repository stays as built)
  const copy = `${dir}-incremental`;
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(dir, copy, { recursive: true, preserveTimestamps: true });
  const incStore = new MemoryIndexStore();
  const incClient = new EngineClient(() =>
    inThreadTransport(createEngineApi({ indexStore: incStore, folderHandles: folderHandles() })),
  );
  await incClient.openRepo({
    kind: 'handle',
    name: 'history-bench',
    handle: nodeHandle(copy, 'history-bench') as unknown as FileSystemDirectoryHandle,
  }).done;
  await engineRun(incClient);
  fs.writeFileSync(path.join(copy, 'NEW.md'), 'new\n');
  gitRun(copy, ['add', 'NEW.md']);
  gitRun(copy, ['commit', '-q', '-m', 'One more']);
  const incremental = await engineRun(incClient);
  incClient.dispose();
  fs.rmSync(copy, { recursive: true, force: true });

  // the previous History, as it was: isomorphic-git log + a tree diff per commit (100 commits) + statusMatrix
  const [previousMs] = await timed(async () => {
    const cache = {};
    const log = await git.log({ fs, dir, depth: 101, cache });
    for (const entry of log.slice(0, 100)) {
      const parent = entry.commit.parent[0] ?? null;
      if (parent) await git.readCommit({ fs, dir, oid: parent, cache });
      await diffTrees(fs, dir, parent, entry.oid, { cache });
    }
    await git.statusMatrix({ fs, dir, cache });
  });
  // history() now (explore's git agent, the CLI): the same 100 commits with changed files + uncommitted
  const [historyMs] = await timed(() => history(fs, dir, { depth: 100, includeUncommitted: true }));

  // uncommitted changes: edit a few files, then ours vs git status vs statusMatrix
  const tracked = gitRun(dir, ['ls-files']).trim().split('\n');
  const edited = tracked.slice(0, 5);
  const saved = edited.map((p) => fs.readFileSync(path.join(dir, p)));
  edited.forEach((p) => fs.appendFileSync(path.join(dir, p), '// edited\n'));
  const head = gitRun(dir, ['rev-parse', 'HEAD']).trim();
  const ours: number[] = [];
  let oursFiles = 0;
  let hashed = 0;
  for (let i = 0; i < RUNS; i++) {
    const [ms, st] = await timed(() =>
      worktreeStatus(fs, new GitObjectStore(fs, gitdir), { dir, gitdir, head }),
    );
    ours.push(ms);
    oursFiles = st.files.length;
    hashed = st.hashed;
  }
  const gitStatus: number[] = [];
  for (let i = 0; i < RUNS; i++)
    gitStatus.push((await timed(() => gitRun(dir, ['--no-optional-locks', 'status', '--porcelain'])))[0]);
  const [matrixMs] = await timed(() => git.statusMatrix({ fs, dir }));
  edited.forEach((p, i) => fs.writeFileSync(path.join(dir, p), saved[i]));
  gitRun(dir, ['update-index', '-q', '--refresh']);

  const same = (a: string[]) =>
    a.length === gitOids.length && a.every((o, i) => o === gitOids[i])
      ? 'yes'
      : `NO (${a.length} vs ${gitOids.length})`;
  const m = (xs: number[]) => median(xs);
  const f = (ms: number) => ms.toFixed(1);
  const x = (ms: number, base: number) => `${(ms / base).toFixed(1)}x`;
  printTable([
    ['measure', 'Quarry ms', 'git ms', 'ratio', 'same commits'],
    [
      'first batch (50), engine, cold',
      f(m(cold.map((r) => r.first))),
      f(m(gitFirst)),
      x(m(cold.map((r) => r.first)), m(gitFirst)),
      '-',
    ],
    [
      'whole log, engine, cold',
      f(m(cold.map((r) => r.all))),
      f(m(gitLog)),
      x(m(cold.map((r) => r.all)), m(gitLog)),
      same(cold[0].oids),
    ],
    [
      'first batch, engine, cached',
      f(m(cached.map((r) => r.first))),
      f(m(gitFirst)),
      x(m(cached.map((r) => r.first)), m(gitFirst)),
      '-',
    ],
    [
      'whole log, engine, cached',
      f(m(cached.map((r) => r.all))),
      f(m(gitLog)),
      x(m(cached.map((r) => r.all)), m(gitLog)),
      `${same(cached[0].oids)} (${cached[0].refresh})`,
    ],
    [
      'whole log, engine, 1 new commit',
      f(incremental.all),
      f(m(gitLog)),
      x(incremental.all, m(gitLog)),
      `${incremental.refresh}, ${incremental.oids.length} commits`,
    ],
    [
      'first batch, adapter over node fs',
      f(m(directFirst)),
      f(m(gitFirst)),
      x(m(directFirst), m(gitFirst)),
      '-',
    ],
    [
      'whole log, adapter over node fs',
      f(m(direct)),
      f(m(gitLog)),
      x(m(direct), m(gitLog)),
      same(directOids),
    ],
    [
      'previous History (100 commits + diffs + statusMatrix)',
      f(previousMs),
      f(m(gitFirst)),
      x(previousMs, m(gitFirst)),
      '-',
    ],
    [
      'history() now (100 commits + diffs + uncommitted)',
      f(historyMs),
      f(m(gitFirst)),
      x(historyMs, m(gitFirst)),
      '-',
    ],
    [
      `uncommitted: index stat (${tracked.length} files, ${hashed} hashed)`,
      f(m(ours)),
      f(m(gitStatus)),
      x(m(ours), m(gitStatus)),
      `${oursFiles} changed`,
    ],
    [
      'uncommitted: isomorphic-git statusMatrix',
      f(matrixMs),
      f(m(gitStatus)),
      x(matrixMs, m(gitStatus)),
      '-',
    ],
  ]);
  console.log(
    `uncommitted changes in the engine job: listed ${f(m(cold.map((r) => r.uncommittedMs)))} ms (cold) / ${f(m(cached.map((r) => r.uncommittedMs)))} ms (cached) after the job started, beside the log; the job ends at ${f(m(cold.map((r) => r.jobMs)))} / ${f(m(cached.map((r) => r.jobMs)))} ms`,
  );
  console.log(
    'ratio = Quarry / git (lower is better). Target: first batch well under 1 s; the stored log paints in tens of ms.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runHistoryBench();

/**
 * The streamed, stored log against `git log` (the peer): the walk's order on merges and equal
 * dates, a first read, a cache hit, an incremental refresh, rewrites, a damaged stored log,
 * a deepened shallow clone, an empty repository and a cancel.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { encodeIndex, MemoryIndexStore } from '../../core/rank/persist';
import {
  commitLoader,
  decodeLog,
  encodeLog,
  readHistoryLog,
  type HistoryLogPart,
  type HistoryLogResult,
} from './history-log';
import { walkLog, type LogCommit } from './log-walk';
import { GitObjectStore } from './objects';
import { bytes, looseFile, memoryFs, oidOf } from './pack-builder.testutil';
import { ScratchRepo } from './scratch-repo.testutil';
import { commitChanges } from './tree-diff';

const repos: ScratchRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.dispose();
});
function scratch(): ScratchRepo {
  const r = new ScratchRepo();
  repos.push(r);
  return r;
}

/** A history with merges, a criss-cross, and commits that share a timestamp. */
function branchy(repo: ScratchRepo): void {
  repo.commit('root', { 'a.txt': '1\n' });
  repo.git(['checkout', '-q', '-b', 'side']);
  repo.commit('side 1', { 'b.txt': '1\n' });
  repo.commit('side 2 (same time as main 1)', { 'b.txt': '2\n' }, 1_767_300_000);
  repo.git(['checkout', '-q', 'main']);
  repo.commit('main 1 (same time as side 2)', { 'a.txt': '2\n' }, 1_767_300_000);
  repo.git(['merge', '-q', '--no-ff', '-m', 'merge side', 'side'], { date: 1_767_300_060 });
  repo.git(['checkout', '-q', 'side']);
  repo.commit('side 3', { 'c.txt': '1\n' }, 1_767_300_120);
  repo.git(['merge', '-q', '--no-ff', '-m', 'criss-cross merge of main', 'main'], { date: 1_767_300_180 });
  repo.git(['checkout', '-q', 'main']);
  repo.commit('main 2', { 'a.txt': '3\n' }, 1_767_300_180);
  repo.git(['merge', '-q', '--no-ff', '-m', 'merge side again', 'side'], { date: 1_767_300_240 });
  repo.commit('old-dated commit', { 'd.txt': '1\n' }, 1_767_000_000);
}

/** git's view of each commit's fields. */
function gitCommits(
  repo: ScratchRepo,
): Array<Pick<LogCommit, 'oid' | 'parents' | 'author' | 'email' | 'date' | 'message'>> {
  return repo
    .git(['log', '--format=%H%x00%P%x00%an%x00%ae%x00%at%x00%B%x01'])
    .split('\x01')
    .map((s) => s.replace(/^\n/, ''))
    .filter(Boolean)
    .map((s) => {
      const [oid, parents, author, email, at, message] = s.split('\x00');
      return {
        oid,
        parents: parents ? parents.split(' ') : [],
        author,
        email,
        date: Number(at) * 1000,
        message: message.trimEnd(),
      };
    });
}

async function run(
  repo: ScratchRepo,
  store: MemoryIndexStore,
  extra: { signal?: AbortSignal } = {},
): Promise<{ end: HistoryLogResult; parts: HistoryLogPart[]; list: LogCommit[] }> {
  const parts: HistoryLogPart[] = [];
  let list: LogCommit[] = [];
  const objects = new GitObjectStore(fs, join(repo.dir, '.git'));
  const end = await readHistoryLog(fs, objects, {
    dir: repo.dir,
    gitdir: join(repo.dir, '.git'),
    store,
    storeKey: 'history:test',
    ...extra,
    onPart: (p) => {
      parts.push(p);
      if (p.kind === 'commits') list = p.reset ? [...p.commits] : [...list, ...p.commits];
    },
  });
  return { end, parts, list };
}

const oids = (list: Array<{ oid: string }>) => list.map((c) => c.oid);

describe('walkLog', () => {
  it('lists commits in git log order through merges, criss-crosses and equal dates', async () => {
    const repo = scratch();
    branchy(repo);
    const load = commitLoader(new GitObjectStore(fs, join(repo.dir, '.git')));
    const got: LogCommit[] = [];
    for await (const c of walkLog(repo.head(), load)) got.push(c);
    expect(oids(got)).toEqual(oids(repo.log()));
    expect(
      got.map(({ oid, parents, author, email, date, message }) => ({
        oid,
        parents,
        author,
        email,
        date,
        message,
      })),
    ).toEqual(gitCommits(repo));
    // from another start: the side branch
    const side: LogCommit[] = [];
    for await (const c of walkLog(repo.git(['rev-parse', 'side']).trim(), load)) side.push(c);
    expect(oids(side)).toEqual(oids(repo.log('side')));
  });

  it('a parent line that is no object id counts as a missing parent: the log goes on', async () => {
    const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    const files: Record<string, Uint8Array> = {
      [`/r/.git/objects/4b/${emptyTree.slice(2)}`]: looseFile('tree', new Uint8Array()),
    };
    const commit = (n: number, parents: string[], t: number) => {
      const oid = oidOf(n);
      const text = `tree ${emptyTree}\n${parents.map((p) => `parent ${p}\n`).join('')}author A <a@x> ${t} +0000\ncommitter A <a@x> ${t} +0000\n\nc${n}\n`;
      files[`/r/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`] = looseFile('commit', bytes(text));
      return oid;
    };
    const root = commit(1, [], 100);
    const bad = commit(2, [root, 'not an id'], 200); // a merge whose second parent is garbage
    const worse = commit(3, ['ZZZZ'], 250); // only a garbage parent
    const head = commit(4, [bad, worse], 300);
    const objects = new GitObjectStore(memoryFs(files), '/r/.git');
    const got: LogCommit[] = [];
    for await (const c of walkLog(head, commitLoader(objects))) got.push(c);
    expect(got.map((c) => [c.oid, c.parents, !!c.parentMissing])).toEqual([
      [head, [bad, worse], false],
      [worse, [], true],
      [bad, [root], true],
      [root, [], false],
    ]);
    // its changed files are unknown (not "everything added", as for a root commit)
    expect(await commitChanges(objects, worse)).toEqual({ files: [], parentMissing: true });
    // ids that reach the walk from elsewhere (a stored log) are checked too
    const stored: Record<string, LogCommit> = { [head]: { ...got[0], parents: ['bogus'] } };
    const fromMemory: LogCommit[] = [];
    for await (const c of walkLog(head, (oid) => stored[oid] ?? null)) fromMemory.push(c);
    expect(fromMemory.map((c) => !!c.parentMissing)).toEqual([true]);
  });

  it('a missing start commit is NotFound', async () => {
    const repo = scratch();
    repo.commit('one');
    const load = commitLoader(new GitObjectStore(fs, join(repo.dir, '.git')));
    const err = await rejectionOf(
      (async () => {
        for await (const c of walkLog('1'.repeat(40), load)) void c;
      })(),
    );
    expect(err.code).toBe('NotFound');
  });
});

describe('readHistoryLog', { timeout: 60_000 }, () => {
  it('a first read streams commits (the first part small and a reset) and stores the log', async () => {
    const repo = scratch();
    repo.fastImport(120);
    const store = new MemoryIndexStore();
    const { end, parts, list } = await run(repo, store);
    expect(end).toMatchObject({
      refresh: 'full',
      commits: 120,
      read: 120,
      head: repo.head(),
      branch: 'main',
      shallow: false,
    });
    const commitParts = parts.filter((p) => p.kind === 'commits');
    expect(commitParts.length).toBeGreaterThan(1);
    expect(commitParts[0]).toMatchObject({ reset: true, from: 'read' });
    expect(commitParts[0].kind === 'commits' && commitParts[0].commits.length).toBeLessThanOrEqual(50);
    expect(commitParts.slice(1).every((p) => p.kind === 'commits' && !p.reset)).toBe(true);
    expect(oids(list)).toEqual(oids(repo.log()));
    expect(store.data.has('history:test')).toBe(true);
  });

  it('a cache hit paints the stored log and reads nothing', async () => {
    const repo = scratch();
    branchy(repo);
    const store = new MemoryIndexStore();
    await run(repo, store);
    const { end, parts, list } = await run(repo, store);
    expect(end).toMatchObject({ refresh: 'cache_hit', read: 0 });
    expect(parts[0]).toMatchObject({ kind: 'head', head: repo.head() });
    expect(parts[1]).toMatchObject({ kind: 'commits', from: 'cache', reset: true });
    expect(list).toEqual((await run(repo, new MemoryIndexStore())).list);
  });

  it('after new commits only those are read, and the log equals git log (a merge of an old branch interleaves by date)', async () => {
    const repo = scratch();
    repo.commit('root', { 'a.txt': '1\n' }, 1_767_000_000);
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.commit('topic early', { 't.txt': '1\n' }, 1_767_000_100);
    repo.commit('topic later', { 't.txt': '2\n' }, 1_767_000_300);
    repo.git(['checkout', '-q', 'main']);
    repo.commit('main middle', { 'a.txt': '2\n' }, 1_767_000_200);
    const store = new MemoryIndexStore();
    await run(repo, store);
    repo.commit('main new', { 'a.txt': '3\n' }, 1_767_000_400);
    const one = await run(repo, store);
    expect(one.end).toMatchObject({ refresh: 'incremental', read: 1, commits: 3 });
    expect(oids(one.list)).toEqual(oids(repo.log()));
    repo.git(['merge', '-q', '--no-ff', '-m', 'merge topic', 'topic'], { date: 1_767_000_500 });
    const merged = await run(repo, store);
    expect(merged.end).toMatchObject({ refresh: 'incremental', read: 3, commits: 6 });
    expect(oids(merged.list)).toEqual(oids(repo.log()));
    // git puts 'topic later' (date 300) between 'main new' (400) and 'main middle' (200): not simply on top
    expect(merged.list.map((c) => c.message)).toEqual([
      'merge topic',
      'main new',
      'topic later',
      'main middle',
      'topic early',
      'root',
    ]);
  });

  it('a rewritten head (amend, reset) reuses what is still reachable; a history rewritten to its root is read in full', async () => {
    const repo = scratch();
    for (let i = 0; i < 6; i++) repo.commit(`c${i}`, { 'a.txt': `${i}\n` });
    const store = new MemoryIndexStore();
    await run(repo, store);
    repo.git(['commit', '-q', '--amend', '-m', 'c5 amended'], { date: 1_767_900_000 });
    const amended = await run(repo, store);
    expect(amended.end).toMatchObject({ refresh: 'rewritten', read: 1, commits: 6 });
    expect(oids(amended.list)).toEqual(oids(repo.log()));
    repo.git(['reset', '-q', '--hard', 'HEAD~3']);
    const reset = await run(repo, store);
    expect(reset.end).toMatchObject({ refresh: 'rewritten', read: 0, commits: 3 });
    expect(oids(reset.list)).toEqual(oids(repo.log()));
    // a new root: nothing stored is reachable, every commit is read
    repo.git(['checkout', '-q', '--orphan', 'fresh']);
    repo.commit('new root', { 'z.txt': 'z\n' });
    repo.commit('new second', { 'z.txt': 'zz\n' });
    repo.git(['branch', '-q', '-f', 'main', 'fresh']);
    repo.git(['checkout', '-q', 'main']);
    const rewritten = await run(repo, store);
    expect(rewritten.end).toMatchObject({ refresh: 'rewritten', read: 2, commits: 2 });
    expect(oids(rewritten.list)).toEqual(oids(repo.log()));
    expect(rewritten.parts.find((p) => p.kind === 'commits' && p.from === 'read')).toMatchObject({
      reset: true,
    });
  });

  it('a damaged, foreign or outdated stored log is ignored and the log read again', async () => {
    const repo = scratch();
    for (let i = 0; i < 5; i++) repo.commit(`c${i}`);
    const store = new MemoryIndexStore();
    await run(repo, store);
    const good = store.data.get('history:test')!;
    const flipped = good.slice();
    flipped[flipped.length - 7] ^= 0x20;
    const damaged: Array<[string, Uint8Array, RegExp]> = [
      ['a flipped byte', flipped, /not readable/],
      ['cut short', good.slice(0, good.length - 8), /not readable/],
      ['not a log', encodeIndex({ json: { something: 'else' }, sections: [] }), /not a history log/],
      [
        'a future version',
        encodeIndex({ json: { format: 'quarry-history-log', version: 99 }, sections: [] }),
        /format version 99/,
      ],
      ['garbage', new Uint8Array([1, 2, 3]), /not readable/],
    ];
    for (const [what, bytes, why] of damaged) {
      store.data.set('history:test', bytes);
      const { end, list } = await run(repo, store);
      expect(end.refresh, what).toBe('full');
      expect(end.cacheIgnored, what).toMatch(why);
      expect(oids(list), what).toEqual(oids(repo.log()));
      expect(decodeLog(store.data.get('history:test')!).head, what).toBe(repo.head()); // stored again, readable
    }
  });

  it('round-trips a log; a row with a bad oid or a miscount is refused', () => {
    const c: LogCommit = {
      oid: 'a'.repeat(40),
      parents: ['b'.repeat(40)],
      author: 'A',
      email: 'a@x',
      date: 1_000_000,
      committed: 1000,
      message: 'm\n\nbody',
      parentMissing: true,
    };
    expect(decodeLog(encodeLog({ head: c.oid, branch: 'main', shallow: [], commits: [c] })).commits).toEqual([
      c,
    ]);
    expect(() =>
      decodeLog(encodeLog({ head: c.oid, branch: null, shallow: [], commits: [{ ...c, oid: 'nope' }] })),
    ).toThrow(/malformed/);
    expect(() =>
      decodeLog(encodeLog({ head: 'b'.repeat(40), branch: null, shallow: [], commits: [c] })),
    ).toThrow(/first commit is not its head/);
  });

  it('a deepened shallow clone is read in full; its boundary is marked', async () => {
    const origin = scratch();
    for (let i = 0; i < 5; i++) origin.commit(`c${i}`, { 'a.txt': `${i}\n` });
    const clone = scratch();
    clone.dispose();
    fs.rmSync(clone.dir, { recursive: true, force: true });
    origin.git(['clone', '-q', '--depth', '2', `file://${origin.dir}`, clone.dir]);
    const store = new MemoryIndexStore();
    const shallow = await run(clone, store);
    expect(shallow.end).toMatchObject({ refresh: 'full', commits: 2, shallow: true });
    expect(shallow.list[1].parentMissing).toBe(true);
    clone.git(['fetch', '-q', '--deepen', '2']);
    const deeper = await run(clone, store);
    expect(deeper.end).toMatchObject({ refresh: 'full', commits: 4, shallow: true });
    expect(oids(deeper.list)).toEqual(oids(clone.log()));
  });

  it('an empty repository has no commits; a cancelled read rejects Cancelled and stores nothing', async () => {
    const empty = scratch();
    const store = new MemoryIndexStore();
    expect((await run(empty, store)).end).toMatchObject({ head: null, commits: 0, branch: 'main' });
    const repo = scratch();
    repo.fastImport(60);
    const controller = new AbortController();
    const parts: HistoryLogPart[] = [];
    const err = await rejectionOf(
      readHistoryLog(fs, new GitObjectStore(fs, join(repo.dir, '.git')), {
        dir: repo.dir,
        gitdir: join(repo.dir, '.git'),
        store,
        storeKey: 'history:cancel',
        signal: controller.signal,
        onPart: (p) => {
          parts.push(p);
          if (p.kind === 'commits') controller.abort();
        },
      }),
    );
    expect(err.code).toBe('Cancelled');
    expect(parts.some((p) => p.kind === 'commits')).toBe(true);
    expect(store.data.has('history:cancel')).toBe(false);
  });
});

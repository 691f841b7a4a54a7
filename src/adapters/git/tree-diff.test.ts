/** A commit's changed files against `git diff-tree` (the peer), and the tree flattened against `git ls-tree`. */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import type { ChangedFile } from './history';
import { GitObjectStore } from './objects';
import { bytes, looseFile, memoryFs, oidOf } from './pack-builder.testutil';
import { ScratchRepo } from './scratch-repo.testutil';
import { commitChanges, diffTreeIds, flattenCommitTree, parseTree } from './tree-diff';

const TYPE: Record<string, ChangedFile['type']> = { A: 'add', M: 'modify', D: 'delete', T: 'modify' };

function peer(repo: ScratchRepo, oid: string): ChangedFile[] {
  const parents = repo.git(['rev-list', '--parents', '-n', '1', oid]).trim().split(' ').slice(1);
  const args = parents.length
    ? ['diff-tree', '-r', '-z', '--no-renames', '--name-status', parents[0], oid]
    : ['diff-tree', '-r', '-z', '--root', '--no-renames', '--name-status', oid];
  const parts = repo.git(args).split('\0').filter(Boolean);
  if (!parents.length) parts.shift(); // --root prints the commit id first
  const out: ChangedFile[] = [];
  for (let i = 0; i < parts.length; i += 2) out.push({ path: parts[i + 1], type: TYPE[parts[i]] });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

describe('commitChanges against git diff-tree', { timeout: 60_000 }, () => {
  let repo: ScratchRepo;
  beforeAll(() => {
    repo = new ScratchRepo();
    repo.commit('root', { 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'dir/sub/c.txt': 'c\n', 'x-y.txt': 'x\n' });
    repo.commit('edit, add, delete', { 'a.txt': 'a2\n', 'dir/new.txt': 'n\n', 'dir/sub/c.txt': null });
    repo.commit('a file becomes a directory', {
      'x-y.txt': null,
      'dir/b.txt': null,
      'dir/b.txt/inner.txt': 'i\n',
    });
    fs.chmodSync(join(repo.dir, 'a.txt'), 0o755);
    repo.commit('mode change');
    repo.git(['checkout', '-q', '-b', 'side', 'HEAD~2']);
    repo.commit('side edit', { 'side.txt': 's\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['merge', '-q', '--no-ff', '-m', 'merge', 'side']);
    repo.commit('empty');
    repo.git(['gc', '-q']); // trees come out of a pack, some as deltas
  });
  afterAll(() => repo.dispose());

  it('lists what every commit changed against its first parent', async () => {
    const objects = new GitObjectStore(fs, join(repo.dir, '.git'));
    const commits = repo.log().map((c) => c.oid);
    expect(commits.length).toBe(7);
    for (const oid of commits)
      expect((await commitChanges(objects, oid)).files, oid).toEqual(peer(repo, oid));
    const root = commits[commits.length - 1];
    expect((await commitChanges(objects, root)).files.map((f) => f.type)).toEqual([
      'add',
      'add',
      'add',
      'add',
    ]);
  });

  it('flattens a tree to what git ls-tree lists', async () => {
    const objects = new GitObjectStore(fs, join(repo.dir, '.git'));
    const want = repo
      .git(['ls-tree', '-r', '-z', 'HEAD'])
      .split('\0')
      .filter(Boolean)
      .map((l) => {
        const [meta, path] = l.split('\t');
        return [path, meta.split(' ')[2]];
      });
    const got = await flattenCommitTree(objects, repo.head());
    expect([...got].map(([p, e]) => [p, e.oid]).sort()).toEqual(want.sort());
  });

  it('a shallow boundary says parentMissing; bad input is refused', async () => {
    const clone = new ScratchRepo();
    try {
      fs.rmSync(clone.dir, { recursive: true, force: true });
      repo.git(['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone.dir]);
      const objects = new GitObjectStore(fs, join(clone.dir, '.git'));
      expect(await commitChanges(objects, clone.head())).toEqual({ files: [], parentMissing: true });
      expect((await rejectionOf(commitChanges(objects, 'f'.repeat(40)))).code).toBe('NotFound');
      expect((await rejectionOf(commitChanges(objects, 'main'))).code).toBe('InvalidArgument');
      expect(() => parseTree(new Uint8Array([0x31, 0x30, 0x20, 0x61]))).toThrow(/malformed/);
    } finally {
      clone.dispose();
    }
  });
});

/**
 * A "git bomb" in memory: tree k names tree k-1 ten times, tree 0 names one blob ten times; the
 * commit's tree (level 8) stands for 10^9 paths in a few KB of objects.
 */
function gitBomb(levels = 8): { store: GitObjectStore; commit: string; root: string } {
  const files: Record<string, Uint8Array> = {};
  const put = (oid: string, type: string, content: Uint8Array) =>
    (files[`/bomb/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`] = looseFile(type, content));
  const raw = (oid: string) =>
    Uint8Array.from({ length: 20 }, (_, i) => parseInt(oid.slice(i * 2, i * 2 + 2), 16));
  const tree = (mode: string, prefix: string, child: string) => {
    const parts: number[] = [];
    for (let i = 0; i < 10; i++) parts.push(...bytes(`${mode} ${prefix}${i}\0`), ...raw(child));
    return new Uint8Array(parts);
  };
  put(oidOf(1), 'blob', bytes('boom\n'));
  let child = oidOf(1);
  for (let k = 0; k <= levels; k++) {
    const oid = oidOf(100 + k);
    put(oid, 'tree', k === 0 ? tree('100644', 'f', child) : tree('40000', 'd', child));
    child = oid;
  }
  const commit = oidOf(999);
  put(
    commit,
    'commit',
    bytes(`tree ${child}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\nbomb\n`),
  );
  return { store: new GitObjectStore(memoryFs(files), '/bomb/.git'), commit, root: child };
}

describe('trees that expand without end (a git bomb)', { timeout: 60_000 }, () => {
  it('flattening stops past the entry limit with a clear error, and honours a cancel', async () => {
    const { store, commit } = gitBomb();
    const small = await rejectionOf(flattenCommitTree(store, commit, { maxEntries: 500 }));
    expect(small.code).toBe('Unreadable');
    expect(small.reason).toBe('tooLarge');
    expect(small.message).toMatch(/has more than 500 entries/);
    const controller = new AbortController();
    controller.abort();
    expect((await rejectionOf(flattenCommitTree(store, commit, { signal: controller.signal }))).code).toBe(
      'Cancelled',
    );
    // a modest tree is read whole
    expect((await flattenCommitTree(gitBomb(2).store, gitBomb(2).commit)).size).toBe(1000);
  });

  it('a diff against the bomb (its commit a root) stops past the entry limit too', async () => {
    const { store, commit, root } = gitBomb();
    const err = await rejectionOf(commitChanges(store, commit, undefined, { maxEntries: 500 }));
    expect(err.reason).toBe('tooLarge');
    // the default limit (MAX_TREE_ENTRIES) applies without options
    expect((await rejectionOf(diffTreeIds(store, null, root))).message).toMatch(
      /Reading the changed files stopped: .*more than 1,000,000 entries/,
    );
    expect((await diffTreeIds(gitBomb(2).store, null, gitBomb(2).root)).length).toBe(1000);
  });
});

/** A commit's changed files against `git diff-tree` (the peer), and the tree flattened against `git ls-tree`. */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import type { ChangedFile } from './history';
import { GitObjectStore } from './objects';
import { ScratchRepo } from './scratch-repo.testutil';
import { commitChanges, flattenCommitTree, parseTree } from './tree-diff';

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
    repo.commit('a file becomes a directory', { 'x-y.txt': null, 'dir/b.txt': null, 'dir/b.txt/inner.txt': 'i\n' });
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
    for (const oid of commits) expect((await commitChanges(objects, oid)).files, oid).toEqual(peer(repo, oid));
    const root = commits[commits.length - 1];
    expect((await commitChanges(objects, root)).files.map((f) => f.type)).toEqual(['add', 'add', 'add', 'add']);
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

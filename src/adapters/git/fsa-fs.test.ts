import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultFixtures, FixtureRepo } from '../../../e2e/git-server/fixtures';
import { fsAccessGitFs, type DirHandleLike, type FileHandleLike } from './fsa-fs';
import { history } from './history';

/** A File System Access directory handle over a real directory (what the browser hands the UI). */
function nodeHandle(path: string, name = 'root'): DirHandleLike {
  const fail = (n: string) => Object.assign(new Error(n), { name: n });
  const fileHandle = (p: string, n: string): FileHandleLike => ({
    kind: 'file',
    name: n,
    async getFile() {
      const st = statSync(p);
      const data = readFileSync(p);
      return { size: st.size, lastModified: st.mtimeMs, arrayBuffer: async () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer };
    },
  });
  return {
    kind: 'directory',
    name,
    async getDirectoryHandle(n) {
      const st = statSync(join(path, n), { throwIfNoEntry: false });
      if (!st) throw fail('NotFoundError');
      if (!st.isDirectory()) throw fail('TypeMismatchError');
      return nodeHandle(join(path, n), n);
    },
    async getFileHandle(n) {
      const st = statSync(join(path, n), { throwIfNoEntry: false });
      if (!st) throw fail('NotFoundError');
      if (!st.isFile()) throw fail('TypeMismatchError');
      return fileHandle(join(path, n), n);
    },
    async *entries() {
      for (const n of readdirSync(path)) {
        const p = join(path, n);
        yield [n, statSync(p).isDirectory() ? nodeHandle(p, n) : fileHandle(p, n)] as [string, DirHandleLike | FileHandleLike];
      }
    },
  };
}

const root = mkdtempSync(join(tmpdir(), 'quarry-fsa-git-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('history over a File System Access folder with .git', () => {
  it('lists branch, commits with changed files, and uncommitted changes', async () => {
    const repo = new FixtureRepo(defaultFixtures()[0], root);
    repo.build();
    writeFileSync(join(repo.work, 'README.md'), '# edited locally\n');
    writeFileSync(join(repo.work, 'scratch.ts'), 'export const wip = 1;\n');
    unlinkSync(join(repo.work, 'package.json'));
    const fs = fsAccessGitFs(nodeHandle(repo.work));
    const h = await history(fs, '/', { includeUncommitted: true });
    expect(h.branch).toBe('main');
    expect(h.commits.map((c) => c.message)).toEqual(['Describe usage and drop the old helper note', 'Add a Button component', 'Initial commit']);
    expect(h.commits[1].changedFiles).toEqual([
      { path: 'NOTES.md', type: 'add' },
      { path: 'src/components/Button.tsx', type: 'add' },
    ]);
    expect(h.uncommitted).toEqual([
      { path: 'README.md', status: 'modified' },
      { path: 'package.json', status: 'deleted' },
      { path: 'scratch.ts', status: 'untracked' },
    ]);
    // Read-only: the working tree is never written.
    await expect(fs.promises.writeFile('/README.md')).rejects.toMatchObject({ code: 'EROFS' });
  });
});

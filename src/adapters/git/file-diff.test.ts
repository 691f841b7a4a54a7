/** A file's diff in a commit (against its first parent) and in the working tree (against HEAD), on a repository built with the git CLI. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { CliRepo } from './cli-repo.testutil';
import { fileDiff } from './file-diff';
import { fsAccessGitFs } from './fsa-fs';
import { nodeHandle } from './node-handle.testutil';

describe('file diff at a commit and in the working tree', { timeout: 60_000 }, () => {
  const repo = new CliRepo('quarry-file-diff-');
  const c: Record<string, string> = {};
  beforeAll(() => {
    c.root = repo.commit(
      { 'src/a.ts': 'export const a = 1;\nexport const b = 2;\n', 'img.bin': new Uint8Array([1, 0, 2]) },
      'Root',
    );
    c.edit = repo.commit(
      {
        'src/a.ts': 'export const a = 1;\nexport const b = 3;\n',
        'img.bin': new Uint8Array([1, 0, 3]),
        'new.ts': 'x\n',
      },
      'Edit b',
    );
    c.del = repo.commit({ 'new.ts': null }, 'Delete new.ts');
  });
  afterAll(() => repo.remove());

  it('a modified file: both sides, one line changed, the changed word marked', async () => {
    const d = await fileDiff(repo.repo(), 'src/a.ts', c.edit);
    expect(d).toMatchObject({
      path: 'src/a.ts',
      target: c.edit,
      status: 'modified',
      commit: { oid: c.edit, summary: 'Edit b' },
      base: { oid: c.root },
    });
    expect(d.before).toMatchObject({ kind: 'text', text: 'export const a = 1;\nexport const b = 2;\n' });
    expect(d.diff).toMatchObject({
      added: 1,
      removed: 1,
      words: [{ a: 1, b: 1, aRanges: [[17, 18]], bRanges: [[17, 18]] }],
    });
    // the commit can be named by a short oid
    expect((await fileDiff(repo.repo(), 'src/a.ts', c.edit.slice(0, 8))).target).toBe(c.edit);
    expect(structuredClone(d)).toEqual(d);
  });

  it('added in a root commit, added and deleted later, unchanged in a commit', async () => {
    const root = await fileDiff(repo.repo(), 'src/a.ts', c.root);
    expect(root).toMatchObject({
      status: 'added',
      base: null,
      before: { kind: 'absent' },
      diff: { added: 2, removed: 0 },
    });
    expect(await fileDiff(repo.repo(), 'new.ts', c.edit)).toMatchObject({
      status: 'added',
      diff: { added: 1 },
    });
    expect(await fileDiff(repo.repo(), 'new.ts', c.del)).toMatchObject({
      status: 'deleted',
      after: { kind: 'absent' },
      diff: { removed: 1 },
    });
    expect(await fileDiff(repo.repo(), 'src/a.ts', c.del)).toMatchObject({
      status: 'unchanged',
      diff: { added: 0, removed: 0 },
    });
  });

  it('a binary file: sizes, no text diff', async () => {
    const d = await fileDiff(repo.repo(), 'img.bin', c.edit);
    expect(d).toMatchObject({
      status: 'modified',
      before: { kind: 'binary', bytes: 3 },
      after: { kind: 'binary', bytes: 3 },
      diff: null,
    });
  });

  it('the working tree against HEAD, through the opened-folder adapter: modified, new, deleted', async () => {
    repo.write('src/a.ts', 'export const a = 10;\nexport const b = 3;\n');
    repo.write('scratch.ts', 'wip\n');
    const folder = { fs: fsAccessGitFs(nodeHandle(repo.dir)), dir: '/', cache: {} };
    const d = await fileDiff(folder, 'src/a.ts', 'worktree');
    expect(d).toMatchObject({
      target: 'worktree',
      commit: null,
      base: { oid: c.del },
      status: 'modified',
      diff: { added: 1, removed: 1 },
    });
    expect(await fileDiff(folder, 'scratch.ts', 'worktree')).toMatchObject({ status: 'added' });
    const { rmSync } = await import('node:fs');
    rmSync(`${repo.dir}/src/a.ts`);
    expect(await fileDiff(folder, 'src/a.ts', 'worktree')).toMatchObject({ status: 'deleted' });
  });

  it('errors: an unknown commit, a path in neither side, a bad target', async () => {
    const unknown = await rejectionOf(fileDiff(repo.repo(), 'src/a.ts', 'deadbeef'));
    expect(unknown).toMatchObject({ code: 'NotFound', message: 'No commit "deadbeef" in test-repo' });
    const named = await rejectionOf(fileDiff(repo.repo(), 'src/a.ts', 'no-such-branch'));
    expect(named.code).toBe('NotFound');
    const absent = await rejectionOf(fileDiff(repo.repo(), 'src/none.ts', c.edit));
    expect(absent.message).toBe(`"src/none.ts" is not in commit ${c.edit.slice(0, 7)} nor in its parent`);
    const gone = await rejectionOf(fileDiff(repo.repo(), 'src/none.ts', 'worktree'));
    expect(gone.message).toBe('"src/none.ts" is neither in the working tree nor in HEAD');
    expect((await rejectionOf(fileDiff(repo.repo(), 'src/a.ts', ''))).code).toBe('InvalidArgument');
    expect((await rejectionOf(fileDiff(repo.repo(), '/src//a.ts', c.edit))).code).toBe('InvalidArgument');
  });
});

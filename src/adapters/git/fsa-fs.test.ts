import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultFixtures, FixtureRepo } from '../../../e2e/git-server/fixtures';
import { fsAccessGitFs } from './fsa-fs';
import { nodeHandle } from './node-handle.testutil';
import { history } from './history';

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
    expect(h.commits.map((c) => c.message)).toEqual([
      'Describe usage and drop the old helper note',
      'Add a Button component',
      'Initial commit',
    ]);
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

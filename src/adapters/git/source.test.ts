import './node-shims.testutil';
import { describe, expect, it } from 'vitest';
import { Workspace } from '../../core/source/workspace';
import { callTool } from '../../core/tools';
import { walkFiles } from '../../core/walk/walk';
import type { Skipped } from '../../core/walk/policy';
import { rejectionOf } from '../../../test/rejection';
import { gitFileSource, gitStorage, repoDir } from './index';

/** A clone's working tree written straight into lightning-fs: two repositories side by side. */
async function twoRepos() {
  const { fs } = gitStorage();
  const p = fs.promises;
  const mk = async (dir: string) => {
    const parts = dir.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) await p.mkdir('/' + parts.slice(0, i).join('/')).catch(() => {});
  };
  const mine = repoDir('links/mine');
  const other = repoDir('links/other');
  await mk(`${mine}/src`);
  await mk(other);
  await p.writeFile(`${other}/secret.txt`, 'other repository secret\n');
  await p.writeFile(`${mine}/src/app.ts`, 'export const app = 1;\n');
  await p.symlink('/', `${mine}/to_root`);
  await p.symlink('../other', `${mine}/to_other`);
  await p.symlink('../other/secret.txt', `${mine}/secret_link.txt`);
  await p.symlink('src', `${mine}/inside_dir`);
  await p.symlink('src/app.ts', `${mine}/inside_file.ts`);
  await p.symlink('src/../../other', `${mine}/sneaky`);
  // links lightning-fs would resolve another way than POSIX (review findings): a missing segment
  // before '..', and a relative link reached through a linked directory
  await p.symlink('nope/../../other/secret.txt', `${mine}/through_missing.txt`);
  await mk(`${mine}/a/b`);
  await p.symlink('a/b', `${mine}/d`);
  await p.symlink('../../other/secret.txt', `${mine}/a/b/up.txt`);
  return gitFileSource('links/mine');
}

describe('GitFileSource keeps every read inside its clone', () => {
  it('refuses links that lead to the storage root or to another clone, follows links that stay inside', async () => {
    const source = await twoRepos();
    for (const p of ['to_root/repos', 'to_other/secret.txt', 'secret_link.txt', 'sneaky/secret.txt']) {
      const err = await rejectionOf(source.read(p));
      expect(err).toMatchObject({ code: 'PathOutsideRoot', data: { reason: 'outsideRoot' } });
    }
    // POSIX resolution: a missing directory cannot be climbed out of; a link is relative to where it really is
    expect((await rejectionOf(source.read('through_missing.txt'))).code).toBe('NotFound');
    expect(await source.stat('through_missing.txt')).toBeNull();
    // a/b/up.txt -> ../../other/secret.txt is mine/other/secret.txt (missing), also when reached through d
    expect((await rejectionOf(source.read('d/up.txt'))).code).toBe('NotFound');
    expect((await rejectionOf(source.read('a/b/up.txt'))).code).toBe('NotFound');
    await expect(rejectionOf(source.stat('to_other'))).resolves.toMatchObject({ code: 'PathOutsideRoot' });
    expect(new TextDecoder().decode(await source.read('inside_dir/app.ts'))).toContain('app = 1');
    expect(new TextDecoder().decode(await source.read('inside_file.ts'))).toContain('app = 1');
  });

  it('a walk skips the outside links with a reason and finds nothing of the other clone', async () => {
    const source = await twoRepos();
    const skipped: Skipped[] = [];
    const files: string[] = [];
    for await (const f of walkFiles(source, { onSkip: (s) => skipped.push(s) })) files.push(f.path);
    expect(files.sort()).toEqual(['inside_dir/app.ts', 'inside_file.ts', 'src/app.ts']);
    expect(
      skipped
        .filter((s) => s.reason === 'outsideRoot')
        .map((s) => s.path)
        .sort(),
    ).toEqual(['secret_link.txt', 'sneaky', 'to_other', 'to_root']);
    const ws = new Workspace([source]);
    const hits = (await callTool('code_search', { query: 'other repository secret' }, { workspace: ws })) as {
      total: number;
    };
    expect(hits.total).toBe(0);
    await expect(
      rejectionOf(callTool('read_file', { filePath: 'to_other/secret.txt' }, { workspace: ws })),
    ).resolves.toMatchObject({ code: 'PathOutsideRoot' });
  });
});

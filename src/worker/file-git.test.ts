/**
 * One file's diff, history and blame through the EngineClient: an opened folder that holds
 * .git (the File System Access adapter over a real repository), several roots (paths carry the
 * root's name), a clone from the local git http-backend (lightning-fs), the memory cache, a
 * cancelled job, and the errors.
 */
import '../adapters/git/node-shims.testutil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitServer, type GitServer } from '../../e2e/git-server/server';
import { ADA, CliRepo, GRACE } from '../adapters/git/cli-repo.testutil';
import { nodeHandle } from '../adapters/git/node-handle.testutil';
import { memoryFolders } from './memory-folders.testutil';
import { rejectionOf } from '../../test/rejection';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';
import type { FileHistoryEntry, Progress } from './protocol';

const lines = (...xs: string[]) => xs.join('\n') + '\n';

describe('file diff, history and blame through the engine', { timeout: 90_000 }, () => {
  const repo = new CliRepo('quarry-file-git-');
  let client: EngineClient;
  const c: Record<string, string> = {};
  beforeAll(async () => {
    c.add = repo.commit(
      {
        'src/calc.ts': lines(
          'export function total(items: number[]) {',
          '  let sum = 0;',
          '  return sum;',
          '}',
        ),
      },
      'Add calc',
      ADA,
    );
    c.edit = repo.commit(
      {
        'src/calc.ts': lines(
          'export function total(values: number[]) {',
          '  let sum = 0;',
          '  return sum;',
          '}',
          '',
          'export const unit = 1;',
        ),
      },
      'Rename items',
      GRACE,
    );
    // sixty more commits touching the file, so a blame takes long enough to be cancelled midway
    repo.fastImport(
      Array.from({ length: 60 }, (_, i) => ({
        message: `Step ${i}`,
        files: {
          'src/steps.ts':
            Array.from({ length: i + 1 }, (_, k) => `export const step${k} = ${k};`).join('\n') + '\n',
        },
      })),
    );
    repo.write(
      'src/calc.ts',
      lines(
        'export function total(values: number[]) {',
        '  let sum = 0;',
        '  return sum + 0;',
        '}',
        '',
        'export const unit = 1;',
      ),
    );
    client = new EngineClient(() => inThreadTransport(createEngineApi({ folderHandles: memoryFolders() })));
    const handle = nodeHandle(repo.dir, 'calc-app') as unknown as FileSystemDirectoryHandle;
    await client.openRepo({ kind: 'handle', name: 'calc-app', handle }).done;
  });
  afterAll(() => repo.remove());

  it('status says the root has git, with its HEAD', async () => {
    const status = await client.fileGitStatus('src/calc.ts');
    expect(status).toMatchObject({ available: true, source: 'folder' });
    expect(status.head).toBe(repo.git(['rev-parse', 'HEAD']).trim());
  });

  it("a commit's diff and the uncommitted diff of a file", async () => {
    const d = await client.fileDiff({ path: 'src/calc.ts', commit: c.edit });
    expect(d).toMatchObject({
      path: 'src/calc.ts',
      status: 'modified',
      commit: { oid: c.edit, author: 'Grace Hopper' },
      base: { oid: c.add },
    });
    expect(d.diff).toMatchObject({
      added: 3,
      removed: 1,
      words: [{ a: 0, b: 0, aRanges: [[22, 27]], bRanges: [[22, 28]] }],
    });
    const w = await client.fileDiff({ path: 'src/calc.ts', commit: 'worktree' });
    expect(w).toMatchObject({
      target: 'worktree',
      commit: null,
      status: 'modified',
      diff: { added: 1, removed: 1 },
    });
  });

  it('file history streams the commits that changed the file; a second ask comes from memory', async () => {
    const batches: FileHistoryEntry[] = [];
    const first = await client.fileHistory('src/calc.ts').onBatch((items) => batches.push(...items)).done;
    expect(batches.map((e) => e.oid)).toEqual([c.edit, c.add]);
    expect(first.stats).toMatchObject({ ending: 'complete', cached: false, walked: 62, shallow: false });
    const again: FileHistoryEntry[] = [];
    const second = await client.fileHistory('src/calc.ts').onBatch((items) => again.push(...items)).done;
    expect(second.stats.cached).toBe(true);
    expect(again).toEqual(batches);
  });

  it('blame: progress, then the result; a second ask comes from memory', async () => {
    const progress: Progress[] = [];
    const end = await client.blame('src/steps.ts').onProgress((p) => progress.push(p)).done;
    expect(end.stats).toMatchObject({ ending: 'complete', cached: false });
    const b = end.results[0];
    expect(b).toMatchObject({ path: 'src/steps.ts', lineCount: 60, versions: 60 });
    // line k was added by "Step k"
    expect(b.runs.map((r) => b.commits[r.commit].summary)).toEqual(
      Array.from({ length: 60 }, (_, i) => `Step ${i}`),
    );
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.phase === 'git')).toBe(true);
    expect(new Set(progress.map((p) => p.label))).toContain('Blaming');
    const second = await client.blame('src/steps.ts').done;
    expect(second.stats.cached).toBe(true);
    expect(second.results[0]).toEqual(b);
  });

  it('a cancelled blame ends as cancelled, and can be asked again', async () => {
    const job = client.blame('src/calc.ts').onProgress(() => job.cancel());
    const end = await job.done;
    expect(end.stats.ending).toBe('cancelled');
    expect(end.results).toEqual([]);
    const again = await client.blame('src/calc.ts').done;
    expect(again.results[0].lineCount).toBe(6);
  });

  it('with several roots, paths carry the root name; a root without git says why', async () => {
    await client.openRepo(
      { kind: 'memory', name: 'notes', files: { 'a.md': '# a\n' } },
      {
        add: true,
      },
    ).done;
    const d = await client.fileDiff({ path: 'calc-app/src/calc.ts', commit: c.edit });
    expect(d.path).toBe('calc-app/src/calc.ts');
    expect((await client.blame('calc-app/src/calc.ts').done).results[0].path).toBe('calc-app/src/calc.ts');
    expect(await client.fileGitStatus('notes/a.md')).toEqual({
      available: false,
      reason: 'notes has no git history. Clone a repository to see its commits.',
    });
    const none = await rejectionOf(client.blame('notes/a.md').done);
    expect(none).toMatchObject({
      code: 'NotFound',
      message: 'notes has no git history. Clone a repository to see its commits.',
    });
    const elsewhere = await rejectionOf(client.fileDiff({ path: 'other/x.ts', commit: c.edit }));
    expect(elsewhere.data.reason).toBe('noSuchRoot');
    const unknown = await rejectionOf(
      client.fileDiff({ path: 'calc-app/src/calc.ts', commit: '0123456789' }),
    );
    expect(unknown).toMatchObject({ code: 'NotFound', message: 'No commit "0123456789" in calc-app' });
    const bad = await rejectionOf(
      client.fileDiff({ path: 'calc-app/src/calc.ts', commit: 42 as unknown as string }),
    );
    expect(bad.code).toBe('InvalidArgument');
  });
});

describe('file views of a clone (lightning-fs)', { timeout: 90_000 }, () => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer({
      fixtures: [
        {
          name: 'blame-app',
          commits: [
            { message: 'Add a', files: { 'a.ts': 'export const a = 1;\nexport const b = 2;\n' } },
            { message: 'Change b', files: { 'a.ts': 'export const a = 1;\nexport const b = 3;\n' } },
          ],
        },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('diff, history and blame of a cloned file', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ folderHandles: memoryFolders() })),
    );
    const end = await client.cloneRepo({ url: server.repoUrl('blame-app'), depth: 0 }).done;
    const lib = end.stats.repo!;
    await client.openRepo({ kind: 'git', id: lib.id, name: lib.name }).done;
    expect(await client.fileGitStatus('a.ts')).toMatchObject({
      available: true,
      source: 'clone',
      head: lib.commit,
    });
    const entries: FileHistoryEntry[] = [];
    await client.fileHistory('a.ts').onBatch((items) => entries.push(...items)).done;
    expect(entries.map((e) => e.summary)).toEqual(['Change b', 'Add a']);
    const d = await client.fileDiff({ path: 'a.ts', commit: entries[0].oid.slice(0, 10) });
    expect(d).toMatchObject({ status: 'modified', diff: { added: 1, removed: 1 } });
    const b = (await client.blame('a.ts').done).results[0];
    expect(b.runs.map((r) => [r.start, r.count, b.commits[r.commit].summary])).toEqual([
      [0, 1, 'Add a'],
      [1, 1, 'Change b'],
    ]);
  });
});

/**
 * History's log job through the EngineClient, on an opened folder (the File System Access
 * adapter over a real git repository): streamed parts, the stored log on the next visit, an
 * incremental refresh, uncommitted changes beside the log, changed files on demand, several
 * roots, a root without git, cancel.
 */
import '../adapters/git/node-shims.testutil';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHandle } from '../adapters/git/node-handle.testutil';
import { ScratchRepo } from '../adapters/git/scratch-repo.testutil';
import { MemoryIndexStore } from '../core/rank/persist';
import { memoryFolders } from './memory-folders.testutil';
import { rejectionOf } from '../../test/rejection';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';
import type { HistoryJobPart, LogCommit, Progress } from './protocol';

const repos: ScratchRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.dispose();
});

function setup() {
  const repo = new ScratchRepo();
  repos.push(repo);
  repo.commit('Add the app', { 'src/app.ts': 'export const app = 1;\n', 'README.md': '# app\n' });
  repo.commit('Add a helper', { 'src/helper.ts': 'export const helper = 1;\n' });
  repo.commit('Edit the app, drop the readme', {
    'src/app.ts': 'export const app = 2;\n',
    'README.md': null,
  });
  const store = new MemoryIndexStore();
  const client = new EngineClient(() =>
    inThreadTransport(createEngineApi({ indexStore: store, folderHandles: memoryFolders() })),
  );
  const handle = nodeHandle(repo.dir, 'app') as unknown as FileSystemDirectoryHandle;
  return { repo, store, client, handle };
}

async function readLog(client: EngineClient, request = {}) {
  const parts: HistoryJobPart[] = [];
  const progress: Progress[] = [];
  let list: LogCommit[] = [];
  const end = await client
    .historyLog(request)
    .onBatch((items) =>
      items.forEach((p) => {
        parts.push(p);
        if (p.kind === 'commits') list = p.reset ? [...p.commits] : [...list, ...p.commits];
      }),
    )
    .onProgress((p) => progress.push(p)).done;
  return { end, parts, list, progress };
}

describe('the history job on an opened folder', { timeout: 60_000 }, () => {
  it('streams the log, then the uncommitted changes; the next visit paints the stored log; a new commit is read alone', async () => {
    const { repo, store, client, handle } = setup();
    repo.write('src/app.ts', 'export const app = 3; // uncommitted\n');
    repo.write('notes.txt', 'scratch\n');
    await client.openRepo({ kind: 'handle', name: 'app', handle }).done;

    const first = await readLog(client);
    expect(first.end.stats).toMatchObject({
      ending: 'complete',
      available: true,
      source: 'folder',
      branch: 'main',
      head: repo.head(),
      commits: 3,
      read: 3,
      refresh: 'full',
    });
    expect(first.list.map((c) => c.message)).toEqual([
      'Edit the app, drop the readme',
      'Add a helper',
      'Add the app',
    ]);
    expect(first.parts[0]).toEqual({ kind: 'repo', source: 'folder' });
    expect(first.parts[1]).toMatchObject({ kind: 'head', head: repo.head(), branch: 'main' });
    const kinds = first.parts.map((p) => p.kind);
    expect(kinds.indexOf('commits')).toBeLessThan(kinds.indexOf('uncommitted'));
    expect(first.parts.find((p) => p.kind === 'uncommitted')).toMatchObject({
      files: [
        { path: 'notes.txt', status: 'untracked' },
        { path: 'src/app.ts', status: 'modified' },
      ],
    });
    expect(store.data.has('history:recent:folder-1')).toBe(true);

    const again = await readLog(client);
    expect(again.end.stats).toMatchObject({ refresh: 'cache_hit', read: 0, commits: 3 });
    expect(again.parts.find((p) => p.kind === 'commits')).toMatchObject({ from: 'cache', reset: true });
    expect(again.list).toEqual(first.list);

    repo.git(['add', '-A']);
    repo.commit('Commit the edit');
    const after = await readLog(client);
    expect(after.end.stats).toMatchObject({ refresh: 'incremental', read: 1, commits: 4 });
    expect(after.list.map((c) => c.oid)).toEqual(repo.log().map((c) => c.oid));
    expect(after.parts.find((p) => p.kind === 'uncommitted')).toMatchObject({ files: [] });
  });

  it('a commit expands to its changed files (kept), with the root prefix when several roots are open; bad ids are refused', async () => {
    const { repo, client, handle } = setup();
    await client.openRepo({ kind: 'handle', name: 'app', handle }).done;
    const [edit, helper, root] = repo.log().map((c) => c.oid);
    expect(await client.commitChanges({ oid: edit })).toEqual({
      oid: edit,
      files: [
        { path: 'README.md', type: 'delete' },
        { path: 'src/app.ts', type: 'modify' },
      ],
    });
    expect((await client.commitChanges({ oid: helper })).files).toEqual([
      { path: 'src/helper.ts', type: 'add' },
    ]);
    expect((await client.commitChanges({ oid: root })).files.map((f) => f.type)).toEqual(['add', 'add']);
    expect((await rejectionOf(client.commitChanges({ oid: 'HEAD' }))).code).toBe('InvalidArgument');
    expect((await rejectionOf(client.commitChanges({ oid: 'e'.repeat(40) }))).code).toBe('NotFound');

    await client.openRepo(
      { kind: 'memory', name: 'other', files: { 'x.ts': 'x\n' } },
      {
        add: true,
      },
    ).done;
    expect((await client.commitChanges({ oid: helper })).files).toEqual([
      { path: 'app/src/helper.ts', type: 'add' },
    ]);
    repo.write('new.ts', 'n\n');
    const both = await readLog(client);
    expect(both.parts.find((p) => p.kind === 'uncommitted')).toMatchObject({
      files: [{ path: 'app/new.ts', status: 'untracked' }],
    });
    const other = await readLog(client, { root: 'memory:other' });
    expect(other.end.stats).toMatchObject({
      available: false,
      reason: expect.stringMatching(/has no git history/),
    });
    expect(other.parts).toEqual([]);
    expect((await rejectionOf(client.commitChanges({ oid: helper, root: 'memory:other' }))).code).toBe(
      'NotFound',
    );
    expect((await rejectionOf(client.historyLog({ root: 'memory:none' }).done)).data).toMatchObject({
      reason: 'noSuchRoot',
    });
  });

  it('a long read reports progress and stops on cancel, storing nothing', async () => {
    const { repo, store, client, handle } = setup();
    repo.fastImport(3000);
    await client.openRepo({ kind: 'handle', name: 'app', handle }).done;
    let cancel = () => {};
    let got = 0;
    const job = client.historyLog({}).onBatch((items) =>
      items.forEach((p) => {
        if (p.kind === 'commits') {
          got += p.commits.length;
          cancel();
        }
      }),
    );
    cancel = job.cancel;
    const end = await job.done;
    expect(end.stats.ending).toBe('cancelled');
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThan(3003);
    expect(store.data.has('history:recent:folder-1')).toBe(false);
    const whole = await readLog(client);
    expect(whole.end.stats).toMatchObject({ ending: 'complete', commits: 3003 });
    expect(
      whole.progress.some((p) => p.phase === 'git' && p.label === 'Reading commits' && p.files > 0),
    ).toBe(true);
  });
});

/**
 * The engine's git surface (clone, library, open a clone, history, fetch updates + incremental
 * re-index, delete, errors) through the EngineClient, over the local git http-backend.
 */
import '../adapters/git/node-shims.testutil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFixtures, startGitServer, type GitServer } from '../../e2e/git-server/server';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import type { IndexStore } from '../core/rank/persist';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';
import type { GrepFileResult } from '../core/grep/types';
import type { Progress } from './protocol';
import type { RecentRepo } from '../adapters/browser/recent';
import { rejectionOf } from '../../test/rejection';

let server: GitServer;

beforeAll(async () => {
  const fixtures = defaultFixtures();
  const app = fixtures.find((f) => f.name === 'small-app')!;
  server = await startGitServer({ fixtures: [...fixtures, { ...app, name: 'engine-app' }] });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

function memoryStore(): IndexStore & { keys: () => string[] } {
  const data = new Map<string, Uint8Array>();
  return {
    load: async (key) => data.get(key) ?? null,
    save: async (key, bytes) => void data.set(key, bytes),
    remove: async (key) => void data.delete(key),
    keys: () => [...data.keys()],
  };
}

async function searchAll(client: EngineClient, pattern: string): Promise<string[]> {
  const found: GrepFileResult[] = [];
  await client.search({ pattern, mode: 'literal' }).onBatch((b) => found.push(...b)).done;
  return found.map((f) => f.path).sort();
}

describe('engine git surface', { timeout: 120_000 }, () => {
  const store = memoryStore();
  const client = new EngineClient(() =>
    inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader, indexStore: store })),
  );

  it('clones with git progress, lists it in the library, opens it, searches and shows history', async () => {
    const progress: Progress[] = [];
    const end = await client
      .cloneRepo({ url: server.repoUrl('engine-app'), depth: 0 })
      .onProgress((p) => progress.push(p)).done;
    expect(end.stats.ending).toBe('complete');
    const repo = end.stats.repo!;
    expect(repo).toMatchObject({
      name: 'engine-app',
      branch: 'main',
      source: 'clone',
      depth: 0,
      fileCount: 6,
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.phase === 'git' && typeof p.label === 'string')).toBe(true);

    const lib = await client.library();
    expect(lib.repos.map((r) => r.id)).toContain(repo.id);
    expect(lib.storage.reposBytes).toBeGreaterThanOrEqual(repo.sizeBytes);

    const open = await client.openRepo({ kind: 'git', id: repo.id, name: repo.name }).done;
    // The engine makes the key (the UI never does): the clone's library id, under which its index is stored.
    expect(open.stats).toMatchObject({
      ending: 'complete',
      kind: 'git',
      name: 'engine-app',
      files: 6,
      key: `git:${repo.id}`,
    });
    expect(lib.repos.find((r) => r.id === repo.id)!.key).toBe(`git:${repo.id}`);
    expect(await searchAll(client, 'formatMoney')).toEqual(['src/app.ts', 'src/util/strings.ts']);

    const h = await client.history({ limit: 10 });
    expect(h).toMatchObject({ available: true, source: 'clone', branch: 'main', shallow: false });
    expect(h.commits!.map((c) => c.message)).toEqual([
      'Describe usage and drop the old helper note',
      'Add a Button component',
      'Initial commit',
    ]);

    // The index build stamps the library entry.
    const idx = await client.indexRepo({}).done;
    expect(idx.stats.refreshMode).toBe('full');
    expect((await client.library()).repos.find((r) => r.id === repo.id)!.lastIndexedAt).toBe(
      idx.stats.builtAt,
    );
  });

  it('fetch updates: changed paths come back, a reopen finds the new code, the index refresh is incremental', async () => {
    const repo = (await client.library()).repos.find((r) => r.name === 'engine-app')!;
    const oid = server.commitToFixture(
      'engine-app',
      { 'src/fresh.ts': 'export const freshlyFetchedCode = 1;\n', 'docs/usage.md': null },
      'Fresh code',
    );
    const end = await client.fetchRepo(repo.id).done;
    expect(end.stats).toMatchObject({
      ending: 'complete',
      changedPaths: ['src/fresh.ts'],
      removedPaths: ['docs/usage.md'],
      previousCommit: repo.commit,
    });
    expect(end.stats.repo!.commit).toBe(oid);
    await client.openRepo({ kind: 'git', id: repo.id, name: repo.name }).done;
    expect(await searchAll(client, 'freshlyFetchedCode')).toEqual(['src/fresh.ts']);
    const idx = await client.indexRepo({}).done;
    expect(idx.stats).toMatchObject({ refreshMode: 'incremental', filesChanged: 1, filesRemoved: 1 });
    const h = await client.history({ limit: 1 });
    expect(h.commits!.map((c) => c.message)).toEqual(['Fresh code']);
    expect(h.commits![0].changedFiles).toEqual([
      { path: 'docs/usage.md', type: 'delete' },
      { path: 'src/fresh.ts', type: 'add' },
    ]);
  });

  it('errors: 404, 401 asks for a token, a bad URL; nothing is added to the library', async () => {
    const before = (await client.library()).repos.length;
    const missing = await rejectionOf(client.cloneRepo({ url: server.repoUrl('no-such-repo') }).done);
    expect(missing.code).toBe('NotFound');
    expect(missing.message).toMatch(/^repository not found/);
    const auth = await rejectionOf(client.cloneRepo({ url: server.repoUrl('private-app') }).done);
    expect(auth.code).toBe('AuthRequired');
    expect(auth.message).toMatch(/^authentication required/);
    expect(auth.data.needsToken).toBe(true);
    const bad = await rejectionOf(client.cloneRepo({ url: 'not a url' }).done);
    expect(bad.code).toBe('InvalidArgument');
    const branch = await rejectionOf(
      client.cloneRepo({ url: server.repoUrl('small-app'), ref: 'nope' }).done,
    );
    expect(branch.message).toContain('Its branches: dev, main');
    expect(branch.data.branches).toEqual(['dev', 'main']);
    expect((await client.library()).repos.length).toBe(before);
    // With the token the private repository clones.
    const ok = await client.cloneRepo({ url: server.repoUrl('private-app'), token: 'quarry-test-token' })
      .done;
    expect(ok.stats.repo!.name).toBe('private-app');
  });

  it('a cancelled clone ends as cancelled, leaves no entry, and can be retried', async () => {
    const job = client.cloneRepo({ url: server.repoUrl('big-app', { slowMs: 40 }) }).onProgress((p) => {
      if (p.files > 0) job.cancel();
    });
    const end = await job.done;
    expect(end.stats).toMatchObject({ ending: 'cancelled', repo: null });
    expect((await client.library()).repos.some((r) => r.name === 'big-app')).toBe(false);
    const retry = await client.cloneRepo({ url: server.repoUrl('big-app') }).done;
    expect(retry.stats.repo).toMatchObject({ name: 'big-app', fileCount: 400 });
  });

  it('delete frees the entry and its stored index; opening it afterwards says it is gone', async () => {
    const repo = (await client.library()).repos.find((r) => r.name === 'engine-app')!;
    expect(store.keys()).toContain(`index:git:${repo.id}`);
    expect(await client.deleteRepo(repo.id)).toBe(true);
    expect((await client.library()).repos.some((r) => r.id === repo.id)).toBe(false);
    expect(store.keys()).not.toContain(`index:git:${repo.id}`);
    expect(await client.deleteRepo(repo.id)).toBe(false);
    const gone = await rejectionOf(client.openRepo({ kind: 'git', id: repo.id, name: repo.name }).done);
    expect(gone.code).toBe('NotFound');
    expect(gone.data.reason).toBe('notInLibrary');
  });

  it('a shallow clone shows one commit; fetching more history deepens it', async () => {
    const end = await client.cloneRepo({ url: server.repoUrl('small-app') }).done;
    const repo = end.stats.repo!;
    expect(repo.depth).toBe(1);
    await client.openRepo({ kind: 'git', id: repo.id, name: repo.name }).done;
    const shallow = await client.history();
    expect(shallow).toMatchObject({ available: true, shallow: true, libraryId: repo.id });
    expect(shallow.commits).toHaveLength(1);
    expect(shallow.commits![0].parentMissing).toBe(true);
    // After fetching a new commit at depth 1 the old tip is still stored, but the log stops at the shallow boundary.
    server.commitToFixture('small-app', { 'src/later.ts': 'export const later = 1;\n' }, 'A later commit');
    await client.fetchRepo(repo.id).done;
    const moved = await client.history();
    expect(moved.commits!.map((c) => c.message)).toEqual(['A later commit']);
    expect(moved.shallow).toBe(true);
    const progress: Progress[] = [];
    const deeper = await client.deepenRepo(repo.id, 50, {}).onProgress((p) => progress.push(p)).done;
    expect(deeper.stats.repo!.depth).toBe(51);
    const full = await client.history();
    expect(full.shallow).toBe(false);
    expect(full.commits!.map((c) => c.message)).toEqual([
      'A later commit',
      'Describe usage and drop the old helper note',
      'Add a Button component',
      'Initial commit',
    ]);
    expect(full.commits![0].changedFiles).toEqual([{ path: 'src/later.ts', type: 'add' }]);
    const bad = await rejectionOf(client.deepenRepo(repo.id, 0).done);
    expect(bad.code).toBe('InvalidArgument');
  });

  it('a repository without git data has no history, with a reason', async () => {
    await client.openRepo({ kind: 'memory', name: 'plain', files: { 'a.ts': 'export const a = 1;\n' } }).done;
    const h = await client.history();
    expect(h.available).toBe(false);
    expect(h.reason).toMatch(/no git history/);
  });
});

describe('history of an opened folder that contains .git', { timeout: 60_000 }, () => {
  it('lists the branch, commits and uncommitted changes; the folder joins the library with its branch', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { FixtureRepo } = await import('../../e2e/git-server/fixtures');
    const { nodeHandle } = await import('../adapters/git/node-handle.testutil');
    const root = mkdtempSync(join(tmpdir(), 'quarry-engine-folder-'));
    try {
      const repo = new FixtureRepo(defaultFixtures()[0], root);
      repo.build();
      writeFileSync(join(repo.work, 'scratch.ts'), 'export const wip = 1;\n');
      // Recent keeps handles in IndexedDB, which cannot store this Node stand-in: an in-memory one.
      const recent: RecentRepo[] = [];
      const folderHandles = {
        remember: async (h: FileSystemDirectoryHandle) =>
          recent.find((r) => r.handle === h) ??
          (recent.push({ id: `folder-${recent.length + 1}`, name: h.name, handle: h, openedAt: Date.now() }),
          recent.at(-1)!),
        list: async () => recent,
        forget: async (id: string) =>
          void recent.splice(
            recent.findIndex((r) => r.id === id),
            1,
          ),
      };
      const client = new EngineClient(() => inThreadTransport(createEngineApi({ folderHandles })));
      const handle = nodeHandle(repo.work, 'small-app') as unknown as FileSystemDirectoryHandle;
      const open = await client.openRepo({ kind: 'handle', name: 'small-app', handle }).done;
      expect(open.stats).toMatchObject({ ending: 'complete', key: 'recent:folder-1' });
      const h = await client.history();
      expect(h).toMatchObject({ available: true, source: 'folder', branch: 'main' });
      expect(h.commits!.map((c) => c.message)).toEqual([
        'Describe usage and drop the old helper note',
        'Add a Button component',
        'Initial commit',
      ]);
      expect(h.uncommitted).toEqual([{ path: 'scratch.ts', status: 'untracked' }]);
      const entry = (await client.library()).repos.find((r) => r.id === 'recent:folder-1');
      expect(entry).toMatchObject({
        source: 'folder',
        name: 'small-app',
        branch: 'main',
        fileCount: open.stats.files,
      });
      expect(entry!.commit).toBe(h.head);
      expect(entry).toMatchObject({ key: 'recent:folder-1', handle });
      // Opening the same folder again keeps its key (and so its stored index).
      expect((await client.openRepo({ kind: 'handle', name: 'small-app', handle }).done).stats.key).toBe(
        'recent:folder-1',
      );
      // With a second root, History's file paths carry their root's name (so they open the right file).
      await client.openRepo(
        { kind: 'memory', name: 'other', files: { 'x.ts': 'export const x = 1;\n' } },
        { add: true },
      ).done;
      const both = await client.history();
      expect(both.commits![1].changedFiles.map((f) => f.path)).toEqual([
        'small-app/NOTES.md',
        'small-app/src/components/Button.tsx',
      ]);
      expect(both.uncommitted).toEqual([{ path: 'small-app/scratch.ts', status: 'untracked' }]);
      expect((await client.readFile('small-app/src/components/Button.tsx')).text).toContain('Button');
      // History of another root, by key
      expect(await client.history({ root: 'memory:other' })).toMatchObject({
        available: false,
        reason: expect.stringMatching(/no git history/),
      });
      expect((await rejectionOf(client.history({ root: 'memory:none' }))).data).toMatchObject({
        reason: 'noSuchRoot',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

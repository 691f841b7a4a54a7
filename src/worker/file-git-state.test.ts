/**
 * One file's git views keep their state in the root's state (core/workspace/root-state.ts):
 * a second ask of the same root answers from memory with the same objects, its repository
 * (fs and isomorphic-git cache) is made once per root, and closing the root releases all of it,
 * so a root opened again on the same folder (same key) reads again. Directly over RepoSession,
 * GitService and FileGitService (an opened folder that holds .git), and through the engine.
 */
import '../adapters/git/node-shims.testutil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, CliRepo } from '../adapters/git/cli-repo.testutil';
import { nodeHandle } from '../adapters/git/node-handle.testutil';
import { memoryFolders } from './memory-folders.testutil';
import { Foreground } from '../core/jobs/yielder';
import { MemoryIndexStore } from '../core/rank/persist';
import { MemorySource } from '../core/source/memory';
import { lineChunker } from '../core/rank/line-chunker.testutil';
import { EngineClient, inThreadTransport } from './client';
import type { JobScope } from './edge';
import { createEngineApi } from './engine';
import { FILE_GIT, FileGitService } from './file-git';
import { GitService, type RootRepo } from './git-service';
import { RepoSession, type SessionDeps } from './session';
import { readSnapshot } from './snapshot';

async function repoOf(git: GitService, session: RepoSession): Promise<RootRepo> {
  const r = await git.repoFor(session);
  if ('reason' in r) throw new Error(r.reason);
  return r;
}

function scope<R>(): JobScope<R> {
  return { signal: new AbortController().signal, events: { send: () => undefined, settle: async () => {} } };
}

describe('file git state lives in the root', { timeout: 60_000 }, () => {
  const repo = new CliRepo('quarry-file-git-state-');
  let handle: FileSystemDirectoryHandle;
  let add = '';
  let edit = '';
  beforeAll(() => {
    add = repo.commit({ 'src/a.ts': 'export const a = 1;\n' }, 'Add a', ADA);
    edit = repo.commit({ 'src/a.ts': 'export const a = 2;\nexport const b = 3;\n' }, 'Change a', ADA);
    handle = nodeHandle(repo.dir, 'state-app') as unknown as FileSystemDirectoryHandle;
  });
  afterAll(() => repo.remove());

  /** A root over the folder, always under the same key (as the app reopens a folder from Recent). */
  async function openRoot(): Promise<RepoSession> {
    const snap = await readSnapshot(
      new MemorySource({ 'src/a.ts': 'x\n' }, { name: 'state-app' }),
      'memory',
      {
        signal: new AbortController().signal,
        onProgress: () => undefined,
      },
    );
    const deps: SessionDeps = {
      getChunker: async () => lineChunker as never,
      indexStore: new MemoryIndexStore(),
      foreground: new Foreground(),
      progressIntervalMs: 0,
    };
    return RepoSession.fromSnapshot('recent:folder-1', { kind: 'handle', handle }, snap!, deps);
  }

  it('a root answers again from memory with the same objects; closing it releases its caches and repository', async () => {
    const git = new GitService(undefined, memoryFolders());
    const fileGit = new FileGitService(git);
    const first = await openRoot();
    const repoA = await repoOf(git, first);
    expect(await repoOf(git, first)).toBe(repoA);

    const history = await fileGit.history(scope(), first, 'src/a.ts');
    expect(history.stats.cached).toBe(false);
    expect(history.results.map((e) => e.oid)).toEqual([edit, add]);
    const blame = await fileGit.blame(scope(), first, 'src/a.ts', '');
    expect(blame.stats.cached).toBe(false);
    const diff = await fileGit.diff(first, 'src/a.ts', '', edit);

    const caches = first.state.get(FILE_GIT)!;
    expect(caches.trees).not.toBeNull();
    const trees = caches.trees;
    const historyAgain = await fileGit.history(scope(), first, 'src/a.ts');
    expect(historyAgain.stats.cached).toBe(true);
    expect(historyAgain.results).toBe(caches.histories.get(`${edit}\0src/a.ts`)!.entries);
    const blameAgain = await fileGit.blame(scope(), first, 'src/a.ts', '');
    expect(blameAgain.stats.cached).toBe(true);
    expect(blameAgain.results[0]).toBe(blame.results[0]);
    expect(await fileGit.diff(first, 'src/a.ts', '', edit)).toBe(diff);
    await fileGit.diff(first, 'src/a.ts', '', add);
    expect(first.state.get(FILE_GIT)).toBe(caches);
    expect(caches.trees).toBe(trees);

    first.close();
    expect(first.state.size).toBe(0);
    expect(caches.histories.size + caches.blames.size + caches.diffs.size).toBe(0);

    // the same folder opened again, under the same key: a new repository, and everything is read again
    const second = await openRoot();
    const repoB = await repoOf(git, second);
    expect(repoB).not.toBe(repoA);
    expect(repoB.repo.cache).not.toBe(repoA.repo.cache);
    expect((await fileGit.history(scope(), second, 'src/a.ts')).stats.cached).toBe(false);
    expect((await fileGit.blame(scope(), second, 'src/a.ts', '')).stats.cached).toBe(false);
    expect(await fileGit.diff(second, 'src/a.ts', '', edit)).not.toBe(diff);
    expect(second.state.get(FILE_GIT)).not.toBe(caches);
    second.close();
  });

  it('two open roots over the same folder keep their own repository and caches', async () => {
    const git = new GitService(undefined, memoryFolders());
    const fileGit = new FileGitService(git);
    const [a, b] = [await openRoot(), await openRoot()];
    const ra = await repoOf(git, a);
    const rb = await repoOf(git, b);
    expect(rb).not.toBe(ra);
    expect(rb.repo.cache).not.toBe(ra.repo.cache);
    expect((await fileGit.blame(scope(), a, 'src/a.ts', '')).stats.cached).toBe(false);
    expect((await fileGit.blame(scope(), b, 'src/a.ts', '')).stats.cached).toBe(false);
    expect((await fileGit.blame(scope(), a, 'src/a.ts', '')).stats.cached).toBe(true);
    a.close();
    // b's caches outlive a's close
    expect((await fileGit.blame(scope(), b, 'src/a.ts', '')).stats.cached).toBe(true);
    expect(await repoOf(git, b)).toBe(rb);
    b.close();
  });

  it('through the engine: a closed and reopened root reads its blame and history again', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ folderHandles: memoryFolders() })),
    );
    const spec = { kind: 'handle' as const, name: 'state-app', handle };
    const opened = await client.openRepo(spec).done;
    expect((await client.blame('src/a.ts').done).stats.cached).toBe(false);
    expect((await client.blame('src/a.ts').done).stats.cached).toBe(true);
    expect((await client.fileHistory('src/a.ts').done).stats.cached).toBe(false);
    expect((await client.fileHistory('src/a.ts').done).stats.cached).toBe(true);
    expect(await client.closeRoot(opened.stats.key)).toBe(true);
    await client.openRepo(spec).done;
    expect((await client.blame('src/a.ts').done).stats.cached).toBe(false);
    expect((await client.fileHistory('src/a.ts').done).stats.cached).toBe(false);
  });
});

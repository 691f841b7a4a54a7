/**
 * One root of the app's engine, directly: a RepoSession is a WorkspaceRoot (core/workspace):
 * its code index answers once its background build completes, its seed-004 index on demand,
 * its lines as the index reads them; closing it stops its build and releases its indexes and
 * every service's state.
 */
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../test/rejection';
import { lineChunker } from '../core/rank/line-chunker.testutil';
import { MemoryIndexStore } from '../core/rank/persist';
import { MemorySource } from '../core/source/memory';
import { Foreground } from '../core/jobs/yielder';
import { slot } from '../core/workspace/root-state';
import { RepoSession, indexStoreKey, type SessionDeps } from './session';
import { readSnapshot } from './snapshot';

const FILES = { 'src/a.ts': 'fn alpha\n  one\nfn beta\n  two\n', 'src/b.ts': 'fn gamma\n' };

async function open(store = new MemoryIndexStore()) {
  const snap = await readSnapshot(new MemorySource({ ...FILES }, { name: 'app' }), 'memory', {
    signal: new AbortController().signal,
    onProgress: () => undefined,
  });
  const deps: SessionDeps = {
    getChunker: async () => lineChunker as never,
    indexStore: store,
    foreground: new Foreground(),
    progressIntervalMs: 0,
  };
  return { session: RepoSession.fromSnapshot('memory:app', { kind: 'other' }, snap!, deps), store };
}

describe('RepoSession as a WorkspaceRoot', () => {
  it('answers the code index once built, the seed index on demand, and lines as the index reads them', async () => {
    const { session, store } = await open();
    expect(session.codeIndexReady).toBe(false);
    expect((await rejectionOf(session.codeIndex())).data).toMatchObject({ reason: 'indexNotReady' });
    const end = await session.buildIndex();
    expect(end.stats).toMatchObject({ ending: 'complete', refreshMode: 'full', chunksIndexed: 3 });
    expect(session.codeIndexReady).toBe(true);
    expect((await session.codeIndex()).chunksOf('src/a.ts').map((c) => c.symbolName)).toEqual([
      'alpha',
      'beta',
    ]);
    expect(await session.lines('src/b.ts')).toEqual(['fn gamma']);
    expect(await session.lines('src/none.ts')).toBeNull();
    const seed = await session.seedIndex();
    expect(seed.stats.refreshMode).toBe('full');
    expect((await session.seedIndex()).stats.refreshMode).toBe('cache_hit');
    expect([...store.data.keys()].sort()).toEqual([indexStoreKey('memory:app'), 'seed004:memory:app']);
  });

  it('closing releases the indexes and every service state; later calls say it was closed', async () => {
    const { session } = await open();
    await session.buildIndex();
    const vectors = slot<{ dispose(): void }>('vectors');
    let disposed = false;
    session.state.set(vectors, { dispose: () => (disposed = true) });
    session.close();
    expect(disposed).toBe(true);
    expect(session.state.size).toBe(0);
    expect(session.codeIndexReady).toBe(false);
    expect((await rejectionOf(session.seedIndex())).code).toBe('Cancelled');
    expect((await rejectionOf(session.buildIndex())).code).toBe('Cancelled');
  });

  it('a close during a build stops it; the build ends cancelled and leaves nothing behind', async () => {
    const { session } = await open();
    const build = session.buildIndex();
    session.close();
    const end = await build.catch((e: unknown) => e);
    expect(JSON.stringify(end)).toMatch(/cancel/i);
    expect(session.codeIndexReady).toBe(false);
  });
});

/**
 * Reopening from the stored listing, on one session: it answers its tree, quick open, file reads
 * and its stored index from the listing (the folder read only for the file asked for); the
 * reconcile switches it to the folder as it is, says what changed, and searches scan until the
 * index has caught up with the change.
 */
import { describe, expect, it } from 'vitest';
import { lineChunker } from '../core/rank/line-chunker.testutil';
import { MemoryIndexStore } from '../core/rank/persist';
import { Foreground } from '../core/jobs/yielder';
import { MemorySource } from '../core/source/memory';
import type { FileSource } from '../core/source/types';
import { RepoSession, type SessionDeps } from './session';
import { readSnapshot } from './snapshot';
import {
  decodeListing,
  encodeListing,
  ListingSource,
  loadListing,
  saveListing,
  SwitchingSource,
  type StoredListing,
} from './stored-listing';

const FILES = {
  'src/a.ts': 'fn alpha\n  one\n',
  'src/b.ts': 'fn beta\n',
  'README.md': '# app\n',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
};

/** A folder whose reads are counted (what a reopen reads before the reconcile). */
function folder(files: Record<string, string | Uint8Array>) {
  const source = new MemorySource({}, { name: 'app' });
  for (const [path, content] of Object.entries(files)) source.write(path, content, 1000);
  const reads: string[] = [];
  const raw: FileSource = {
    name: source.name,
    absoluteRoot: source.absoluteRoot,
    list: (d) => source.list(d),
    stat: (p) => source.stat(p),
    read: (p) => {
      reads.push(p);
      return source.read(p);
    },
  };
  return { source, raw, reads };
}

const read = (raw: FileSource) =>
  readSnapshot(raw, 'handle', { signal: new AbortController().signal, onProgress: () => undefined });

function deps(store: MemoryIndexStore): SessionDeps {
  return {
    getChunker: async () => lineChunker as never,
    indexStore: store,
    foreground: new Foreground(),
    progressIntervalMs: 0,
  };
}

/** First visit: read and index; returns the listing a reopen starts from. */
async function firstVisit(store: MemoryIndexStore): Promise<StoredListing> {
  const { raw } = folder(FILES);
  const session = RepoSession.fromSnapshot('recent:1', { kind: 'other' }, (await read(raw))!, deps(store));
  expect((await session.buildIndex()).stats.refreshMode).toBe('full');
  await saveListing(store, session.key, session.listing());
  return (await loadListing(store, session.key))!;
}

describe('the stored listing', () => {
  it('round-trips, and another version or damaged bytes are a miss', () => {
    const listing = {
      name: 'app',
      kind: 'handle' as const,
      files: [['a.ts', 3, 9] as const],
      skipped: [],
      bytes: 3,
    };
    expect(decodeListing(encodeListing(listing))).toEqual({ ...listing, version: 1 });
    expect(decodeListing(new TextEncoder().encode('{"version":99,"files":[],"skipped":[]}'))).toBeNull();
    expect(decodeListing(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it('holds each text file with the stamps its copy carries, and the skipped entries', async () => {
    const listing = await firstVisit(new MemoryIndexStore());
    expect(listing.files).toEqual([
      ['README.md', 6, 1000],
      ['src/a.ts', 15, 1000],
      ['src/b.ts', 8, 1000],
    ]);
    expect(listing.skipped).toEqual([{ path: 'logo.png', reason: 'binary' }]);
  });
});

describe('ListingSource and SwitchingSource', () => {
  it('list and stat come from the listing; a read goes to the folder, only for a listed file', async () => {
    const { raw, reads } = folder({ 'a/b.ts': 'new text' });
    const s = new ListingSource(
      [
        ['a/b.ts', 3, 7],
        ['c.ts', 1, 1],
      ],
      raw,
    );
    expect(await s.list('')).toEqual([
      { name: 'a', kind: 'directory' },
      { name: 'c.ts', kind: 'file' },
    ]);
    expect(await s.stat('a/b.ts')).toEqual({ kind: 'file', size: 3, mtimeMs: 7 });
    expect((await s.stat('a'))?.kind).toBe('directory');
    expect(await s.stat('zzz')).toBeNull();
    expect(new TextDecoder().decode(await s.read('a/b.ts'))).toBe('new text');
    await expect(s.read('unlisted.ts')).rejects.toMatchObject({ code: 'NotFound' });
    expect(reads).toEqual(['a/b.ts']);
  });

  it("answers from its target, with the target's own optional methods", async () => {
    const a = new MemorySource({ 'x.ts': 'a' });
    const b: FileSource = Object.assign(new MemorySource({ 'x.ts': 'bb' }), {
      readTransient: (p: string) => b.read(p),
    });
    const s = new SwitchingSource(a);
    expect(s.readTransient).toBeUndefined();
    expect((await s.stat('x.ts'))?.size).toBe(1);
    s.target = b;
    expect((await s.stat('x.ts'))?.size).toBe(2);
    expect(new TextDecoder().decode(await s.readTransient!('x.ts'))).toBe('bb');
  });
});

describe('a session reopened from its listing', () => {
  it('answers the tree, quick open, a file and its stored index before reading the folder', async () => {
    const store = new MemoryIndexStore();
    const listing = await firstVisit(store);
    const { raw, reads } = folder(FILES);
    const session = RepoSession.fromListing('recent:1', { kind: 'other' }, listing, raw, deps(store), 5);
    expect(session.stats).toMatchObject({ files: 3, fromListing: true, skippedByReason: { binary: 1 } });
    expect(session.listDir('').map((e) => e.name)).toEqual(['src', 'logo.png', 'README.md']);
    expect(session.quick.length).toBe(3);
    expect((await session.readFile('src/b.ts')).text).toBe('fn beta\n');
    expect(reads).toEqual(['src/b.ts']);
    // the stored index answers as it was
    expect((await session.buildIndex()).stats.refreshMode).toBe('cache_hit');
    expect(session.pendingReconcile).toBe(raw);
  });

  it('the reconcile switches it to the folder as it is, says what changed, and searches scan until the index caught up', async () => {
    const store = new MemoryIndexStore();
    const listing = await firstVisit(store);
    const { source, raw } = folder(FILES);
    const session = RepoSession.fromListing('recent:1', { kind: 'other' }, listing, raw, deps(store), 5);
    await session.buildIndex();
    expect(session.prefilter()).toBeDefined();
    // between the visits: one file changed, one added, one removed
    source.write('src/a.ts', 'fn alpha2\n', 2000);
    source.write('src/new.ts', 'fn delta\n', 2000);
    source.remove('src/b.ts');
    const diff = session.applySnapshot((await read(raw))!);
    expect(diff).toEqual({
      changed: ['src/a.ts'],
      added: ['src/new.ts'],
      removed: ['src/b.ts'],
      skippedChanged: false,
    });
    expect(session.pendingReconcile).toBeNull();
    expect(session.stats.fromListing).toBeUndefined();
    expect(session.listDir('src').map((e) => e.name)).toEqual(['a.ts', 'new.ts']);
    expect(session.quick.map((q) => q.path).sort()).toEqual(['README.md', 'src/a.ts', 'src/new.ts']);
    expect((await session.readFile('src/a.ts')).text).toBe('fn alpha2\n');
    // the old index would answer from the old files: searches scan until it is refreshed
    expect(session.prefilter()).toBeUndefined();
    const end = await session.buildIndex();
    expect(end.stats).toMatchObject({ refreshMode: 'incremental', filesChanged: 2, filesRemoved: 1 });
    expect(session.prefilter()).toBeDefined();
    expect(session.listing().files.map((f) => f[0])).toEqual(['README.md', 'src/a.ts', 'src/new.ts']);
  });

  it('nothing changed: the same tree and the index stays in use', async () => {
    const store = new MemoryIndexStore();
    const listing = await firstVisit(store);
    const { raw } = folder(FILES);
    const session = RepoSession.fromListing('recent:1', { kind: 'other' }, listing, raw, deps(store), 5);
    await session.buildIndex();
    const tree = session.tree;
    const diff = session.applySnapshot((await read(raw))!);
    expect(diff).toEqual({ changed: [], added: [], removed: [], skippedChanged: false });
    expect(session.tree).toBe(tree);
    expect(session.prefilter()).toBeDefined();
  });
});

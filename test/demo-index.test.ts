/**
 * The demo's index is built with the app (scripts/demo-index.ts, run by the `quarry-demo` Vite
 * plugin) and shipped beside the demo files: the engine that opens the same files must take it as
 * its own stored index (cache_hit), refresh only what differs, and keep its own saves.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDemoIndex, openIndexedDemo } from '../scripts/demo-index';
import { gunzipped } from '../src/adapters/browser/demo-bundle';
import {
  INDEX_FORMAT_VERSION,
  MemoryIndexStore,
  withShippedIndexes,
  type IndexStore,
} from '../src/core/rank/persist';
import { indexStoreKey } from '../src/worker/session';

const FILES = {
  'src/users.ts':
    'export interface User { id: string; name: string }\nexport function findUser(users: User[], id: string): User | undefined {\n  return users.find((u) => u.id === id);\n}\n',
  'src/orders.ts':
    "import { findUser, type User } from './users';\nexport function ownerOf(users: User[], order: { userId: string }) {\n  return findUser(users, order.userId);\n}\n",
  'README.md': '# Demo\n\nUsers and orders.\n',
};

async function openDemo(files: Record<string, string>, store: IndexStore, shipped: Uint8Array | null) {
  let fetched = 0;
  const indexStore = withShippedIndexes(store, {
    [indexStoreKey('demo')]: async () => {
      fetched++;
      return shipped;
    },
  });
  const { client, end } = await openIndexedDemo(files, indexStore);
  const stats = end.stats as unknown as { refreshMode: string; filesChanged: number; filesScanned: number };
  return { client, stats, fetched: () => fetched };
}

describe('the shipped demo index', () => {
  it('is the engine’s own stored index for the same files: a first open is a cache hit and ranks at once', async () => {
    const shipped = await buildDemoIndex(FILES);
    const store = new MemoryIndexStore();
    const { client, stats, fetched } = await openDemo(FILES, store, shipped);
    expect(stats.refreshMode).toBe('cache_hit');
    expect(stats.filesScanned).toBe(3);
    expect(fetched()).toBe(1);
    const ranked = await client.callTool('ranked_view', { query: 'findUser' });
    expect(ranked.hits[0].path).toBe('src/users.ts');
    client.dispose();
  });

  it('is built the same way twice (a build is reproducible)', async () => {
    expect(Buffer.from(await buildDemoIndex(FILES)).equals(Buffer.from(await buildDemoIndex(FILES)))).toBe(
      true,
    );
  });

  it('refreshes only the files that differ from it, and the refreshed index is stored and preferred from then on', async () => {
    const shipped = await buildDemoIndex(FILES);
    const store = new MemoryIndexStore();
    const changed = {
      ...FILES,
      'src/orders.ts': FILES['src/orders.ts'] + 'export const ORDERS_VERSION = 2;\n',
    };
    const first = await openDemo(changed, store, shipped);
    expect(first.stats.refreshMode).toBe('incremental');
    expect(first.stats.filesChanged).toBe(1);
    first.client.dispose();
    expect(store.data.has(indexStoreKey('demo'))).toBe(true);
    const again = await openDemo(changed, store, shipped);
    expect(again.stats.refreshMode).toBe('cache_hit');
    expect(again.fetched()).toBe(0);
    again.client.dispose();
  });

  it('answers in place of a stored index that cannot be read (damaged, another format version) or a store that cannot be opened', async () => {
    const shipped = await buildDemoIndex(FILES);
    const damaged = new MemoryIndexStore();
    const bad = shipped.slice();
    bad[bad.length - 5] ^= 0xff;
    await damaged.save(indexStoreKey('demo'), bad);
    const older = new MemoryIndexStore();
    const old = shipped.slice();
    new DataView(old.buffer).setUint32(4, INDEX_FORMAT_VERSION - 1, true);
    await older.save(indexStoreKey('demo'), old);
    const broken: IndexStore = {
      load: () => Promise.reject(new Error('IndexedDB is blocked')),
      save: async () => {},
    };
    for (const store of [damaged, older, broken]) {
      const { client, stats, fetched } = await openDemo(FILES, store, shipped);
      expect(stats.refreshMode).toBe('cache_hit');
      expect(fetched()).toBe(1);
      client.dispose();
    }
  });

  it('when it cannot be had (offline, a failed fetch, damaged bytes) the demo is indexed as before', async () => {
    for (const shipped of [null, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])]) {
      const { client, stats } = await openDemo(FILES, new MemoryIndexStore(), shipped);
      expect(stats.refreshMode).toBe('full');
      client.dispose();
    }
    const failing = withShippedIndexes(new MemoryIndexStore(), {
      'index:demo': () => Promise.reject(new Error('offline')),
    });
    await expect(failing.load('index:demo')).resolves.toBeNull();
    await expect(failing.load('index:other')).resolves.toBeNull();
  });
});

describe('the shipped demo index as fetched (gzipped by the build)', () => {
  it('is unpacked; bytes a host already unpacked pass as they are; damaged gzip is a miss', async () => {
    const index = await buildDemoIndex(FILES);
    const packed = new Uint8Array(gzipSync(index));
    expect(packed.length).toBeLessThan(index.length);
    expect(Buffer.from((await gunzipped(packed))!).equals(Buffer.from(index))).toBe(true);
    expect(await gunzipped(index)).toBe(index);
    const cut = packed.subarray(0, packed.length >> 1);
    expect(await gunzipped(cut)).toBeNull();
  });
});

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../core/source/memory';
import { Workspace } from '../../core/source/workspace';
import { CodeIndexService } from '../../core/rank/service';
import { IdbIndexStore } from './idb-index-store';

const chunker = async () => ({
  chunkFile: (path: string, text: string) => [
    {
      path,
      startLine: 1,
      endLine: text.split('\n').length,
      symbolName: 'all',
      chunkType: 'function' as const,
    },
  ],
});

describe('IdbIndexStore', () => {
  it('saves, loads and removes bytes by key', async () => {
    const store = new IdbIndexStore('test-db-1');
    expect(await store.load('a')).toBeNull();
    await store.save('a', new Uint8Array([1, 2, 3]));
    expect(Array.from((await store.load('a'))!)).toEqual([1, 2, 3]);
    await store.remove('a');
    expect(await store.load('a')).toBeNull();
  });
  it('lets a reopened service start with cache_hit', async () => {
    const source = new MemorySource({ 'a.ts': 'export const x = 1;\n', 'b.md': '# Title\ntext\n' });
    const first = new CodeIndexService(
      new Workspace([source]),
      chunker,
      new IdbIndexStore('test-db-2'),
      'repo',
    );
    expect((await first.refresh()).refreshMode).toBe('full');
    const again = new CodeIndexService(
      new Workspace([source]),
      chunker,
      new IdbIndexStore('test-db-2'),
      'repo',
    );
    expect((await again.refresh()).refreshMode).toBe('cache_hit');
    expect(again.index!.search('title', 5)).toEqual(first.index!.search('title', 5));
  });
});

/** The recent-files strip's list: order, caps, closing, and storage that holds anything. */
import { describe, expect, it } from 'vitest';
import {
  afterClose,
  MAX_RECENT_FILES,
  MAX_RECENT_REPOS,
  parseStore,
  pushRecent,
  RECENT_STORAGE_KEY,
  RecentFiles,
  workspaceId,
} from './recent-files';

describe('the list', () => {
  it('puts the newest first, once, and keeps at most the cap', () => {
    expect(pushRecent(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    expect(pushRecent([], '')).toEqual([]);
    const many = Array.from({ length: 20 }, (_, i) => `f${i}`).reduce<string[]>(
      (l, p) => pushRecent(l, p),
      [],
    );
    expect(many).toHaveLength(MAX_RECENT_FILES);
    expect(many[0]).toBe('f19');
  });

  it('opens the next file when the open one is closed', () => {
    expect(afterClose(['a', 'b', 'c'], 'a', 'a')).toBe('b');
    expect(afterClose(['a', 'b', 'c'], 'c', 'c')).toBe('b');
    expect(afterClose(['a', 'b', 'c'], 'b', 'a')).toBe('a');
    expect(afterClose(['a'], 'a', 'a')).toBe('');
  });

  it('names a workspace by its roots, not the app generation', () => {
    expect(workspaceId('demo#3')).toBe('demo');
    expect(workspaceId('git:x|recent:y#12')).toBe('git:x|recent:y');
  });
});

describe('storage', () => {
  it('drops what it cannot read', () => {
    expect(parseStore(null)).toEqual([]);
    expect(parseStore('{')).toEqual([]);
    expect(parseStore('{"a":1}')).toEqual([]);
    expect(parseStore(JSON.stringify([['demo', ['a', 'a', 3, '', 'b']], ['bad'], [1, []]]))).toEqual([
      ['demo', ['a', 'b']],
    ]);
    const lots = Array.from({ length: 50 }, (_, i) => [`r${i}`, ['x']]);
    expect(parseStore(JSON.stringify(lots))).toHaveLength(MAX_RECENT_REPOS);
  });

  it('keeps each repository apart and survives a new page', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    const a = new RecentFiles(storage);
    a.opened('demo', 'src/a.ts');
    a.opened('demo', 'README.md');
    a.opened('git:x', 'main.go');
    const before = a.list('demo');
    a.opened('demo', 'README.md'); // already first: the same list (a stable snapshot)
    expect(a.list('demo')).toBe(before);
    a.close('demo', 'src/a.ts');
    const b = new RecentFiles(storage);
    expect(b.list('demo')).toEqual(['README.md']);
    expect(b.list('git:x')).toEqual(['main.go']);
    expect(b.list('other')).toBe(b.list('another')); // the same empty list: no re-render loop
    expect(JSON.parse(data.get(RECENT_STORAGE_KEY)!)[0][0]).toBe('demo');
  });
});

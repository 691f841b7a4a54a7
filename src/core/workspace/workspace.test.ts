/**
 * RepoWorkspace, the one model of several roots every host holds: names and prefixes, routing
 * a workspace path to its root, roots coming and going (each closed when it leaves), and the
 * roots the tools see.
 */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import { MemorySource } from '../source/memory';
import type { WorkspaceRoot } from './root';
import { RootState, slot } from './root-state';
import { RepoWorkspace } from './workspace';

function fakeRoot(key: string, name: string, closed: string[]): WorkspaceRoot {
  return {
    key,
    source: new MemorySource({ 'a.ts': 'x' }, { name }),
    codeIndexReady: false,
    state: new RootState(),
    seedIndex: () => Promise.reject(new Error('unused')),
    codeIndex: () => Promise.reject(new Error('unused')),
    lines: async () => null,
    close: () => void closed.push(key),
  };
}

const thrown = (fn: () => unknown): QuarryError => {
  try {
    fn();
  } catch (e) {
    return e as QuarryError;
  }
  throw new Error('did not throw');
};

describe('RepoWorkspace', () => {
  it('with one root, paths are root-relative; with several, prefixed by unique names', () => {
    const closed: string[] = [];
    const ws = new RepoWorkspace([fakeRoot('k1', 'app', closed)]);
    expect(ws.route('/src/x.ts/')).toMatchObject({ rel: 'src/x.ts', prefix: '' });
    expect(ws.toolRoots().map((r) => [r.prefix, r.name])).toEqual([['', 'app']]);
    ws.add(fakeRoot('k2', 'app', closed));
    expect(ws.names()).toEqual(['app', 'app-2']);
    const routed = ws.route('app-2/lib/y.ts');
    expect(routed.root.key).toBe('k2');
    expect(routed).toMatchObject({ rel: 'lib/y.ts', prefix: 'app-2/' });
    expect(ws.toolRoots().map((r) => r.prefix)).toEqual(['app/', 'app-2/']);
    expect(ws.named('app-2')?.key).toBe('k2');
    expect(ws.named('k1')?.key).toBe('k1');
    expect(ws.named('app-2/')?.key).toBe('k2');
    expect(ws.named('nope')).toBeUndefined();
    const err = thrown(() => ws.route('other/z.ts'));
    expect(err.code).toBe('NotFound');
    expect(err.message).toBe('"other/z.ts" is not under any open root (app, app-2)');
    expect(closed).toEqual([]);
  });

  it('closes a root when it is removed, replaced by a reopen, or the workspace closes', () => {
    const closed: string[] = [];
    const ws = new RepoWorkspace([fakeRoot('k1', 'a', closed), fakeRoot('k2', 'b', closed)]);
    const reopened = fakeRoot('k1', 'a', closed);
    ws.add(reopened);
    expect(closed).toEqual(['k1']);
    expect(ws.roots[0]).toBe(reopened);
    expect(ws.remove('k2')).toBe(true);
    expect(ws.remove('k2')).toBe(false);
    expect(closed).toEqual(['k1', 'k2']);
    expect(ws.multiRoot).toBe(false);
    ws.replaceAll(fakeRoot('k3', 'c', closed));
    expect(closed).toEqual(['k1', 'k2', 'k1']);
    ws.close();
    expect(closed).toEqual(['k1', 'k2', 'k1', 'k3']);
    expect(ws.size).toBe(0);
  });

  it('with no root, every question is "no repository"; a path that is not a string is refused', () => {
    const ws = new RepoWorkspace();
    expect(thrown(() => ws.files()).message).toBe('No repository is open: open a folder or the demo first');
    expect(thrown(() => ws.route('a.ts')).data).toMatchObject({ reason: 'noRepository' });
    expect(ws.names()).toEqual([]);
    ws.add(fakeRoot('k', 'a', []));
    expect(thrown(() => ws.route(7 as unknown as string, 'file')).message).toBe('file must be a string');
  });

  it('lets a host decorate what the tools see without touching its roots', () => {
    const ws = new RepoWorkspace([fakeRoot('k1', 'a', [])]);
    const [tool] = ws.toolRoots((r) => ({ ...r, codeIndexReady: true }));
    expect(tool.root.codeIndexReady).toBe(true);
    expect(ws.roots[0].codeIndexReady).toBe(false);
  });
});

describe('RootState', () => {
  it('keeps what services store for a root, and releases (disposes) all of it when the root closes', () => {
    const state = new RootState();
    const vectors = slot<{ n: number; dispose(): void }>('vectors');
    const table = slot<Map<string, number>>('table');
    const disposed: string[] = [];
    const v = state.getOrMake(vectors, () => ({ n: 1, dispose: () => void disposed.push('vectors') }));
    expect(state.getOrMake(vectors, () => ({ n: 2, dispose: () => undefined }))).toBe(v);
    state.set(table, new Map([['a', 1]]));
    expect(state.size).toBe(2);
    state.clear();
    expect(disposed).toEqual(['vectors']);
    expect(state.get(vectors)).toBeUndefined();
    // a service finishing after the close does not bring the state back
    state.set(table, new Map());
    expect(state.getOrMake(vectors, () => ({ n: 3, dispose: () => undefined })).n).toBe(3);
    expect(state.size).toBe(0);
  });
});

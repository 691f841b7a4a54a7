/**
 * The workspace controller in Node, over a real engine on this thread: open, swap, cancel,
 * several roots, index builds, recovery after an engine restart, and restoring the address.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { EngineClient, inThreadTransport } from '../../worker/client';
import { createEngineApi } from '../../worker/engine';
import type { IndexRequest, LibraryEntry, LibraryInfo } from '../../worker/protocol';
import { DEFAULT_VIEW, type ViewState } from '../url-state';
import { WorkspaceController, type WorkspaceDeps } from './controller';

const APP = { 'src/cart.ts': 'export function addToCart(item: string) {\n  return item;\n}\n' };
const LIB = { 'lib/money.ts': 'export function formatMoney(cents: number) {\n  return cents / 100;\n}\n' };
const DEMO = { 'README.md': '# demo\n', 'src/demo.ts': 'export const demo = 1;\n' };

function bigFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 2000; i++) files[`d${i % 20}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  return files;
}

function setup(
  options: {
    url?: Partial<ViewState>;
    library?: LibraryEntry[];
    permission?: boolean;
    grammars?: boolean;
    whenIdle?: WorkspaceDeps['whenIdle'];
  } = {},
) {
  let demoLoads = 0;
  const client = new EngineClient(() =>
    inThreadTransport(
      createEngineApi({
        loadDemo: async () => {
          demoLoads++;
          return DEMO;
        },
        grammarLoader: options.grammars ? nodeGrammarLoader : undefined,
      }),
    ),
  );
  let view: ViewState = { ...DEFAULT_VIEW, ...options.url };
  const pushes: ViewState[] = [];
  const indexRequests: IndexRequest[] = [];
  const engine: WorkspaceDeps['engine'] = {
    openRepo: (...a) => client.openRepo(...a),
    closeRoot: (k) => client.closeRoot(k),
    roots: () => client.roots(),
    indexRepo: (...a) => {
      indexRequests.push(a[0]);
      return client.indexRepo(...a);
    },
    indexStatus: () => client.indexStatus(),
    cloneRepo: (...a) => client.cloneRepo(...a),
    recentFolders: async () => (options.library ?? []).filter((r) => r.source === 'folder' && r.handle),
    library: async (): Promise<LibraryInfo> => ({
      repos: options.library ?? [],
      storage: {
        usageBytes: null,
        quotaBytes: null,
        reposBytes: 0,
        persisted: false,
      } as LibraryInfo['storage'],
    }),
  };
  const controller = new WorkspaceController({
    engine,
    view: {
      get: () => view,
      update: (patch, o) => {
        view = { ...view, ...patch };
        if (o?.push) pushes.push(view);
      },
    },
    ensureReadPermission: async () => options.permission ?? true,
    whenIdle: options.whenIdle,
  });
  const indexDone = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        const s = controller.state.index.state;
        if (s !== 'building') {
          unsubscribe();
          resolve();
        }
      };
      const unsubscribe = controller.subscribe(check);
      check();
    });
  return {
    client,
    controller,
    view: () => view,
    pushes,
    indexDone,
    indexRequests,
    demoLoads: () => demoLoads,
  };
}

describe('WorkspaceController', { timeout: 60_000 }, () => {
  it('opens, writes the engine-made key to the address, and builds the index', async () => {
    const { client, controller, view, indexDone } = setup({ grammars: true });
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    expect(controller.state.roots.map((r) => [r.key, r.name])).toEqual([['memory:app', 'app']]);
    expect(view().repos).toEqual(['memory:app']);
    await new Promise((r) => setTimeout(r, 0)); // the deferred index start
    await indexDone();
    expect(controller.state.index).toMatchObject({
      state: 'ready',
      version: 1,
      last: { refreshMode: 'full', chunksIndexed: 1 },
    });
    expect(controller.indexReady).toBe(true);
    client.dispose();
  });

  it('swaps: a different repository replaces the workspace and closes the open file; a cancelled open keeps what was open', async () => {
    const { client, controller, view } = setup();
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    view().file = 'src/cart.ts';
    await controller.openDemo();
    expect(controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    expect(view()).toMatchObject({ repos: ['demo'], file: '' });

    const opening = controller.open({ kind: 'memory', name: 'big', files: bigFiles() });
    const { progress, cancel } = controller.state.opening!;
    progress.subscribe(cancel); // cancel once the engine reports it is reading
    await opening;
    expect(controller.state.opening).toBeNull();
    expect(controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    expect((await client.roots()).map((r) => r.key)).toEqual(['demo']);
    client.dispose();
  });

  it('adds and removes roots; the open file keeps pointing at the same file', async () => {
    const { client, controller, view } = setup();
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    view().file = 'src/cart.ts';
    await controller.open({ kind: 'memory', name: 'lib', files: LIB }, { add: true });
    expect(controller.state.roots.map((r) => r.name)).toEqual(['app', 'lib']);
    expect(view()).toMatchObject({ repos: ['memory:app', 'memory:lib'], file: 'app/src/cart.ts' });
    expect((await client.readFile(view().file)).text).toContain('addToCart');

    await controller.closeRoot('memory:lib');
    expect(controller.state.roots.map((r) => r.key)).toEqual(['memory:app']);
    expect(view()).toMatchObject({ repos: ['memory:app'], file: 'src/cart.ts' });
    expect((await client.readFile(view().file)).text).toContain('addToCart');
    await controller.closeRoot('memory:app'); // the last root stays
    expect(controller.state.roots).toHaveLength(1);
    client.dispose();
  });

  it('an added root is indexed alone: the other root keeps its index; the status line sums both', async () => {
    const { client, controller, indexDone, indexRequests } = setup({ grammars: true });
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    await new Promise((r) => setTimeout(r, 0));
    await indexDone();
    await controller.open({ kind: 'memory', name: 'lib', files: LIB }, { add: true });
    await new Promise((r) => setTimeout(r, 0));
    await indexDone();
    expect(indexRequests).toEqual([{ force: false }, { force: false, root: 'memory:lib' }]);
    expect(controller.state.index).toMatchObject({ state: 'ready', version: 2, last: { chunksIndexed: 2 } });
    // cancelling a running build ends it and says so
    controller.buildIndex(true);
    controller.cancelIndex();
    await indexDone();
    expect(controller.state.index.state).toBe('ready');
    client.dispose();
  });

  it('a build asked for while a Rebuild runs (a reconcile found a change) stays a full rebuild', async () => {
    const { client, controller, indexDone, indexRequests } = setup({ grammars: true });
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    await new Promise((r) => setTimeout(r, 0));
    await indexDone();
    controller.buildIndex(true);
    controller.buildIndex(false); // replaces the running rebuild
    await indexDone();
    expect(indexRequests.slice(1)).toEqual([{ force: true }, { force: true }]);
    expect(controller.state.index).toMatchObject({ state: 'ready', last: { refreshMode: 'full' } });
    // once it is over, a plain request is a plain refresh again
    controller.buildIndex(false);
    await indexDone();
    expect(indexRequests.at(-1)).toEqual({ force: false });
    expect(controller.state.index.last?.refreshMode).toBe('cache_hit');
    client.dispose();
  });

  it('a root removed before its index build starts: no build runs, nothing fails', async () => {
    const idle: Array<() => void> = [];
    const { client, controller, indexRequests } = setup({
      grammars: true,
      whenIdle: (fn) => (idle.push(fn), () => void idle.splice(idle.indexOf(fn), 1)),
    });
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    idle.splice(0).forEach((fn) => fn());
    await controller.open({ kind: 'memory', name: 'lib', files: LIB }, { add: true });
    await controller.closeRoot('memory:lib');
    idle.splice(0).forEach((fn) => fn());
    await new Promise((r) => setTimeout(r, 50));
    expect(indexRequests).toEqual([{ force: false }]);
    expect(controller.state.index.error ?? '').toBe('');
    expect(controller.state.index.state).not.toBe('failed');
    client.dispose();
  });

  it('removing a root renames the others as the engine does; the open file follows its root', async () => {
    const { client, controller, view } = setup();
    await controller.openDemo();
    await controller.open({ kind: 'memory', name: 'quarry', files: APP }, { add: true });
    await controller.open({ kind: 'memory', name: 'lib', files: LIB }, { add: true });
    expect(controller.state.roots.map((r) => r.name)).toEqual(['quarry', 'quarry-2', 'lib']);
    view().file = 'quarry-2/src/cart.ts';
    await controller.closeRoot('demo');
    expect(controller.state.roots.map((r) => r.name)).toEqual(['quarry', 'lib']);
    expect(view().file).toBe('quarry/src/cart.ts');
    expect((await client.readFile(view().file)).text).toContain('addToCart');
    client.dispose();
  });

  it('recovers after an engine restart: every root is opened again, in order', async () => {
    const { client, controller } = setup();
    await controller.open({ kind: 'memory', name: 'app', files: APP });
    await controller.open({ kind: 'memory', name: 'lib', files: LIB }, { add: true });
    await client.restart('test');
    expect(await client.roots()).toEqual([]);
    await controller.recover();
    expect((await client.roots()).map((r) => r.key)).toEqual(['memory:app', 'memory:lib']);
    expect(controller.state.roots.map((r) => r.key)).toEqual(['memory:app', 'memory:lib']);
    client.dispose();
  });

  it('reports a failed open and keeps what was open', async () => {
    const { client, controller } = setup();
    await controller.openDemo();
    await controller.open({ kind: 'git', id: 'gone', name: 'gone' });
    expect(controller.state.notice).toMatchObject({ kind: 'error', title: 'Could not open gone' });
    expect(controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    client.dispose();
  });
});

describe('restoring the address', { timeout: 60_000 }, () => {
  const folder = (id: string): LibraryEntry =>
    ({
      id,
      key: id,
      name: 'small-app',
      url: 'small-app',
      source: 'folder',
      handle: { name: 'small-app' } as FileSystemDirectoryHandle,
    }) as LibraryEntry;

  it('opens the demo on a first visit', async () => {
    const { client, controller, view, demoLoads } = setup();
    await controller.restore();
    expect(demoLoads()).toBe(1);
    expect(controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    expect(view().repos).toEqual(['demo']);
    client.dispose();
  });

  it('opens nothing for repo=none: no root, no notice (the home screen shows), the demo not read', async () => {
    const { client, controller, view, demoLoads } = setup({ url: { repos: ['none'] } });
    await controller.restore();
    expect(controller.state.notice).toBeNull();
    expect(controller.state.opening).toBeNull();
    expect(demoLoads()).toBe(0);
    expect(controller.state.roots).toEqual([]);
    expect(await client.roots()).toEqual([]);
    expect(view().repos).toEqual(['none']);
    // a first open cancelled leaves nothing open and nothing said: the home screen again
    const opening = controller.open({ kind: 'memory', name: 'big', files: bigFiles() });
    const { progress, cancel } = controller.state.opening!;
    progress.subscribe(cancel);
    await opening;
    expect(controller.state).toMatchObject({ roots: [], notice: null, opening: null });
    await controller.open({ kind: 'demo' });
    expect(demoLoads()).toBe(1);
    expect(view().repos).toEqual(['demo']);
    client.dispose();
  });

  it('opens the other roots an address names beside none', async () => {
    const { client, controller, view } = setup({ url: { repos: ['none', 'demo'] } });
    await controller.restore();
    expect(controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    expect(controller.state.notice).toBeNull();
    expect(view().repos).toEqual(['demo']);
    client.dispose();
  });

  it('explains each key it cannot open', async () => {
    const cases: Array<[Partial<ViewState>, object]> = [
      [{ repos: ['snapshot:disk-app'] }, { kind: 'snapshot-lost', name: 'disk-app' }],
      [
        { repos: ['git:gone'], clone: 'http://host/gone.git', cref: 'v1' },
        { kind: 'clone-offer', url: 'http://host/gone.git', ref: 'v1' },
      ],
      [{ repos: ['git:gone'] }, { kind: 'error', title: 'This repository is not in the library' }],
      // the clone URL in the address is the first clone root's: not offered for another
      [
        { repos: ['git:first', 'git:second'], clone: 'http://host/first.git' },
        { kind: 'clone-offer', url: 'http://host/first.git' },
      ],
      // the first problem is the one shown
      [{ repos: ['snapshot:a', 'git:gone'] }, { kind: 'snapshot-lost', name: 'a' }],
      [{ repos: ['recent:nope'] }, { kind: 'error', title: 'This folder is not in Recent any more' }],
      [{ repos: ['<script>'] }, { kind: 'error', title: 'This link names no repository Quarry knows' }],
    ];
    for (const [url, notice] of cases) {
      const { client, controller } = setup({ url });
      await controller.restore();
      expect(controller.state.notice).toMatchObject(notice);
      expect(controller.state.roots.map((r) => r.key)).toEqual(url.repos!.filter((k) => k === 'demo'));
      client.dispose();
    }
  });

  it('asks for permission again for a stored folder, and restores every root it can', async () => {
    const denied = setup({
      url: { repos: ['recent:f1'] },
      library: [folder('recent:f1')],
      permission: false,
    });
    await denied.controller.restore();
    expect(denied.controller.state.notice).toMatchObject({
      kind: 'permission',
      folder: { key: 'recent:f1' },
    });
    denied.client.dispose();

    const both = setup({ url: { repos: ['demo', 'snapshot:gone'] } });
    await both.controller.restore();
    expect(both.controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    expect(both.controller.state.notice).toMatchObject({ kind: 'snapshot-lost' });
    both.client.dispose();
  });
});

/**
 * ServedSource over a fake fetch, then the whole path for real: `quarry serve --root`'s server,
 * the engine opening {kind: 'served'} through fetch, and the workspace opening it at start only
 * when the page names it.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QuarryError } from '../../core/errors';
import { startServer, type RunningServer } from '../../cli/serve';
import { EngineClient, inThreadTransport } from '../../worker/client';
import { createEngineApi } from '../../worker/engine';
import type { LibraryInfo } from '../../worker/protocol';
import { DEFAULT_VIEW, type ViewState } from '../../ui/url-state';
import { WorkspaceController, type WorkspaceDeps } from '../../ui/workspace/controller';
import { ServedSource, servedRootName } from './served-source';

const BASE = 'http://127.0.0.1:4173/?repo=served%3Aapp';

function fakeFetch(files: unknown, raw: Record<string, string | number> = {}) {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    calls.push({ url, init });
    const rest = url.replace('http://127.0.0.1:4173/__quarry/root/', '');
    if (rest === 'files')
      return typeof files === 'function' ? (files as () => Response)() : Response.json(files);
    const answer = raw[decodeURIComponent(rest.replace(/^raw\//, ''))];
    if (typeof answer === 'number') return new Response('no', { status: answer });
    return answer === undefined ? new Response('not found', { status: 404 }) : new Response(answer);
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}

const LISTING = {
  name: 'app',
  files: [
    { path: 'README.md', size: 5, mtimeMs: 1000 },
    { path: 'src/a b#c.ts', size: 3, mtimeMs: 2000 },
    { path: 'src/deep/x.ts', size: 1 },
    // a backslash is a character of a POSIX file name, not a separator
    { path: 'back\\slash.ts', size: 2, mtimeMs: 3000 },
    // dropped: not a plain relative path, or a file's name used as a directory
    { path: '../escape.ts', size: 1 },
    { path: '/abs.ts', size: 1 },
    { path: 'a//b.ts', size: 1 },
    { path: 'src/./c.ts', size: 1 },
    { path: 'README.md/inner.ts', size: 1 },
    { path: 'nosize.ts' },
    { path: 'negative.ts', size: -1 },
    null,
    'text',
  ],
};

describe('ServedSource', () => {
  it('lists and stats from one fetched listing, dropping entries that are not plain relative paths', async () => {
    const { fetch, calls } = fakeFetch(LISTING);
    const source = new ServedSource('app', { base: BASE, fetch });
    expect(source.name).toBe('app');
    expect(source.absoluteRoot).toBe('/app');
    expect((await source.list('')).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'back\\slash.ts', kind: 'file' },
      { name: 'README.md', kind: 'file' },
      { name: 'src', kind: 'directory' },
    ]);
    expect(await source.stat('back\\slash.ts')).toEqual({ kind: 'file', size: 2, mtimeMs: 3000 });
    expect(await source.list('src')).toEqual([
      { name: 'a b#c.ts', kind: 'file' },
      { name: 'deep', kind: 'directory' },
    ]);
    expect(await source.stat('src/a b#c.ts')).toEqual({ kind: 'file', size: 3, mtimeMs: 2000 });
    expect(await source.stat('src/deep/x.ts')).toEqual({ kind: 'file', size: 1, mtimeMs: 0 });
    expect(await source.stat('src')).toMatchObject({ kind: 'directory' });
    expect(await source.stat('nosize.ts')).toBeNull();
    expect(await source.stat('escape.ts')).toBeNull();
    await expect(source.list('missing')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(source.list('README.md')).rejects.toMatchObject({ code: 'InvalidArgument' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://127.0.0.1:4173/__quarry/root/files');
    expect(calls[0].init).toMatchObject({ credentials: 'same-origin', cache: 'no-store', redirect: 'error' });
  });

  it('reads a listed file from raw/, each segment encoded, and asks for nothing unlisted', async () => {
    const { fetch, calls } = fakeFetch(LISTING, { 'src/a b#c.ts': 'abc', 'README.md': 500 });
    const source = new ServedSource('app', { base: BASE, fetch });
    expect(new TextDecoder().decode(await source.read('src/a b#c.ts'))).toBe('abc');
    expect(calls[1].url).toBe('http://127.0.0.1:4173/__quarry/root/raw/src/a%20b%23c.ts');
    await expect(source.read('README.md')).rejects.toMatchObject({ code: 'Unreadable' });
    await expect(source.read('src/deep/x.ts')).rejects.toMatchObject({ code: 'NotFound' }); // listed, gone from the server since
    const before = calls.length;
    await expect(source.read('secret.txt')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(source.read('../package.json')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(source.read('src')).rejects.toMatchObject({ code: 'InvalidArgument' });
    expect(calls.length).toBe(before);
  });

  it('says when the server is gone or serves no folder, and asks for the listing again next time', async () => {
    let answer: () => Response = () => {
      throw new TypeError('Failed to fetch');
    };
    const { fetch, calls } = fakeFetch(() => answer());
    const source = new ServedSource('app', { base: BASE, fetch });
    const err = await source.list('').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({
      code: 'NetworkError',
      message: expect.stringContaining('Is it still running?'),
    });
    answer = () => new Response('no folder', { status: 404 });
    await expect(source.list('')).rejects.toMatchObject({ code: 'NotFound' });
    answer = () => Response.json({ files: 'nope' });
    await expect(source.list('')).rejects.toMatchObject({ code: 'Unreadable' });
    answer = () => Response.json(LISTING);
    expect(await source.stat('README.md')).toMatchObject({ kind: 'file' });
    expect(calls).toHaveLength(4);
  });

  it('needs an address to resolve against', () => {
    expect(() => new ServedSource('app', { fetch: fakeFetch(LISTING).fetch })).toThrow(/address/);
  });
});

describe('servedRootName', () => {
  const doc = (content: string | null) =>
    ({
      querySelector: (selector: string) =>
        selector === 'meta[name="quarry-served-root"]' && content !== null
          ? { getAttribute: (n: string) => (n === 'content' ? content : null) }
          : null,
    }) as unknown as Document;

  it('reads the folder name from the page, or null without the tag', () => {
    expect(servedRootName(doc('my <app>'))).toBe('my <app>');
    expect(servedRootName(doc(null))).toBeNull();
    expect(servedRootName(doc(''))).toBeNull();
    expect(servedRootName(undefined)).toBeNull();
  });
});

describe('a served folder in the app', () => {
  let tmp = '';
  let server: RunningServer;
  const realFetch = globalThis.fetch;
  const requests: string[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(tmpdir(), 'quarry-served-'));
    fs.mkdirSync(path.join(tmp, 'dist'));
    fs.writeFileSync(path.join(tmp, 'dist/index.html'), '<html><head></head><body></body></html>');
    fs.mkdirSync(path.join(tmp, 'shop/src'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'shop/node_modules/dep'), { recursive: true });
    fs.writeFileSync(
      path.join(tmp, 'shop/src/cart.ts'),
      'export function addToCart(item: string) {\n  return item;\n}\n',
    );
    fs.writeFileSync(path.join(tmp, 'shop/README.md'), '# shop\n');
    fs.writeFileSync(path.join(tmp, 'shop/node_modules/dep/index.js'), 'module.exports = 1;\n');
    server = await startServer({ port: 0, distDir: path.join(tmp, 'dist'), root: path.join(tmp, 'shop') });
    vi.stubGlobal('location', { href: server.url, origin: server.url.slice(0, -1) });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(String(input));
      return realFetch(input, init);
    });
  });

  afterEach(() => {
    requests.length = 0;
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function setup(url: Partial<ViewState>, servedRoot: string | null) {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ loadDemo: async () => ({ 'README.md': '# demo\n' }) })),
    );
    let view: ViewState = { ...DEFAULT_VIEW, ...url };
    const engine: WorkspaceDeps['engine'] = {
      openRepo: (...a) => client.openRepo(...a),
      closeRoot: (k) => client.closeRoot(k),
      roots: () => client.roots(),
      indexRepo: (...a) => client.indexRepo(...a),
      indexStatus: () => client.indexStatus(),
      cloneRepo: (...a) => client.cloneRepo(...a),
      recentFolders: async () => [],
      library: async (): Promise<LibraryInfo> => ({
        repos: [],
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
      view: { get: () => view, update: (patch) => void (view = { ...view, ...patch }) },
      whenIdle: () => () => {}, // no index build
      servedRoot,
    });
    return { controller, client, view: () => view };
  }

  it('opens the folder the page names on a first visit, instead of the demo', async () => {
    const { controller, client, view } = setup({}, 'shop');
    await controller.restore();
    expect(controller.state.notice).toBeNull();
    expect(controller.state.roots.map((r) => [r.key, r.stats.kind, r.stats.files])).toEqual([
      ['served:shop', 'served', 2],
    ]);
    expect(view().repos).toEqual(['served:shop']);
    expect(await client.listDir('src')).toMatchObject([{ name: 'cart.ts', kind: 'file' }]);
    expect(requests.filter((u) => u.endsWith('/files'))).toHaveLength(1);
    expect(requests.every((u) => u.startsWith(server.url + '__quarry/root/'))).toBe(true);
  });

  it('reopens it on a reload of its address', async () => {
    const { controller } = setup({ repos: ['served:shop'], file: 'src/cart.ts' }, 'shop');
    await controller.restore();
    expect(controller.state.roots.map((r) => r.key)).toEqual(['served:shop']);
  });

  it('asks the network for nothing when the page names no folder', async () => {
    const first = setup({}, null);
    await first.controller.restore();
    expect(first.controller.state.roots.map((r) => r.key)).toEqual(['demo']);
    const reload = setup({ repos: ['served:shop'] }, null);
    await reload.controller.restore();
    expect(reload.controller.state.roots).toEqual([]);
    expect(reload.controller.state.notice).toMatchObject({ kind: 'error', title: 'shop is not served here' });
    expect(requests).toEqual([]);
  });
});

/**
 * Issue 34, `quarry serve --root` (rows 10 and 12): a file named `back\slash.ts` is listed and
 * served, to the app's served source too; /__quarry/root/* answers only requests carrying the
 * run's token, which the page carries; concurrent listings share one walk.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NodeFsSource } from '../adapters/node/fs';
import { ServedSource } from '../adapters/browser/served-source';
import { MemorySource } from '../core/source/memory';
import type { FileSource } from '../core/source/types';
import { serveCommand, startServer, type RunningServer } from './serve';
import { ServedFolder } from './served-folder';

const TOKEN = 'test-token_0123456789abcdef';
let tmp = '';
let dist = '';
let root = '';
let wide = '';
let app: RunningServer;

function write(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** A GET with the path sent as given, and the headers given. */
function get(server: { port: number }, rawPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: server.port, path: rawPath, headers, agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

const withToken = { 'X-Quarry-Token': TOKEN };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(tmpdir(), 'quarry-serve-hard-'));
  dist = path.join(tmp, 'dist');
  write(path.join(dist, 'index.html'), '<html><head><title>Quarry</title></head><body></body></html>');
  write(path.join(tmp, 'outside/secret.txt'), 'outside the root\n');
  root = path.join(tmp, 'proj');
  write(path.join(root, 'back\\slash.ts'), 'export const slash = 1;\n');
  write(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  wide = path.join(tmp, 'wide');
  for (let i = 0; i < 2000; i++)
    write(path.join(wide, `d${i % 40}`, `f${i}.ts`), `export const f${i} = ${i};\n`);
  app = await startServer({ port: 0, distDir: dist, root, token: TOKEN });
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('row 10: a file name holding a backslash', () => {
  it('is listed and served', async () => {
    const listing = await get(app, '/__quarry/root/files', withToken);
    expect(listing.status).toBe(200);
    expect((JSON.parse(listing.body) as { files: Array<{ path: string }> }).files.map((f) => f.path)).toEqual(
      ['back\\slash.ts', 'src/a.ts'],
    );
    const raw = await get(app, '/__quarry/root/raw/back%5Cslash.ts', withToken);
    expect(raw.status).toBe(200);
    expect(raw.body).toBe('export const slash = 1;\n');
  });

  it('is still no way out: of the folder (not listed) or of the app (refused)', async () => {
    const out = await get(app, '/__quarry/root/raw/..%5C..%5Coutside%5Csecret.txt', withToken);
    expect(out.status).toBe(404);
    expect(out.body).not.toContain('outside the root');
    for (const p of ['/assets%5C..%5C..%5Cpackage.json', '/..%5Cpackage.json'])
      expect((await get(app, p)).status, p).toBe(403);
  });

  it("reaches the app's served source: listed and readable", async () => {
    const source = new ServedSource('proj', { base: app.url });
    expect((await source.list('')).map((e) => e.name).sort()).toEqual(['back\\slash.ts', 'src']);
    expect(new TextDecoder().decode(await source.read('back\\slash.ts'))).toBe('export const slash = 1;\n');
  });
});

describe('row 12: the token', () => {
  it('quarry serve puts a token in the page and refuses /__quarry/root/* without it', async () => {
    const out: string[] = [];
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(
      { port: '0', roots: [root], distDir: dist },
      { stdout: (s) => out.push(s), stderr: () => {} },
      () => stopped,
    );
    try {
      while (!out.length) await new Promise((r) => setTimeout(r, 10));
      const port = Number(/:(\d+)\//.exec(out[0])![1]);
      const html = (await get({ port }, '/')).body;
      const token = /<meta name="quarry-served-token" content="([\w-]{32})" \/>/.exec(html)?.[1];
      expect(token, html).toBeDefined();
      for (const p of ['/__quarry/root/files', '/__quarry/root/raw/src/a.ts']) {
        const wrong: Array<Record<string, string>> = [
          {},
          { 'X-Quarry-Token': 'guessed' },
          { 'X-Quarry-Token': token!.slice(1) },
        ];
        for (const headers of wrong) {
          const refused = await get({ port }, p, headers);
          expect(refused.status, `${p} ${JSON.stringify(headers)}`).toBe(403);
          expect(refused.headers['x-quarry-refused']).toBe('token');
          expect(refused.body).not.toContain('export const');
        }
        expect((await get({ port }, p, { 'X-Quarry-Token': token! })).status).toBe(200);
      }
      // a second run has a token of its own
      const other = await startServer({ port: 0, distDir: dist, root, token: 'another' });
      expect((await get(other, '/__quarry/root/files', { 'X-Quarry-Token': token! })).status).toBe(403);
      await other.close();
    } finally {
      stop();
      await running;
    }
  });

  it("the app's source reads the token from the page once, then sends it with every request", async () => {
    // a server of its own: another origin, whose token no source of this realm has read yet
    const server = await startServer({ port: 0, distDir: dist, root, token: TOKEN });
    const sent: Array<[string, string | null]> = [];
    const recording: typeof fetch = (input, init) => {
      sent.push([String(input).replace(server.url, '/'), new Headers(init?.headers).get('X-Quarry-Token')]);
      return fetch(input, init);
    };
    try {
      const first = new ServedSource('proj', { base: `${server.url}?repo=served%3Aproj`, fetch: recording });
      await first.read('src/a.ts');
      // a Refresh opens a new source: it sends the token at once
      const later = new ServedSource('proj', { base: server.url, fetch: recording });
      await later.read('src/a.ts');
    } finally {
      await server.close();
    }
    expect(sent).toEqual([
      ['/__quarry/root/files', null], // refused: this realm (the engine's worker) has no page
      ['/', null], // the page's HTML, with the token
      ['/__quarry/root/files', TOKEN],
      ['/__quarry/root/raw/src/a.ts', TOKEN],
      ['/__quarry/root/files', TOKEN],
      ['/__quarry/root/raw/src/a.ts', TOKEN],
    ]);
  });
});

describe('row 12: concurrent listings share one walk', () => {
  it('50 concurrent GET /__quarry/root/files share one walk (each request walked the tree alone)', async () => {
    // The root's first read waits until all 50 requests have asked for the listing, so every one
    // of them comes while that walk runs, however fast this machine connects sockets and walks.
    let asked = 0;
    let release = () => {};
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    const listing = ServedFolder.prototype.listing;
    const ask = vi.spyOn(ServedFolder.prototype, 'listing').mockImplementation(function (this: ServedFolder) {
      if (++asked === 50) release();
      return listing.call(this);
    });
    const read = NodeFsSource.prototype.list;
    const list = vi.spyOn(NodeFsSource.prototype, 'list').mockImplementation(async function (
      this: NodeFsSource,
      dir: string,
    ) {
      if (dir === '') await allAsked;
      return read.call(this, dir);
    });
    const server = await startServer({ port: 0, distDir: dist, root: wide, token: TOKEN });
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => get(server, '/__quarry/root/files', withToken)),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(JSON.parse(answers[0].body).files).toHaveLength(2000);
      expect(list.mock.calls.filter(([dir]) => dir === '').length).toBe(1);
    } finally {
      release();
      ask.mockRestore();
      list.mockRestore();
      await server.close();
    }
  });

  it('ServedFolder: callers that come while a walk runs share it; one that comes after walks afresh', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const memory = new MemorySource({ 'a.ts': 'a\n', 'b/c.ts': 'c\n' }, { name: 'm' });
    const gated: FileSource = Object.assign(Object.create(memory) as FileSource, {
      list: async (dir: string) => {
        await gate;
        return memory.list(dir);
      },
    });
    const folder = new ServedFolder(gated);
    const listings = Array.from({ length: 50 }, () => folder.listing());
    const read = folder.read('a.ts');
    release();
    const all = await Promise.all(listings);
    expect(folder.walks).toBe(1);
    expect(new Set(all.map((l) => l.body)).size).toBe(1);
    expect(all[0].files.map((f) => f.path)).toEqual(['a.ts', 'b/c.ts']);
    expect(new TextDecoder().decode((await read)!)).toBe('a\n');
    expect(await folder.read('nope.ts')).toBeNull();
    expect(folder.walks).toBe(1);
    await folder.listing();
    expect(folder.walks).toBe(2);
  });
});

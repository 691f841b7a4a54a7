/** `quarry serve` over a temporary dist/ and a temporary --root folder (no real build needed). */
import * as fs from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../core/errors';
import { runCli } from './main';
import { parsePort, serveCommand, startServer, type RunningServer } from './serve';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Quarry</title>
    <script type="module" crossorigin src="./assets/index-AbC123.js"></script>
  <link rel="manifest" href="./manifest.webmanifest"><script id="vite-plugin-pwa:register-sw" src="./registerSW.js" defer></script></head>
  <body><div id="root"></div></body>
</html>
`;

/** An odd folder name: every character HTML escapes, and a replacement pattern. */
const FOLDER = `proj <&"'> $&`;

let tmp = '';
let dist = '';
let root = '';
let outside = '';
let app: RunningServer;
let plain: RunningServer;

function write(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with the path sent exactly as given (fetch would normalize '..' away). */
function request(
  server: RunningServer,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: rawPath,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(tmpdir(), 'quarry-serve-'));
  dist = path.join(tmp, 'dist');
  write(path.join(dist, 'index.html'), INDEX_HTML);
  write(path.join(dist, 'assets/index-AbC123.js'), 'console.log(1);\n');
  write(path.join(dist, 'assets/tree-sitter-x-Q1w2.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  write(path.join(dist, 'assets/model/group1-shard1of1-abcdef.bin'), Buffer.from([1, 2, 3]));
  write(path.join(dist, 'manifest.webmanifest'), '{"name":"Quarry"}');
  write(path.join(dist, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write(path.join(dist, 'worker.mjs'), 'export {};\n');
  write(path.join(dist, 'registerSW.js'), "navigator.serviceWorker.register('./sw.js')");
  write(path.join(dist, 'sw.js'), '/* the precaching worker */');
  write(path.join(tmp, 'package.json'), '{"name":"not-in-dist"}');

  outside = path.join(tmp, 'outside');
  write(path.join(outside, 'secret.txt'), 'outside the root\n');
  root = path.join(tmp, FOLDER);
  write(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  write(path.join(root, 'src/deep/b.ts'), 'export const b = 2;\n');
  write(path.join(root, 'README.md'), '# served\n');
  write(path.join(root, '.gitignore'), 'ignored.txt\n');
  write(path.join(root, 'ignored.txt'), 'gitignored\n');
  write(path.join(root, '.git/config'), '[core]\n');
  write(path.join(root, 'node_modules/x/index.js'), 'module.exports = 1;\n');
  write(path.join(root, 'swapped.ts'), 'export const s = 1;\n');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
  fs.symlinkSync(outside, path.join(root, 'dir-out'));
  fs.symlinkSync(path.join(root, 'src/a.ts'), path.join(root, 'link-in.ts'));

  app = await startServer({ port: 0, distDir: dist, root });
  plain = await startServer({ port: 0, distDir: dist });
});

afterAll(async () => {
  await app?.close();
  await plain?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('quarry serve: the app', () => {
  it('listens on 127.0.0.1 with a free port for --port 0', () => {
    expect(app.url).toBe(`http://127.0.0.1:${app.port}/`);
    expect(app.port).toBeGreaterThan(0);
  });

  it('serves each file with its MIME type, hashed assets immutable and the rest revalidated', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['/assets/index-AbC123.js', 'text/javascript; charset=utf-8', /immutable/],
      ['/assets/tree-sitter-x-Q1w2.wasm', 'application/wasm', /immutable/],
      ['/assets/model/group1-shard1of1-abcdef.bin', 'application/octet-stream', /immutable/],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8', /^no-cache$/],
      ['/worker.mjs', 'text/javascript; charset=utf-8', /^no-cache$/],
      ['/icon.svg', 'image/svg+xml', /^no-cache$/],
    ];
    for (const [p, type, cache] of cases) {
      const res = await request(app, p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type'], p).toBe(type);
      expect(res.headers['cache-control'], p).toMatch(cache);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await request(app, '/assets/tree-sitter-x-Q1w2.wasm')).body).toEqual(
      Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]),
    );
  });

  it('answers a revalidation with 304 when the file has not changed', async () => {
    const first = await request(app, '/icon.svg');
    const again = await request(app, '/icon.svg', {
      headers: { 'If-None-Match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves index.html (no-cache) for / and any other page path, without the service worker registration', async () => {
    for (const p of ['/', '/index.html', '/some/route', '/search?repo=demo&q=x']) {
      const res = await request(plain, p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const html = res.body.toString();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('./assets/index-AbC123.js');
      expect(html).not.toContain('registerSW.js');
      expect(html).not.toContain('quarry-served-root');
    }
  });

  it('answers /sw.js with a worker that retires an earlier service worker', async () => {
    const res = await request(app, '/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.toString()).toContain('registration.unregister()');
  });

  it('answers 404 for a missing asset instead of the app', async () => {
    for (const p of [
      '/assets/missing-123.js',
      '/missing.png',
      '/assets/nothing',
      '/assets/',
      '/__quarry/other',
    ]) {
      const res = await request(app, p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString()).not.toContain('<div id="root">');
    }
  });

  it('refuses paths that climb out of dist/, written plainly or encoded', async () => {
    for (const p of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/%2e%2e/etc/passwd',
      '/assets/..%2f..%2fpackage.json',
      '/assets/..%5c..%5cpackage.json',
      '/./index.html',
    ]) {
      const res = await request(app, p);
      expect(res.status, p).toBe(403);
      expect(res.body.toString()).not.toContain('not-in-dist');
    }
    expect((await request(app, '/%E0%A4%A')).status).toBe(400);
  });

  it('supports HEAD: the headers of GET and no body', async () => {
    const get = await request(app, '/assets/index-AbC123.js');
    const head = await request(app, '/assets/index-AbC123.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(head.body.length).toBe(0);
    const index = await request(app, '/', { method: 'HEAD' });
    expect(index.status).toBe(200);
    expect(Number(index.headers['content-length'])).toBeGreaterThan(0);
    expect(index.body.length).toBe(0);
    expect((await request(app, '/__quarry/root/files', { method: 'HEAD' })).body.length).toBe(0);
  });

  it('refuses other methods', async () => {
    const res = await request(app, '/', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('quarry serve --root: the folder', () => {
  it('names the folder in index.html, HTML-escaped, so the app opens it', async () => {
    const html = (await request(app, '/')).body.toString();
    expect(html).toContain(
      '<meta name="quarry-served-root" content="proj &#60;&#38;&#34;&#39;&#62; $&#38;" /></head>',
    );
    expect(html).not.toContain(FOLDER);
  });

  it('lists what the walk policy admits: no .git, node_modules, ignored files or links leading outside', async () => {
    const res = await request(app, '/__quarry/root/files');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(res.body.toString()) as {
      name: string;
      files: Array<{ path: string; size: number; mtimeMs: number }>;
    };
    expect(body.name).toBe(FOLDER);
    expect(body.files.map((f) => f.path)).toEqual([
      '.gitignore',
      'README.md',
      'link-in.ts',
      'src/a.ts',
      'src/deep/b.ts',
      'swapped.ts',
    ]);
    expect(body.files.find((f) => f.path === 'src/a.ts')).toMatchObject({
      size: 20,
      mtimeMs: expect.any(Number),
    });
  });

  it('serves the bytes of a listed file, and nothing else', async () => {
    const a = await request(app, '/__quarry/root/raw/src/a.ts');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/octet-stream');
    expect(a.body.toString()).toBe('export const a = 1;\n');
    expect((await request(app, '/__quarry/root/raw/link-in.ts')).body.toString()).toBe(
      'export const a = 1;\n',
    );
    for (const p of [
      'ignored.txt',
      '.git/config',
      'node_modules/x/index.js',
      'link-out.txt',
      'dir-out/secret.txt',
      'src',
      'missing.ts',
    ]) {
      const res = await request(app, `/__quarry/root/raw/${p}`);
      expect(res.status, p).toBe(404);
      expect(res.body.toString()).not.toContain('outside the root');
    }
  });

  it('refuses a climb out of the folder', async () => {
    for (const p of [
      '/__quarry/root/raw/../../etc/passwd',
      '/__quarry/root/raw/%2e%2e/%2e%2e/etc/passwd',
      '/__quarry/root/raw/src/..%2f..%2foutside%2fsecret.txt',
    ]) {
      const res = await request(app, p);
      expect(res.status, p).toBe(403);
      expect(res.body.toString()).not.toMatch(/root:|outside the root/);
    }
  });

  it('refuses a listed file that became a link leading outside', async () => {
    await request(app, '/__quarry/root/files');
    const file = path.join(root, 'swapped.ts');
    fs.rmSync(file);
    fs.symlinkSync(path.join(outside, 'secret.txt'), file);
    try {
      const res = await request(app, '/__quarry/root/raw/swapped.ts');
      expect(res.status).toBe(403);
      expect(res.body.toString()).not.toContain('outside the root');
    } finally {
      fs.rmSync(file);
      fs.writeFileSync(file, 'export const s = 1;\n');
    }
  });

  it('answers the folder only to loopback host names (no DNS rebinding)', async () => {
    expect(
      (await request(app, '/__quarry/root/files', { headers: { Host: 'evil.example:80' } })).status,
    ).toBe(403);
    expect(
      (await request(app, '/__quarry/root/raw/src/a.ts', { headers: { Host: 'evil.example' } })).status,
    ).toBe(403);
    expect(
      (await request(app, '/__quarry/root/files', { headers: { Host: `localhost:${app.port}` } })).status,
    ).toBe(200);
  });

  it('exposes nothing without --root', async () => {
    expect((await request(plain, '/__quarry/root/files')).status).toBe(404);
    expect((await request(plain, '/__quarry/root/raw/src/a.ts')).status).toBe(404);
  });
});

describe('quarry serve: the command', () => {
  it('prints the address, serves until stopped, then closes', async () => {
    const out: string[] = [];
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(
      { port: '0', roots: [root], distDir: dist },
      { stdout: (s) => out.push(s), stderr: (s) => out.push(s) },
      () => stopped,
    );
    while (!out.length) await new Promise((r) => setTimeout(r, 10));
    const m = /^Quarry at http:\/\/127\.0\.0\.1:(\d+)\/\n$/.exec(out[0]);
    expect(m).not.toBeNull();
    const port = Number(m![1]);
    const res = await request({ port, url: '', close: async () => {} }, '/');
    expect(res.body.toString()).toContain('quarry-served-root');
    stop();
    await running;
    await expect(request({ port, url: '', close: async () => {} }, '/')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses a port that is not an integer from 0 to 65535', async () => {
    expect(parsePort(undefined)).toBe(4173);
    expect(parsePort('0')).toBe(0);
    expect(parsePort('65535')).toBe(65535);
    for (const bad of ['', 'abc', '-1', '1.5', '65536', '99999999', '0x50', ' 80']) {
      expect(() => parsePort(bad), bad).toThrow(QuarryError);
    }
    const out: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: () => {}, env: {} };
    expect(await runCli(['serve', '--port', 'abc'], io)).toBe(2);
    expect(JSON.parse(out.join(''))).toEqual({
      error: {
        code: 'InvalidArgument',
        message: expect.stringContaining('--port abc: not a port'),
        data: { field: 'port', value: 'abc' },
      },
    });
    out.length = 0;
    expect(await runCli(['serve', '--port=70000'], io)).toBe(2);
    expect(out.join('')).toContain('--port 70000: not a port');
    out.length = 0;
    expect(await runCli(['serve', '--port'], io)).toBe(2);
    expect(out.join('')).toContain('--port needs a number');
  });

  it('refuses a --root that is not a directory', async () => {
    const out: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: () => {}, env: {} };
    const file = path.join(root, 'README.md');
    expect(await runCli(['serve', '--port', '0', '--root', file], io)).toBe(2);
    expect(JSON.parse(out.join('')).error).toMatchObject({
      code: 'InvalidArgument',
      message: `--root ${file}: not a directory`,
    });
    out.length = 0;
    expect(await runCli(['serve', '--root', path.join(tmp, 'nope')], io)).toBe(2);
    expect(out.join('')).toContain('no such directory');
    await expect(startServer({ port: 0, distDir: dist, root: file })).rejects.toThrow(/not a directory/);
  });

  it('says which port is in use', async () => {
    const err = await startServer({ port: app.port, distDir: dist }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('InvalidArgument');
    expect((err as QuarryError).message).toBe(
      `Port ${app.port} is already in use on 127.0.0.1: pass another --port (--port 0 picks a free one)`,
    );
    await expect(
      serveCommand(
        { port: String(app.port), roots: [], distDir: dist },
        { stdout: () => {}, stderr: () => {} },
      ),
    ).rejects.toThrow(`Port ${app.port} is already in use`);
  });

  it('is in the help', async () => {
    const out: string[] = [];
    expect(await runCli(['--help'], { stdout: (s) => out.push(s), stderr: () => {}, env: {} })).toBe(0);
    expect(out.join('')).toContain('quarry serve [--port N] [--root DIR]');
    expect(out.join('')).toContain('--port N');
  });
});

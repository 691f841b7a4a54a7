/**
 * `quarry serve [--port N] [--root DIR]`: the built app (dist/) over node:http on 127.0.0.1, so a
 * team runs Quarry from the package with one command; dist/ is built with Vite first when missing.
 *
 * With --root the folder is exposed read-only beside the app, and index.html names it in
 * `<meta name="quarry-served-root">`, which is what makes the app open it (the app requests
 * nothing by itself unless that tag is there):
 *   GET /__quarry/root/files       {name, files: [{path, size, mtimeMs}]}: what the walk policy admits
 *   GET /__quarry/root/raw/<path>  the bytes of a listed file (nothing else: no climb, no escaping link)
 * Both want the run's token in an `X-Quarry-Token` header: index.html carries it
 * (`<meta name="quarry-served-token">`), so only a page this server sent (same origin) can read
 * it, and any other web page's blind request is refused with 403 before anything is walked or
 * read. The listing is one shared walk at a time (served-folder.ts). A file name may hold a
 * backslash (a POSIX name character, `back\slash.ts`): it is listed and served like any other.
 *
 * The app is served without its service worker: a precached index.html would answer every visit
 * to this address with the folder (or no folder) of an earlier run. /sw.js is a script that
 * removes a worker an earlier visit installed here (`vite preview` uses the same port).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QuarryError } from '../core/errors';
import { NodeFsSource } from '../adapters/node/fs';
import { ServedFolder } from './served-folder';

export const DEFAULT_PORT = 4173;
export const DEFAULT_HOST = '127.0.0.1';
/** Where the served folder lives on the server (the app's adapters/browser/served-source.ts asks here). */
export const ROOT_PREFIX = '__quarry';
/** The page's copy of the token (served-source.ts reads it) and the request header that carries it back. */
export const TOKEN_META = 'quarry-served-token';
export const TOKEN_HEADER = 'x-quarry-token';
/** Says a 403 was for a missing or wrong token (the app then reads the page's token and asks again). */
export const REFUSED_HEADER = 'X-Quarry-Refused';

export interface ServeOptions {
  /** 0 picks a free port (default DEFAULT_PORT). */
  port?: number;
  host?: string;
  /** A directory to expose read-only and open in the app. */
  root?: string;
  /** The built app (default: the package's dist/, built with Vite when its index.html is missing). */
  distDir?: string;
  /** Progress lines (the build). */
  log?: (line: string) => void;
  /**
   * When set, every /__quarry/root/ request must carry it (header X-Quarry-Token) and index.html
   * carries it; `quarry serve` always sets a fresh random one (newToken).
   */
  token?: string;
}

/** A fresh token for one run of the server: 24 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.bin': 'application/octet-stream',
};

/** Replaces a service worker an earlier visit installed at this address, then reloads its pages from this server. */
const RETIRING_SERVICE_WORKER = `// quarry serve runs the app without a service worker: this one removes the worker (and its precache)
// an earlier visit installed at this address, then reloads the pages it controlled from the server.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    await self.clients.claim();
    await self.registration.unregister();
    for (const key of await caches.keys()) if (key.startsWith('workbox-precache')) await caches.delete(key);
    for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url);
  })());
});
`;

const REGISTER_SW_SCRIPT = /<script id="vite-plugin-pwa:register-sw"[^>]*><\/script>/;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `--port`: an integer 0..65535 (0: a free port), else InvalidArgument. */
export function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new QuarryError(
      'InvalidArgument',
      `--port ${value}: not a port (an integer from 0 to 65535; 0 picks a free one)`,
      { field: 'port', value },
    );
  }
  return Number(value);
}

/** `--root`: an existing directory, made absolute; else InvalidArgument. */
export function checkRoot(dir: string): string {
  const abs = path.resolve(dir);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new QuarryError('InvalidArgument', `--root ${dir}: no such directory`, {
      field: 'root',
      value: dir,
    });
  }
  if (!st.isDirectory())
    throw new QuarryError('InvalidArgument', `--root ${dir}: not a directory`, { field: 'root', value: dir });
  return abs;
}

/** The package's own folder (holding package.json "quarry" and vite.config.ts), from this module's place (src/cli or the bundle under node_modules/.cache). */
export function packageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'quarry' && fs.existsSync(path.join(dir, 'vite.config.ts'))) return dir;
    } catch {
      // no package.json here: go up
    }
    if (path.dirname(dir) === dir)
      throw new QuarryError('NotFound', `Cannot find Quarry's package folder above ${from}`);
  }
}

/** The package's dist/, built with Vite (programmatically, as `npm run build` does) when its index.html is missing. */
async function ensureBuilt(log: (line: string) => void): Promise<string> {
  const root = packageRoot();
  const dist = path.join(root, 'dist');
  if (fs.existsSync(path.join(dist, 'index.html'))) return dist;
  log(
    `quarry: the app is not built yet (no ${path.join(dist, 'index.html')}); building it with Vite, once...`,
  );
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch (err) {
    throw new QuarryError(
      'NotFound',
      `The app is not built and Vite cannot be loaded (${(err as Error).message}): run npm install, then npm run build`,
    );
  }
  await vite.build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  if (!fs.existsSync(path.join(dist, 'index.html')))
    throw new QuarryError('Internal', `The build wrote no ${path.join(dist, 'index.html')}`);
  log('quarry: built.');
  return dist;
}

// ---- requests ----------------------------------------------------------------------------------

/**
 * The decoded '/'-separated segments of a request path; 'climb' for '.', '..', a '/' or a NUL
 * inside a segment; 'bad' for broken escapes. A backslash is left in (a POSIX file name may hold
 * one): handle() refuses it where it could be read as a separator.
 */
function segmentsOf(rawUrl: string): string[] | 'climb' | 'bad' {
  const pathname = rawUrl.split(/[?#]/, 1)[0];
  const out: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return 'bad';
    }
    if (seg === '.' || seg === '..' || /[/\0]/.test(seg)) return 'climb';
    out.push(seg);
  }
  return out;
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: string | Uint8Array,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': bytes.byteLength,
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Host names the folder answers to: loopback names and the bound host (a DNS-rebound name is refused). */
function hostAllowed(req: http.IncomingMessage, boundHost: string): boolean {
  const header = req.headers.host;
  if (!header) return false;
  const name = header.startsWith('[')
    ? header.slice(0, header.indexOf(']') + 1)
    : header.replace(/:\d+$/, '');
  return ['localhost', '127.0.0.1', '[::1]', boundHost, `[${boundHost}]`].includes(name.toLowerCase());
}

interface Context {
  dist: string;
  folder: ServedFolder | null;
  host: string;
  token: string | null;
}

/** Whether the request carries the run's token (compared in constant time). */
function tokenMatches(req: http.IncomingMessage, token: string): boolean {
  const sent = req.headers[TOKEN_HEADER];
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A backslash is a separator on Windows: there it never names a file. */
const hasSeparatorBackslash = (segments: string[]) =>
  process.platform === 'win32' && segments.some((s) => s.includes('\\'));

async function handle(req: http.IncomingMessage, res: http.ServerResponse, ctx: Context): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(req, res, 405, 'Only GET and HEAD\n', { Allow: 'GET, HEAD' });
  const segments = segmentsOf(req.url ?? '/');
  if (segments === 'bad') return send(req, res, 400, 'Bad path\n');
  if (segments === 'climb') return send(req, res, 403, 'Forbidden: the path climbs out of the app\n');
  if (segments[0] === ROOT_PREFIX && !hasSeparatorBackslash(segments))
    return handleRoot(req, res, ctx, segments.slice(1));
  // the app's own files never hold a backslash: one is a climb (`..\..\x`) on some system
  if (segments.some((s) => s.includes('\\')))
    return send(req, res, 403, 'Forbidden: the path climbs out of the app\n');
  if (segments.length === 0 || (segments.length === 1 && segments[0] === 'index.html'))
    return sendIndex(req, res, ctx);
  if (segments.length === 1 && segments[0] === 'sw.js')
    return send(req, res, 200, RETIRING_SERVICE_WORKER, {
      'Content-Type': MIME['.js'],
      'Cache-Control': 'no-cache',
    });
  const file = path.join(ctx.dist, ...segments);
  if (!file.startsWith(ctx.dist + path.sep))
    return send(req, res, 403, 'Forbidden: the path climbs out of the app\n'); // a backstop (a drive letter...)
  let st: fs.Stats | null = null;
  try {
    st = fs.statSync(file);
  } catch {
    // not there
  }
  if (st?.isFile()) return sendFile(req, res, file, st, segments[0] === 'assets');
  // an asset (a name with an extension, or anything under assets/) that is not there is a 404; any other path is the app
  if (segments[0] === 'assets' || segments[segments.length - 1].includes('.'))
    return send(req, res, 404, 'Not found\n');
  return sendIndex(req, res, ctx);
}

function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: string,
  st: fs.Stats,
  hashed: boolean,
): void {
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    // Vite names everything under assets/ by its content; the rest (sw.js's neighbours, the manifest) is revalidated
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': st.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** index.html, read per request (a rebuild shows at once), without the service worker's registration, naming the served folder. */
function sendIndex(req: http.IncomingMessage, res: http.ServerResponse, ctx: Context): void {
  let html: string;
  try {
    html = fs.readFileSync(path.join(ctx.dist, 'index.html'), 'utf8');
  } catch {
    return send(req, res, 500, `No index.html in ${ctx.dist}: build the app (npm run build)\n`);
  }
  html = html.replace(REGISTER_SW_SCRIPT, '');
  if (ctx.folder) {
    const token = ctx.token ? `<meta name="${TOKEN_META}" content="${escapeHtml(ctx.token)}" />` : '';
    const meta = `${token}<meta name="quarry-served-root" content="${escapeHtml(ctx.folder.name)}" />`;
    // a function: a `$&` in the folder's name must not be read as a replacement pattern
    html = html.includes('</head>') ? html.replace('</head>', () => `${meta}</head>`) : meta + html;
  }
  send(req, res, 200, html, { 'Content-Type': MIME['.html'], 'Cache-Control': 'no-cache' });
}

async function handleRoot(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ctx: Context,
  rest: string[],
): Promise<void> {
  const headers = { 'Cache-Control': 'no-store', 'Cross-Origin-Resource-Policy': 'same-origin' };
  if (!ctx.folder || rest[0] !== 'root')
    return send(req, res, 404, 'Not found (no folder is served: quarry serve --root DIR)\n', headers);
  if (!hostAllowed(req, ctx.host)) return send(req, res, 403, 'Forbidden: unexpected Host header\n', headers);
  if (ctx.token && !tokenMatches(req, ctx.token))
    return send(req, res, 403, 'Forbidden: no token, or not the token of the page this server sent\n', {
      ...headers,
      [REFUSED_HEADER]: 'token',
    });
  if (rest.length === 2 && rest[1] === 'files') {
    const { body } = await ctx.folder.listing();
    return send(req, res, 200, body, { ...headers, 'Content-Type': MIME['.json'] });
  }
  if (rest[1] !== 'raw' || rest.length < 3) return send(req, res, 404, 'Not found\n', headers);
  const rel = rest.slice(2).join('/');
  let bytes: Uint8Array | null;
  try {
    bytes = await ctx.folder.read(rel);
  } catch (err) {
    const code = err instanceof QuarryError ? err.code : '';
    if (code === 'PathOutsideRoot')
      return send(req, res, 403, `Forbidden: ${rel} leads outside the folder\n`, headers);
    if (code === 'NotFound') return send(req, res, 404, `Not found: ${rel}\n`, headers);
    return send(req, res, 500, `Cannot read ${rel}\n`, headers);
  }
  if (!bytes) return send(req, res, 404, `Not found: ${rel} is not in the folder's listing\n`, headers);
  send(req, res, 200, bytes, { ...headers, 'Content-Type': 'application/octet-stream' });
}

// ---- the server --------------------------------------------------------------------------------

/** Start serving; resolves once listening. A port in use (or not allowed) is an InvalidArgument naming it. */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const folder =
    options.root === undefined ? null : new ServedFolder(new NodeFsSource(checkRoot(options.root)));
  const dist = options.distDir ? path.resolve(options.distDir) : await ensureBuilt(options.log ?? (() => {}));
  if (!fs.existsSync(path.join(dist, 'index.html')))
    throw new QuarryError('NotFound', `No index.html in ${dist}: build the app (npm run build)`, {
      path: dist,
    });
  const ctx: Context = { dist, folder, host, token: options.token ?? null };
  const server = http.createServer((req, res) => {
    handle(req, res, ctx).catch((err: unknown) => {
      if (!res.headersSent)
        send(req, res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(
          new QuarryError(
            'InvalidArgument',
            `Port ${port} is already in use on ${host}: pass another --port (--port 0 picks a free one)`,
            {
              field: 'port',
              value: port,
            },
          ),
        );
      else if (err.code === 'EACCES')
        reject(
          new QuarryError(
            'InvalidArgument',
            `Port ${port} on ${host} is not allowed for this user: pass another --port`,
            { field: 'port', value: port },
          ),
        );
      else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}/`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

/** The command: serve until SIGINT/SIGTERM (or `stop`), then close. */
export async function serveCommand(
  args: { port?: string; roots: string[]; /** Tests: a built app elsewhere. */ distDir?: string },
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
  stop: () => Promise<void> = untilSignalled,
): Promise<void> {
  const port = parsePort(args.port);
  if (args.roots.length > 1)
    throw new QuarryError('InvalidArgument', 'quarry serve takes one --root', { field: 'root' });
  const root = args.roots[0];
  if (root !== undefined) checkRoot(root);
  const server = await startServer({
    port,
    root,
    distDir: args.distDir,
    log: (line) => io.stderr(line + '\n'),
    token: newToken(),
  });
  io.stdout(`Quarry at ${server.url}\n`);
  if (root !== undefined)
    io.stdout(`Serving ${path.resolve(root)} read-only; the app opens it. Ctrl+C stops.\n`);
  await stop();
  await server.close();
}

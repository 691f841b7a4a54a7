/**
 * A local smart-HTTP git server for tests: `git http-backend` (CGI) behind a zero-dependency
 * Node HTTP server on 127.0.0.1, with CORS headers so a browser page on another port can
 * clone from it. Fixture repositories are built at start (see fixtures.ts).
 *
 * Routes (all under the returned `url`):
 *   /<name>.git/...               a fixture; 401 without `Authorization: Basic` when it has a token
 *   /<missing>.git/...            404 "repository not found"
 *   /kill/<bytes>/<name>.git/...  the pack response (POST git-upload-pack) is cut after <bytes>
 *                                 bytes and the socket destroyed: "server died mid-clone"
 *   /slow/<ms>/<name>.git/...     every 16 KiB of the pack response waits <ms>: a clone that
 *                                 stays "midway" long enough to be cancelled
 *   /nocors/<name>.git/...        no CORS headers: a browser sees a CORS failure
 *   POST /_control/commit         {name, files, message} -> {oid}: push a commit to a fixture
 *                                 (for Playwright specs running in another process)
 *   GET  /_control/health         "ok"
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFixtures, FixtureRepo, type FixtureFiles, type FixtureSpec } from './fixtures';

export type { FixtureFiles, FixtureSpec } from './fixtures';
export { defaultFixtures, bigFiles } from './fixtures';

export interface GitServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to defaultFixtures(): small-app, private-app (token 'quarry-test-token'), big-app. */
  fixtures?: FixtureSpec[];
  /** Where bare repositories live; a fresh temp dir (removed by stop()) when omitted. */
  root?: string;
  /** Log each request to stderr. */
  verbose?: boolean;
}

export interface GitServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8174 */
  url: string;
  port: number;
  root: string;
  /** Clone URL of a fixture. */
  repoUrl(name: string, mode?: { kill?: number; slowMs?: number; nocors?: boolean }): string;
  commitToFixture(name: string, files: FixtureFiles, message: string): string;
  /** Requests served so far (method + path), for assertions. */
  requests: string[];
  stop(): Promise<void>;
}

const CHUNK = 16 * 1024;

function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers':
      (req.headers['access-control-request-headers'] as string | undefined) ??
      'Authorization, Content-Type, Git-Protocol, Accept, User-Agent, X-Authorization',
    'Access-Control-Expose-Headers': 'Content-Type, WWW-Authenticate, Git-Protocol',
    'Access-Control-Max-Age': '600',
  };
}

function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return false;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  const user = i < 0 ? decoded : decoded.slice(0, i);
  const pass = i < 0 ? '' : decoded.slice(i + 1);
  return user === token || pass === token;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

export async function startGitServer(opts: GitServerOptions = {}): Promise<GitServer> {
  const host = opts.host ?? '127.0.0.1';
  const ownsRoot = !opts.root;
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'quarry-git-server-'));
  const repos = new Map<string, FixtureRepo>();
  for (const spec of opts.fixtures ?? defaultFixtures()) {
    const repo = new FixtureRepo(spec, root);
    repo.build();
    repos.set(spec.name, repo);
  }
  const sockets = new Set<Socket>();
  const children = new Set<ChildProcess>();
  const requests: string[] = [];

  const commitToFixture = (name: string, files: FixtureFiles, message: string): string => {
    const repo = repos.get(name);
    if (!repo) throw new Error(`no fixture named ${name}`);
    return repo.commit(files, message);
  };

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const headers = { ...corsHeaders(req), 'Content-Type': 'application/json' };
    try {
      if (path === '/_control/health') {
        res.writeHead(200, headers).end(JSON.stringify({ ok: true, fixtures: [...repos.keys()] }));
      } else if (path === '/_control/commit' && req.method === 'POST') {
        const { name, files, message } = JSON.parse((await readBody(req)).toString('utf8'));
        const oid = commitToFixture(name, files, message ?? 'Update');
        res.writeHead(200, headers).end(JSON.stringify({ oid }));
      } else {
        res.writeHead(404, headers).end(JSON.stringify({ error: 'unknown control route' }));
      }
    } catch (err) {
      res.writeHead(500, headers).end(JSON.stringify({ error: String(err) }));
    }
  }

  function serveGit(req: IncomingMessage, res: ServerResponse, url: URL): void {
    let path = url.pathname;
    let killAfter: number | null = null;
    let slowMs = 0;
    let cors = true;
    for (;;) {
      let m: RegExpExecArray | null;
      if ((m = /^\/kill\/(\d+)(\/.*)$/.exec(path))) {
        killAfter = Number(m[1]);
        path = m[2];
      } else if ((m = /^\/slow\/(\d+)(\/.*)$/.exec(path))) {
        slowMs = Number(m[1]);
        path = m[2];
      } else if ((m = /^\/nocors(\/.*)$/.exec(path))) {
        cors = false;
        path = m[1];
      } else break;
    }
    const baseHeaders = cors ? corsHeaders(req) : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(cors ? 204 : 405, baseHeaders).end();
      return;
    }
    const m =
      /^\/([A-Za-z0-9._-]+?)(?:\.git)?(\/(?:info\/refs|git-upload-pack|git-receive-pack|HEAD|objects\/.*))$/.exec(
        path,
      );
    const repo = m ? repos.get(m[1]) : undefined;
    if (!m || !repo) {
      res.writeHead(404, { ...baseHeaders, 'Content-Type': 'text/plain' }).end('repository not found\n');
      return;
    }
    if (repo.spec.token && !authorized(req, repo.spec.token)) {
      res
        .writeHead(401, {
          ...baseHeaders,
          'Content-Type': 'text/plain',
          'WWW-Authenticate': 'Basic realm="quarry-fixtures"',
        })
        .end('authentication required\n');
      return;
    }
    const isPack = req.method === 'POST' && m[2] === '/git-upload-pack';
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: join(root, 'bare'),
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      PATH_INFO: `/${m[1]}.git${m[2]}`,
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      REMOTE_USER: repo.spec.token ? 'token' : '',
      ...(req.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) }
        : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    };
    const child = spawn('git', ['http-backend'], {
      env: env as unknown as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    child.on('error', () => res.destroy());
    child.stderr.on('data', (d: Buffer) => opts.verbose && process.stderr.write(`[http-backend] ${d}`));
    req.pipe(child.stdin);
    child.stdin.on('error', () => undefined);

    let head = Buffer.alloc(0);
    let headersSent = false;
    let sent = 0;
    let dead = false;
    const sendBody = async (chunk: Buffer) => {
      if (dead) return;
      if (killAfter !== null && isPack && sent + chunk.length >= killAfter) {
        const part = chunk.subarray(0, Math.max(0, killAfter - sent));
        dead = true;
        res.write(part, () => {
          res.socket?.destroy();
          child.kill('SIGKILL');
        });
        return;
      }
      if (slowMs > 0 && isPack) {
        for (let i = 0; i < chunk.length && !dead; i += CHUNK) {
          child.stdout.pause();
          res.write(chunk.subarray(i, i + CHUNK));
          sent += Math.min(CHUNK, chunk.length - i);
          await new Promise((r) => setTimeout(r, slowMs));
        }
        child.stdout.resume();
        return;
      }
      sent += chunk.length;
      if (!res.write(chunk)) {
        child.stdout.pause();
        res.once('drain', () => child.stdout.resume());
      }
    };
    // Serialise writes so slow mode keeps chunk order.
    let queue = Promise.resolve();
    child.stdout.on('data', (data: Buffer) => {
      if (headersSent) {
        queue = queue.then(() => sendBody(data));
        return;
      }
      head = Buffer.concat([head, data]);
      let end = head.indexOf('\r\n\r\n');
      let sepLen = 4;
      if (end < 0) {
        end = head.indexOf('\n\n');
        sepLen = 2;
      }
      if (end < 0) return;
      const headerText = head.subarray(0, end).toString('latin1');
      const rest = head.subarray(end + sepLen);
      let status = 200;
      const headers: Record<string, string> = { ...baseHeaders };
      for (const line of headerText.split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const key = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (key.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
        else headers[key] = value;
      }
      res.writeHead(status, headers);
      headersSent = true;
      if (rest.length) queue = queue.then(() => sendBody(rest));
    });
    child.stdout.on('end', () => {
      queue = queue.then(() => {
        if (dead) return;
        if (!headersSent) res.writeHead(502, baseHeaders);
        res.end();
      });
    });
    res.on('close', () => {
      if (!res.writableEnded) child.kill('SIGKILL');
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (opts.verbose) process.stderr.write(`[git-server] ${req.method} ${url.pathname}${url.search}\n`);
    if (url.pathname.startsWith('/_control/')) {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, corsHeaders(req)).end();
        return;
      }
      void control(req, res, url.pathname);
      return;
    }
    serveGit(req, res, url);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const base = `http://${host}:${port}`;

  return {
    url: base,
    port,
    root,
    requests,
    repoUrl(name, mode = {}) {
      let prefix = '';
      if (mode.nocors) prefix += '/nocors';
      if (mode.kill !== undefined) prefix += `/kill/${mode.kill}`;
      if (mode.slowMs !== undefined) prefix += `/slow/${mode.slowMs}`;
      return `${base}${prefix}/${name}.git`;
    },
    commitToFixture,
    async stop() {
      for (const c of children) c.kill('SIGKILL');
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsRoot) rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The folder `quarry serve --root DIR` exposes beside the app (src/cli/serve.ts), as a FileSource
 * over same-origin HTTP: the listing is fetched once (GET /__quarry/root/files), each file's bytes
 * when read (GET /__quarry/root/raw/<path>). Read-only; a Refresh opens a new source (a new listing).
 *
 * The app requests nothing by itself: it opens such a folder only when the page it was served in
 * names one (`<meta name="quarry-served-root">`, which only `quarry serve --root` writes), the
 * person's own request.
 *
 * `quarry serve` answers only requests carrying its run's token (header X-Quarry-Token), which
 * the page it sent carries in `<meta name="quarry-served-token">`: a page of another origin can
 * neither read it nor send the header without the server's consent, so it cannot make the server
 * walk the folder. This source runs in the engine's worker, which has no document: it takes the
 * token from the page's meta tag when it has one, else reads it from the page's HTML (same
 * origin) the first time the server refuses a request for want of it, then asks again.
 */
import { QuarryError } from '../../core/errors';
import type { DirEntry, FileSource, FileStat } from '../../core/source/types';

export const SERVED_ROOT_META = 'quarry-served-root';
export const SERVED_TOKEN_META = 'quarry-served-token';
/** The request header the token goes back in, and the answer header of a 403 for want of it (src/cli/serve.ts). */
export const TOKEN_HEADER = 'X-Quarry-Token';
const REFUSED_HEADER = 'X-Quarry-Refused';
/** Where the server answers; an absolute path, so it resolves the same from the page and from the worker. */
export const SERVED_ROOT_PATH = '/__quarry/root/';

/** The served folder's name when the page names one (`quarry serve --root`), else null. */
export function servedRootName(
  doc: Pick<Document, 'querySelector'> | undefined = globalThis.document,
): string | null {
  const content = doc?.querySelector(`meta[name="${SERVED_ROOT_META}"]`)?.getAttribute('content');
  return content ? content : null;
}

/** The token the page carries (`quarry serve`), else null. */
export function servedToken(
  doc: Pick<Document, 'querySelector'> | undefined = globalThis.document,
): string | null {
  const content = doc?.querySelector(`meta[name="${SERVED_TOKEN_META}"]`)?.getAttribute('content');
  return content ? content : null;
}

/** The token in a page's HTML, as `quarry serve` writes it (its characters are base64url), else null. */
export function tokenInHtml(html: string): string | null {
  return new RegExp(`<meta name="${SERVED_TOKEN_META}" content="([\\w-]+)"`).exec(html)?.[1] ?? null;
}

/** The token last read from the page, per origin: a Refresh's new source asks with it at once. */
const knownTokens = new Map<string, string>();

export interface ServedSourceOptions {
  /** A URL of the app's origin the paths resolve against (default: this realm's location). */
  base?: string;
  fetch?: typeof fetch;
  /** The server's token (default: the page's meta tag, else read from the page when the server asks for it). */
  token?: string;
}

type Dir = Map<string, Dir | { size: number; mtimeMs: number }>;

function isDir(node: unknown): node is Dir {
  return node instanceof Map;
}

/** A listed path the tree accepts: relative, '/'-separated, no empty, '.' or '..' segment. */
function validPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path !== '' &&
    path
      .split('/')
      // a backslash is a file name's character here (a POSIX name may hold one), never a separator
      .every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\0'))
  );
}

export class ServedSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private tree: Promise<Dir> | null = null;
  private readonly origin: string;

  constructor(name: string, options: ServedSourceOptions = {}) {
    this.name = name;
    this.absoluteRoot = `/${name}`;
    const base = options.base ?? (globalThis as { location?: { href: string } }).location?.href;
    if (!base)
      throw new QuarryError(
        'InvalidArgument',
        'A served folder is read from the address the app was served from, and there is none here',
        { field: 'base' },
      );
    this.base = base;
    this.origin = new URL(base).origin;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    const token = options.token ?? servedToken();
    if (token) knownTokens.set(this.origin, token);
  }

  private url(rest: string): string {
    return new URL(SERVED_ROOT_PATH + rest, this.base).href;
  }

  /** Same origin only, never redirected elsewhere, never a cached copy of another run's folder. */
  private fetchSameOrigin(url: string, token?: string): Promise<Response> {
    return this.fetchFn(url, {
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
      ...(token ? { headers: { [TOKEN_HEADER]: token } } : {}),
    });
  }

  /** The token in the HTML of the page this app was served in, or null. */
  private async pageToken(): Promise<string | null> {
    const res = await this.fetchSameOrigin(new URL('/', this.base).href);
    const token = res.ok ? tokenInHtml(await res.text()) : null;
    if (token) knownTokens.set(this.origin, token);
    return token;
  }

  /** The request with the token known for this origin; refused for want of it, read the page's and ask once more. */
  private async fetchWithToken(url: string): Promise<Response> {
    const known = knownTokens.get(this.origin);
    const res = await this.fetchSameOrigin(url, known);
    if (res.status !== 403 || res.headers.get(REFUSED_HEADER) !== 'token') return res;
    const token = await this.pageToken();
    return token && token !== known ? this.fetchSameOrigin(url, token) : res;
  }

  private async get(rest: string, what: string): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchWithToken(this.url(rest));
    } catch (err) {
      throw new QuarryError(
        'NetworkError',
        `Could not reach quarry serve for ${what}: ${err instanceof Error ? err.message : String(err)}. Is it still running?`,
        {
          path: what,
        },
      );
    }
    if (res.status === 404)
      throw new QuarryError(
        'NotFound',
        `${what} is not served (quarry serve stopped, or runs without --root or on another folder)`,
        { path: what },
      );
    if (res.status === 403 && res.headers.get(REFUSED_HEADER) === 'token')
      throw new QuarryError(
        'Unreadable',
        `quarry serve refused ${what}: this page does not carry its token (open the address quarry serve printed)`,
        { path: what, status: 403 },
      );
    if (res.status === 403)
      throw new QuarryError('PathOutsideRoot', `quarry serve refused ${what}`, {
        path: what,
        reason: 'outsideRoot',
      });
    if (!res.ok)
      throw new QuarryError('Unreadable', `quarry serve answered ${res.status} for ${what}`, {
        path: what,
        status: res.status,
      });
    return res;
  }

  /** The listing, fetched once, as a directory tree (entries that are not valid paths are dropped). */
  private load(): Promise<Dir> {
    this.tree ??= (async () => {
      const body = (await (await this.get('files', `the listing of ${this.name}`)).json()) as {
        files?: unknown;
      };
      if (!body || !Array.isArray(body.files))
        throw new QuarryError(
          'Unreadable',
          `The listing of ${this.name} from quarry serve is not a file list`,
        );
      const root: Dir = new Map();
      for (const f of body.files as Array<{ path?: unknown; size?: unknown; mtimeMs?: unknown }>) {
        if (!f || !validPath(f.path) || typeof f.size !== 'number' || !(f.size >= 0)) continue;
        const parts = f.path.split('/');
        let dir: Dir | null = root;
        for (const part of parts.slice(0, -1)) {
          const next: Dir | { size: number; mtimeMs: number } = dir.get(part) ?? new Map();
          if (!isDir(next)) {
            dir = null; // a file's name used as a directory: dropped
            break;
          }
          dir.set(part, next);
          dir = next;
        }
        if (dir && !isDir(dir.get(parts[parts.length - 1])))
          dir.set(parts[parts.length - 1], {
            size: f.size,
            mtimeMs: typeof f.mtimeMs === 'number' ? f.mtimeMs : 0,
          });
      }
      return root;
    })();
    this.tree.catch(() => (this.tree = null)); // a failed listing is asked again next time
    return this.tree;
  }

  private async lookup(path: string): Promise<Dir | { size: number; mtimeMs: number } | null> {
    let node: Dir | { size: number; mtimeMs: number } = await this.load();
    for (const part of path.split('/')) {
      if (part === '') continue;
      if (!isDir(node)) return null;
      const next: Dir | { size: number; mtimeMs: number } | undefined = node.get(part);
      if (!next) return null;
      node = next;
    }
    return node;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const node = await this.lookup(dir);
    if (!node) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (!isDir(node)) throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    return [...node].map(([name, child]) => ({ name, kind: isDir(child) ? 'directory' : 'file' }));
  }

  async stat(path: string): Promise<FileStat | null> {
    const node = await this.lookup(path);
    if (!node) return null;
    return isDir(node)
      ? { kind: 'directory', size: 0, mtimeMs: 0 }
      : { kind: 'file', size: node.size, mtimeMs: node.mtimeMs };
  }

  async read(path: string): Promise<Uint8Array> {
    const node = await this.lookup(path);
    if (!node) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (isDir(node)) throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    const res = await this.get(`raw/${path.split('/').map(encodeURIComponent).join('/')}`, path);
    try {
      return new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new QuarryError(
        'Unreadable',
        `Could not read "${path}" from quarry serve: ${err instanceof Error ? err.message : String(err)}`,
        { path },
      );
    }
  }
}

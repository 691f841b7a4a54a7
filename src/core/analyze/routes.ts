/**
 * Next.js routes from the file system, by Next's own rules (next/dist/build/route-discovery
 * and shared/lib/router/utils/app-paths + interception-routes, Next 16).
 *
 * App Router (`app/`, or `src/app/` when neither `app/` nor `pages/` is at the app root):
 *   - route files by name with a page extension (tsx, ts, jsx, js, mdx; never `.d.ts`):
 *     page -> 'page', route -> 'api', layout, loading, error, not-found, template, default,
 *     global-error, global-not-found, forbidden, unauthorized (the same names as types);
 *     metadata files (sitemap, robots, manifest, icon, apple-icon, opengraph-image,
 *     twitter-image, favicon.ico) -> 'metadata' at the URL Next serves them from
 *     (`/sitemap.xml`, `/robots.txt`, `/manifest.webmanifest`, `/icon`, `/favicon.ico`...);
 *     every other file is colocated code and ignored.
 *   - any path part starting with `_` is private (the folder and all below it are ignored);
 *     `%5F` at the start of a segment is a URL underscore (`%5Fdocs` -> `/_docs`).
 *   - route groups `(marketing)` are removed from the URL; `[id]`, `[...slug]`, `[[...slug]]`
 *     are kept as written.
 *   - parallel routes: an `@slot` folder is not a URL segment; the route keeps the URL of the
 *     segment the slot belongs to and says `slot: 'name'` (`app/dashboard/@team/page.tsx`
 *     -> `/dashboard`, slot team; its `default.tsx` -> type 'default', slot team).
 *   - intercepting routes: `(.)x`, `(..)x`, `(..)(..)x`, `(...)x`. The route's `path` is the
 *     URL it intercepts (what the browser requests, Next's interceptedRoute: `(.)` same level,
 *     `(..)` one route segment up, `(..)(..)` two, `(...)` the root; groups and slots do not
 *     count as levels), and `intercept: { marker, from }` names the marker and the URL of the
 *     segment that intercepts (`app/feed/(..)photo/[id]/page.tsx` -> `/photo/[id]`,
 *     intercept { marker '(..)', from '/feed' }). A marker that climbs above the root is
 *     clamped at `/` and reported in `warnings` (Next refuses to build it).
 * Pages Router (`pages/`, or `src/pages/`): every file with a page extension is a route at
 * its path; `index` names its folder; `_app`, `_document`, `_error` are framework files and
 * excluded; `pages/api/**` -> 'api'; `404` -> 'not-found' at /404; `500` -> 'error' at /500;
 * test files (source/file-role.ts's isTestFileName: `*.test.tsx`, `*.spec.js`, ...) and files under
 * `__tests__/` are skipped.
 */
import { QuarryError } from '../errors';
import { isTestFileName } from '../source/file-role';
import type { FileSource } from '../source/types';
import { baseName, dirName, joinPath } from '../source/types';
import type { Workspace } from '../source/workspace';
import { NOISY_PATH_SEGMENTS } from '../walk/policy';
import { readText, throwIfAborted, walkFiles } from '../walk/walk';

export type RouteType =
  | 'page'
  | 'api'
  | 'layout'
  | 'loading'
  | 'error'
  | 'not-found'
  | 'template'
  | 'default'
  | 'global-error'
  | 'global-not-found'
  | 'forbidden'
  | 'unauthorized'
  | 'metadata';

export interface RouteEntry {
  /** URL path as a browser requests it (`/blog/[...slug]`). */
  path: string;
  type: RouteType;
  /** Workspace path of the file. */
  filePath: string;
  /** Name of the app the route belongs to (package.json name, else its folder). */
  app: string;
  router: 'app' | 'pages';
  /** Parallel route slot (`@team` -> 'team'). */
  slot?: string;
  /** Intercepting route: the marker and the URL of the intercepting segment. */
  intercept?: { marker: InterceptionMarker; from: string };
  /** HTTP methods an App Router route handler exports (GET, POST, ...). */
  methods?: string[];
}

export type InterceptionMarker = '(.)' | '(..)' | '(..)(..)' | '(...)';

/** Next's order: the longest marker that shares a prefix is tried first. */
const INTERCEPTION_MARKERS: readonly InterceptionMarker[] = ['(..)(..)', '(.)', '(..)', '(...)'];

export const PAGE_EXTENSIONS: readonly string[] = ['tsx', 'ts', 'jsx', 'js', 'mdx'];

const APP_FILE_TYPES: Readonly<Record<string, RouteType>> = {
  page: 'page',
  route: 'api',
  layout: 'layout',
  loading: 'loading',
  error: 'error',
  'not-found': 'not-found',
  template: 'template',
  default: 'default',
  'global-error': 'global-error',
  'global-not-found': 'global-not-found',
  forbidden: 'forbidden',
  unauthorized: 'unauthorized',
};

const IMAGE_EXTENSIONS = ['ico', 'jpg', 'jpeg', 'png', 'gif', 'svg'];
const CODE_EXTENSIONS = ['tsx', 'ts', 'jsx', 'js'];

/** Metadata files: base name -> accepted extensions and the URL name Next serves. */
const METADATA_FILES: Readonly<Record<string, { static: string[]; dynamicUrl: string }>> = {
  sitemap: { static: ['xml'], dynamicUrl: 'sitemap.xml' },
  robots: { static: ['txt'], dynamicUrl: 'robots.txt' },
  manifest: { static: ['json', 'webmanifest'], dynamicUrl: 'manifest.webmanifest' },
  icon: { static: IMAGE_EXTENSIONS, dynamicUrl: 'icon' },
  'apple-icon': { static: ['jpg', 'jpeg', 'png'], dynamicUrl: 'apple-icon' },
  'opengraph-image': { static: ['jpg', 'jpeg', 'png', 'gif'], dynamicUrl: 'opengraph-image' },
  'twitter-image': { static: ['jpg', 'jpeg', 'png', 'gif'], dynamicUrl: 'twitter-image' },
};

function splitName(file: string): { name: string; ext: string } {
  const i = file.lastIndexOf('.');
  return i <= 0 ? { name: file, ext: '' } : { name: file.slice(0, i), ext: file.slice(i + 1) };
}

const isGroup = (seg: string) => seg.startsWith('(') && seg.endsWith(')');
const decodeSegment = (seg: string) =>
  seg.startsWith('%5F') || seg.startsWith('%5f') ? '_' + seg.slice(3) : seg;

export interface AppRouteInfo {
  path: string;
  type: RouteType;
  slot?: string;
  intercept?: { marker: InterceptionMarker; from: string };
  warning?: string;
}

/** The route of one file inside an App Router directory (`blog/[slug]/page.tsx`), or null. */
export function appRouteOf(relInAppDir: string): AppRouteInfo | null {
  const parts = relInAppDir.split('/').filter(Boolean);
  if (!parts.length || parts.some((p) => p.startsWith('_'))) return null;
  const file = parts[parts.length - 1];
  const dirs = parts.slice(0, -1);
  if (/\.d\.[cm]?ts$/.test(file)) return null;
  const { name, ext } = splitName(file);

  let type: RouteType | null = null;
  let leaf: string | null = null; // a URL segment the file itself adds (metadata)
  if (Object.prototype.hasOwnProperty.call(APP_FILE_TYPES, name) && PAGE_EXTENSIONS.includes(ext)) {
    type = APP_FILE_TYPES[name];
    if (type === 'api' && ext === 'mdx') return null;
  } else if (file === 'favicon.ico' && dirs.length === 0) {
    type = 'metadata';
    leaf = 'favicon.ico';
  } else {
    // icon0.png / opengraph-image2.tsx: numbered variants are metadata files too
    const base = name.replace(/\d+$/, '');
    const meta = Object.prototype.hasOwnProperty.call(METADATA_FILES, base) ? METADATA_FILES[base] : null;
    if (meta && meta.static.includes(ext)) {
      type = 'metadata';
      leaf = file;
    } else if (meta && CODE_EXTENSIONS.includes(ext)) {
      type = 'metadata';
      leaf = base === name ? meta.dynamicUrl : name;
    }
  }
  if (!type) return null;

  const segments: string[] = [];
  let slot: string | undefined;
  let intercept: AppRouteInfo['intercept'];
  let warning: string | undefined;
  for (const dir of dirs) {
    if (dir.startsWith('@')) {
      slot = dir.slice(1);
      continue;
    }
    const marker = intercept ? undefined : INTERCEPTION_MARKERS.find((m) => dir.startsWith(m));
    if (marker) {
      const from = '/' + segments.join('/');
      let up = marker === '(.)' ? 0 : marker === '(..)' ? 1 : marker === '(..)(..)' ? 2 : segments.length;
      if (up > segments.length) {
        warning = `Invalid interception route ${relInAppDir}: ${marker} climbs above the root`;
        up = segments.length;
      }
      segments.splice(segments.length - up, up);
      intercept = { marker, from };
      const rest = dir.slice(marker.length);
      if (rest) segments.push(decodeSegment(rest));
      continue;
    }
    if (isGroup(dir)) continue;
    segments.push(decodeSegment(dir));
  }
  if (leaf) segments.push(leaf);
  const info: AppRouteInfo = { path: '/' + segments.join('/'), type };
  if (slot !== undefined) info.slot = slot;
  if (intercept) info.intercept = intercept;
  if (warning) info.warning = warning;
  return info;
}

const PAGES_FRAMEWORK_FILES = new Set(['/_app', '/_document', '/_error']);

/** The route of one file inside a Pages Router directory (`blog/[slug].tsx`), or null. */
export function pagesRouteOf(relInPagesDir: string): { path: string; type: RouteType } | null {
  const parts = relInPagesDir.split('/').filter(Boolean);
  if (!parts.length) return null;
  const file = parts[parts.length - 1];
  if (/\.d\.[cm]?ts$/.test(file) || isTestFileName(file) || parts.includes('__tests__')) return null;
  const { name, ext } = splitName(file);
  if (!PAGE_EXTENSIONS.includes(ext)) return null;
  const segs = [...parts.slice(0, -1), name];
  if (segs[segs.length - 1] === 'index') segs.pop();
  const path = '/' + segs.join('/');
  if (PAGES_FRAMEWORK_FILES.has(path)) return null;
  if (path === '/api' || path.startsWith('/api/')) return { path, type: 'api' };
  if (path === '/404') return { path, type: 'not-found' };
  if (path === '/500') return { path, type: 'error' };
  return { path, type: 'page' };
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const METHOD_DECL =
  /\bexport\s+(?:async\s+)?(?:function\s*\*?\s*|const\s+|let\s+|var\s+)(GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS)\b/g;
const EXPORT_CLAUSE = /\bexport\s*\{([^}]*)\}/g;

/** HTTP methods a route handler exports (`export async function GET`, `export const POST =`, `export { x as PUT }`). */
export function routeHandlerMethods(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(METHOD_DECL)) found.add(m[1]);
  for (const m of text.matchAll(EXPORT_CLAUSE)) {
    for (const spec of m[1].split(',')) {
      const exported = spec
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (exported && HTTP_METHODS.includes(exported)) found.add(exported);
    }
  }
  return HTTP_METHODS.filter((x) => found.has(x));
}

// ---------------------------------------------------------------------------------------
// Discovery

export interface NextApp {
  rootIndex: number;
  /** Root-relative folder of the app ('' = the root). */
  dir: string;
  name: string;
  /** Root-relative router directories. */
  appDir?: string;
  pagesDir?: string;
  /** How it was recognised. */
  via: 'next.config' | 'package.json' | 'directory';
}

const NEXT_CONFIG = /^next\.config\.(js|mjs|cjs|ts|mts|cts)$/;

/** Names a route folder may have that the walk policy otherwise skips (`app/build/page.tsx`). */
const ROUTE_WALK_NOISY = NOISY_PATH_SEGMENTS.filter(
  (s) => !['env', 'build', 'dist', 'out', 'target', 'venv'].includes(s),
);

interface RootLayout {
  dirs: Set<string>;
  configs: Set<string>; // folders with a next.config.*
  packages: Map<string, { name?: string; next: boolean }>;
}

async function surveyRoot(source: FileSource, signal?: AbortSignal): Promise<RootLayout> {
  const dirs = new Set<string>(['']);
  const configs = new Set<string>();
  const pkgFiles: string[] = [];
  for await (const f of walkFiles(source, {
    signal,
    acceptFile: (p) => {
      let d = dirName(p);
      while (d && !dirs.has(d)) {
        dirs.add(d);
        d = dirName(d);
      }
      const base = baseName(p);
      return base === 'package.json' || NEXT_CONFIG.test(base);
    },
  })) {
    const base = baseName(f.path);
    if (base === 'package.json') pkgFiles.push(f.path);
    else configs.add(dirName(f.path));
  }
  const packages = new Map<string, { name?: string; next: boolean }>();
  for (const p of pkgFiles) {
    throwIfAborted(signal);
    const t = await readText(source, p);
    let json: Record<string, unknown> = {};
    if (t.ok) {
      try {
        const parsed = JSON.parse(t.text);
        if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
      } catch {
        /* a broken package.json still marks a package */
      }
    }
    const hasNext = ['dependencies', 'devDependencies', 'peerDependencies'].some((k) => {
      const deps = json[k];
      return !!deps && typeof deps === 'object' && Object.prototype.hasOwnProperty.call(deps, 'next');
    });
    packages.set(dirName(p), {
      name: typeof json.name === 'string' && json.name ? json.name : undefined,
      next: hasNext,
    });
  }
  return { dirs, configs, packages };
}

export interface DiscoverOptions {
  /** App Router directory name (default 'app'); 'pages' means the Pages Router only. */
  appDirName?: string;
  signal?: AbortSignal;
}

/** Every Next.js app of the workspace, in root order then folder order. */
export async function discoverNextApps(
  workspace: Workspace,
  options: DiscoverOptions = {},
): Promise<NextApp[]> {
  const appName = options.appDirName ?? 'app';
  const apps: NextApp[] = [];
  for (let r = 0; r < workspace.roots.length; r++) {
    const layout = await surveyRoot(workspace.roots[r], options.signal);
    const candidates = new Set<string>(['', ...layout.configs, ...layout.packages.keys()]);
    for (const dir of [...candidates].sort(compareFolders)) {
      const has = (rel: string) => layout.dirs.has(joinPath(dir, rel));
      const rootHasRouter = (appName !== 'pages' && has(appName)) || has('pages');
      const base = rootHasRouter ? '' : 'src';
      const appDir =
        appName !== 'pages' && has(joinPath(base, appName)) ? joinPath(dir, base, appName) : undefined;
      const pagesDir = has(joinPath(base, 'pages')) ? joinPath(dir, base, 'pages') : undefined;
      if (!appDir && !pagesDir) continue;
      const pkg = layout.packages.get(dir);
      const via: NextApp['via'] = layout.configs.has(dir)
        ? 'next.config'
        : pkg?.next
          ? 'package.json'
          : 'directory';
      const name = pkg?.name ?? (dir ? baseName(dir) : workspace.names[r]);
      apps.push({ rootIndex: r, dir, name, appDir, pagesDir, via });
    }
  }
  // Names must tell apps apart: fall back to the folder when two share one.
  const count = new Map<string, number>();
  for (const a of apps) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  for (const a of apps)
    if ((count.get(a.name) ?? 0) > 1) a.name = workspace.displayPath(a.rootIndex, a.dir) || '.';
  return apps;
}

function compareFolders(a: string, b: string): number {
  const sa = a ? a.split('/') : [];
  const sb = b ? b.split('/') : [];
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  return sa.length - sb.length;
}

/** The app a directory given by path belongs to: the nearest app folder above it, else its parent. */
export async function appForDirectory(
  workspace: Workspace,
  rootIndex: number,
  rel: string,
  signal?: AbortSignal,
): Promise<NextApp> {
  const apps = (await discoverNextApps(workspace, { signal })).filter((a) => a.rootIndex === rootIndex);
  const owner = apps
    .filter((a) => a.dir === '' || rel === a.dir || rel.startsWith(a.dir + '/'))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
  const pagesRouter = baseName(rel) === 'pages';
  let dir = owner?.dir ?? dirName(rel);
  if (!owner && baseName(dir) === 'src') dir = dirName(dir);
  const name = owner?.name ?? (dir ? baseName(dir) : workspace.names[rootIndex]);
  return {
    rootIndex,
    dir,
    name,
    appDir: pagesRouter ? undefined : rel,
    pagesDir: pagesRouter ? rel : undefined,
    via: owner?.via ?? 'directory',
  };
}

// ---------------------------------------------------------------------------------------
// Routes of one app

export interface AppRoutes {
  routes: RouteEntry[];
  warnings: string[];
}

const TYPE_ORDER: readonly RouteType[] = [
  'layout',
  'template',
  'page',
  'api',
  'loading',
  'error',
  'not-found',
  'default',
  'forbidden',
  'unauthorized',
  'global-error',
  'global-not-found',
  'metadata',
];

export async function routesOfApp(
  workspace: Workspace,
  app: NextApp,
  options: { includeApi: boolean; signal?: AbortSignal },
): Promise<AppRoutes> {
  const source = workspace.roots[app.rootIndex];
  const routes: RouteEntry[] = [];
  const warnings: string[] = [];
  const routers: Array<['app' | 'pages', string]> = [];
  if (app.appDir !== undefined) routers.push(['app', app.appDir]);
  if (app.pagesDir !== undefined) routers.push(['pages', app.pagesDir]);
  for (const [router, dir] of routers) {
    for await (const f of walkFiles(source, {
      start: dir,
      noisySegments: ROUTE_WALK_NOISY,
      signal: options.signal,
    })) {
      const rel = dir ? f.path.slice(dir.length + 1) : f.path;
      const filePath = workspace.displayPath(app.rootIndex, f.path);
      if (router === 'app') {
        const info = appRouteOf(rel);
        if (!info) continue;
        if (info.type === 'api' && !options.includeApi) continue;
        const entry: RouteEntry = { path: info.path, type: info.type, filePath, app: app.name, router };
        if (info.slot !== undefined) entry.slot = info.slot;
        if (info.intercept) entry.intercept = info.intercept;
        if (info.type === 'api') {
          const t = await readText(source, f.path);
          entry.methods = t.ok ? routeHandlerMethods(t.text) : [];
        }
        if (info.warning) warnings.push(info.warning.replace(rel, filePath));
        routes.push(entry);
      } else {
        const info = pagesRouteOf(rel);
        if (!info) continue;
        if (info.type === 'api' && !options.includeApi) continue;
        routes.push({ path: info.path, type: info.type, filePath, app: app.name, router });
      }
    }
  }
  routes.sort(compareRoutes);
  return { routes, warnings };
}

/** URL path segment by segment ('/' first), then slot (none first), intercepting last, then type, then the outer file first. */
export function compareRoutes(a: RouteEntry, b: RouteEntry): number {
  const sa = a.path.split('/').filter(Boolean);
  const sb = b.path.split('/').filter(Boolean);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  if (sa.length !== sb.length) return sa.length - sb.length;
  if ((a.slot ?? '') !== (b.slot ?? '')) return (a.slot ?? '') < (b.slot ?? '') ? -1 : 1;
  if (!a.intercept !== !b.intercept) return a.intercept ? 1 : -1;
  const ta = TYPE_ORDER.indexOf(a.type);
  const tb = TYPE_ORDER.indexOf(b.type);
  if (ta !== tb) return ta - tb;
  // the outer file first (the root layout before a route group's)
  const da = a.filePath.split('/').length;
  const db = b.filePath.split('/').length;
  if (da !== db) return da - db;
  return a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0;
}

export function assertDirectoryExists(found: boolean, field: string, value: string): void {
  if (!found) throw new QuarryError('NotFound', `${field} not found: "${value}"`, { field, value });
}

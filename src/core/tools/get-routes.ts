/**
 * get_routes (seed 000): Next.js routes, App Router and Pages Router, in every app of the
 * workspace. Seed shape `{ routes: [{ path, type, filePath }], pages, apiRoutes, total }`;
 * added: per route `app`, `router`, and when they apply `slot`, `intercept`, `methods`; `apps`
 * (each app with its router folders and counts), `warnings`, and a `note` when nothing is found.
 * The URL rules are in core/analyze/routes.ts.
 *
 * `appDirectory` (default 'app') is either a folder NAME looked up in every app (at the app
 * root, or under src/ as Next does), or a PATH from the workspace root (containing '/', e.g.
 * 'apps/web/app' or 'src/app') naming the one directory to scan; a path ending in `pages`
 * is read with Pages Router rules, and the name 'pages' alone means the Pages Routers only.
 */
import { QuarryError } from '../errors';
import {
  appForDirectory,
  discoverNextApps,
  routesOfApp,
  type NextApp,
  type RouteEntry,
} from '../analyze/routes';
import { normalizeRelative } from '../source/workspace';
import type { Tool } from './types';
import { ensureObject, optionalBoolean, optionalString } from './validate';

export interface GetRoutesResult {
  routes: RouteEntry[];
  pages: number;
  apiRoutes: number;
  total: number;
  apps: Array<{
    name: string;
    /** The app's folder as a workspace path ('.' for the root of a one-root workspace). */
    root: string;
    appDirectory?: string;
    pagesDirectory?: string;
    via: NextApp['via'];
    pages: number;
    apiRoutes: number;
    total: number;
  }>;
  warnings?: string[];
  note?: string;
}

export const getRoutes: Tool<GetRoutesResult> = {
  name: 'get_routes',
  description:
    'Find all page routes in a Next.js app router structure (and the pages router), in every Next.js app of the workspace. Types: page, api (route handlers and pages/api), layout, loading, error, plus not-found, template, default, global-error, forbidden, unauthorized, metadata. Route groups are removed from URLs; [id], [...slug], [[...slug]] kept as written; @slot parallel routes carry `slot`; intercepting routes show the URL they intercept with `intercept`; _private folders ignored.',
  inputSchema: {
    type: 'object',
    properties: {
      appDirectory: {
        type: 'string',
        default: 'app',
        description:
          "The app directory to scan: a folder name looked up in every app (also under src/), or a path from the workspace root such as 'apps/web/app'",
      },
      includeApi: { type: 'boolean', default: true, description: 'Whether to include API routes' },
    },
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const appDirectory = optionalString(args, 'appDirectory') ?? 'app';
    const includeApi = optionalBoolean(args, 'includeApi', true);
    if (appDirectory.trim() === '') {
      throw new QuarryError('InvalidArgument', 'appDirectory must not be empty', {
        field: 'appDirectory',
        value: appDirectory,
      });
    }
    const ws = ctx.workspace;
    let apps: NextApp[];
    const norm = normalizeRelative(appDirectory, 'appDirectory');
    const isPath = appDirectory.replace(/\\/g, '/').replace(/\/+$/, '').includes('/') || norm === '';
    if (isPath) {
      if (norm === '') {
        throw new QuarryError(
          'InvalidArgument',
          `appDirectory must name a directory below the root, got "${appDirectory}"`,
          {
            field: 'appDirectory',
            value: appDirectory,
          },
        );
      }
      const found: NextApp[] = [];
      for (const c of ws.resolveAll(appDirectory, 'appDirectory')) {
        const st = await c.source.stat(c.rel);
        if (st?.kind === 'directory') found.push(await appForDirectory(ws, c.rootIndex, c.rel, ctx.signal));
      }
      if (!found.length) {
        throw new QuarryError('NotFound', `appDirectory not found: "${appDirectory}"`, {
          field: 'appDirectory',
          value: appDirectory,
        });
      }
      apps = found;
    } else {
      if (!/^[^/\\]+$/.test(norm))
        throw new QuarryError('InvalidArgument', `appDirectory is not a folder name: "${appDirectory}"`, {
          field: 'appDirectory',
          value: appDirectory,
        });
      apps = await discoverNextApps(ws, { appDirName: norm, signal: ctx.signal });
    }

    const routes: RouteEntry[] = [];
    const warnings: string[] = [];
    const appSummaries: GetRoutesResult['apps'] = [];
    for (const app of apps) {
      const r = await routesOfApp(ws, app, { includeApi, signal: ctx.signal });
      // An app recognised only by its folder layout must have at least one route.
      if (app.via === 'directory' && !isPath && r.routes.length === 0) continue;
      routes.push(...r.routes);
      warnings.push(...r.warnings);
      const summary: GetRoutesResult['apps'][number] = {
        name: app.name,
        root: ws.displayPath(app.rootIndex, app.dir) || '.',
        via: app.via,
        pages: r.routes.filter((x) => x.type === 'page').length,
        apiRoutes: r.routes.filter((x) => x.type === 'api').length,
        total: r.routes.length,
      };
      if (app.appDir !== undefined) summary.appDirectory = ws.displayPath(app.rootIndex, app.appDir);
      if (app.pagesDir !== undefined) summary.pagesDirectory = ws.displayPath(app.rootIndex, app.pagesDir);
      appSummaries.push(summary);
    }
    const result: GetRoutesResult = {
      routes,
      pages: routes.filter((r) => r.type === 'page').length,
      apiRoutes: routes.filter((r) => r.type === 'api').length,
      total: routes.length,
      apps: appSummaries,
    };
    if (warnings.length) result.warnings = warnings;
    if (!routes.length) {
      result.note = appSummaries.length
        ? 'The Next.js apps found have no route files.'
        : `No Next.js app found: looked for next.config.*, package.json files depending on next, and "${norm}" or pages directories (also under src/).`;
    }
    return result;
  },
};

/**
 * Routes: the Next.js routes of every app in the repository (get_routes), grouped by app,
 * as a tree of URL segments, a table or a drawn tree (zoom, pan, click to open), each with a type badge and its file. Filters by
 * text (URL or file) and by type; the filters and the tree/table choice live in the URL.
 */
import { lazy, Suspense, useMemo } from 'react';
import type { RouteEntry } from '../../core/analyze/routes';
import type { GetRoutesResult } from '../../core/tools/get-routes';
import { formatCount, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import {
  Badge,
  EmptyNote,
  ErrorNote,
  FileLink,
  Loading,
  matchesText,
  PathText,
  type ViewProps,
} from './parts';
import { useDebouncedDraft, useTool } from './use-tool';

const NO_ARGS = {};

const DrawnRouteTree = lazy(() => import('./explore/RouteTree').then((m) => ({ default: m.RouteTree })));

/** Display order of route types (the first seven are the common ones). */
const TYPE_ORDER = [
  'page',
  'api',
  'layout',
  'loading',
  'error',
  'not-found',
  'template',
  'default',
  'global-error',
  'forbidden',
  'unauthorized',
  'metadata',
];

/** The route types present, in TYPE_ORDER and then any others. */
function routeTypes(routes: RouteEntry[]): string[] {
  const present = new Set(routes.map((r) => r.type));
  return TYPE_ORDER.filter((t) => present.has(t as RouteEntry['type'])).concat(
    [...present].filter((t) => !TYPE_ORDER.includes(t)),
  );
}

export function RoutesView({ view, update, repoKey }: ViewProps) {
  const [state, retry] = useTool<GetRoutesResult>('get_routes', NO_ARGS, repoKey);
  const [draft, setDraft] = useDebouncedDraft(view.rq, (rq) => update({ rq }));

  const result = state.state === 'ready' ? state.value : null;
  const types = useMemo(() => routeTypes(result?.routes ?? []), [result]);
  const shown = useMemo(
    () =>
      (result?.routes ?? []).filter(
        (r) => (!view.rtype || r.type === view.rtype) && matchesText(view.rq, r.path, r.filePath, r.slot),
      ),
    [result, view.rq, view.rtype],
  );
  const byApp = useMemo(() => {
    const m = new Map<string, RouteEntry[]>();
    for (const app of result?.apps ?? []) m.set(app.name, []);
    for (const r of shown) {
      if (!m.has(r.app)) m.set(r.app, []);
      m.get(r.app)!.push(r);
    }
    return m;
  }, [result, shown]);
  const filtered = !!(view.rq || view.rtype);

  return (
    <section className="view-panel" aria-labelledby="routes-title" data-testid="routes-view">
      <div className="view-head">
        <h2 id="routes-title">Routes</h2>
        <div className="view-controls" role="search" aria-label="Filter routes">
          <input
            type="search"
            aria-label="Filter routes"
            placeholder="Filter by URL or file"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            spellCheck={false}
          />
          <select
            aria-label="Route type"
            value={view.rtype}
            onChange={(e) => update({ rtype: e.target.value })}
          >
            <option value="">All types</option>
            {(types.includes(view.rtype) || !view.rtype ? types : [...types, view.rtype]).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <div className="segmented" role="radiogroup" aria-label="Show routes as">
            {(['tree', 'table', 'graph'] as const).map((s) => (
              <label key={s} className={view.rshow === s ? 'on' : ''}>
                <input
                  type="radio"
                  name="rshow"
                  value={s}
                  checked={view.rshow === s}
                  onChange={() => update({ rshow: s })}
                />
                {s === 'tree' ? 'Tree' : s === 'table' ? 'Table' : 'Drawing'}
              </label>
            ))}
          </div>
        </div>
        {result && (
          <p className="view-summary" data-testid="view-summary" aria-live="polite">
            {filtered ? `${formatCount(shown.length)} of ` : ''}
            {plural(result.total, 'route')} · {plural(result.pages, 'page')} ·{' '}
            {plural(result.apiRoutes, 'API route')} · {plural(result.apps.length, 'app')}
          </p>
        )}
      </div>
      <div className="view-body">
        {state.state === 'loading' && <Loading>Finding Next.js apps and routes…</Loading>}
        {state.state === 'error' && <ErrorNote error={state.error} what="read the routes" onRetry={retry} />}
        {result && result.total === 0 && (
          <EmptyNote title="No routes found.">
            <p>{result.note ?? 'The Next.js apps found have no route files.'}</p>
            <p>
              Routes come from the app/ and pages/ folders of a Next.js app (also under src/). Open a Next.js
              project, or use Search.
            </p>
          </EmptyNote>
        )}
        {result && result.total > 0 && shown.length === 0 && (
          <EmptyNote title="No route matches the filters.">
            <button type="button" onClick={() => update({ rq: '', rtype: '' })}>
              Clear the filters
            </button>
          </EmptyNote>
        )}
        {result?.warnings && result.warnings.length > 0 && (
          <details className="view-warnings">
            <summary>{plural(result.warnings.length, 'warning')}</summary>
            <ul>
              {result.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          </details>
        )}
        {shown.length > 0 &&
          [...byApp].map(([name, routes]) => {
            if (!routes.length) return null;
            return (
              <RouteApp
                key={name}
                name={name}
                app={result!.apps.find((a) => a.name === name)}
                routes={routes}
                view={view}
                update={update}
              />
            );
          })}
      </div>
    </section>
  );
}

/** One app's routes, as a tree, a table or a drawing. */
function RouteApp({
  name,
  app,
  routes,
  view,
  update,
}: {
  name: string;
  app: GetRoutesResult['apps'][number] | undefined;
  routes: RouteEntry[];
  view: ViewProps['view'];
  update: ViewProps['update'];
}) {
  const id = `routes-app-${slug(name)}`;
  return (
    <section className="route-app" aria-labelledby={id} data-testid="route-app">
      <h3 id={id}>
        <VisibleText text={name} />
        {app && (
          <span className="muted app-meta">
            {' '}
            <VisibleText
              text={[
                app.root === '.' ? '' : app.root,
                app.appDirectory ? `App Router in ${app.appDirectory}/` : '',
                app.pagesDirectory ? `Pages Router in ${app.pagesDirectory}/` : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </span>
        )}
      </h3>
      {view.rshow === 'table' ? (
        <RouteTable routes={routes} app={name} view={view} update={update} />
      ) : view.rshow === 'graph' ? (
        <Suspense fallback={<Loading>Loading the drawing…</Loading>}>
          <DrawnRouteTree
            routes={routes}
            onOpenFile={(file) => update({ file, line: 0 }, { push: true })}
            height={420}
          />
        </Suspense>
      ) : (
        <RouteTree routes={routes} app={name} view={view} update={update} />
      )}
    </section>
  );
}

function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]+/g, '-');
}

function RouteBadges({ r }: { r: RouteEntry }) {
  return (
    <span className="badges">
      <Badge kind={`route-${r.type}`}>{r.type}</Badge>
      {r.router === 'pages' && <Badge kind="muted">pages router</Badge>}
      {r.slot && (
        <Badge kind="muted">
          @<VisibleText text={r.slot} />
        </Badge>
      )}
      {r.intercept && (
        <Badge kind="muted" title={`Intercepts from ${visibleText(r.intercept.from)}`}>
          {r.intercept.marker} intercept
        </Badge>
      )}
      {r.methods && r.methods.length > 0 && <Badge kind="plain">{r.methods.join(' ')}</Badge>}
    </span>
  );
}

function RouteTable({
  routes,
  app,
  view,
  update,
}: { routes: RouteEntry[]; app: string } & Omit<ViewProps, 'repoKey'>) {
  return (
    <table className="view-table routes-table" aria-label={`Routes of ${visibleText(app)}`}>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Type</th>
          <th scope="col">File</th>
        </tr>
      </thead>
      <tbody>
        {routes.map((r) => (
          <tr key={`${r.filePath}:${r.type}:${r.path}`} data-testid="route-row">
            <th scope="row" className="mono url-cell">
              <VisibleText text={r.path} />
            </th>
            <td>
              <RouteBadges r={r} />
            </td>
            <td className="path-cell">
              <FileLink
                view={view}
                update={update}
                path={r.filePath}
                label={`${visibleText(r.filePath)} (${r.type} ${visibleText(r.path)})`}
              >
                <PathText path={r.filePath} />
              </FileLink>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface TreeNode {
  segment: string;
  url: string;
  routes: RouteEntry[];
  children: Map<string, TreeNode>;
}

function buildTree(routes: RouteEntry[]): TreeNode {
  const root: TreeNode = { segment: '/', url: '/', routes: [], children: new Map() };
  for (const r of routes) {
    let node = root;
    let url = '';
    for (const seg of r.path.split('/').filter(Boolean)) {
      url += `/${seg}`;
      let next = node.children.get(seg);
      if (!next) {
        next = { segment: seg, url, routes: [], children: new Map() };
        node.children.set(seg, next);
      }
      node = next;
    }
    node.routes.push(r);
  }
  return root;
}

function RouteTree({
  routes,
  app,
  view,
  update,
}: { routes: RouteEntry[]; app: string } & Omit<ViewProps, 'repoKey'>) {
  const root = useMemo(() => buildTree(routes), [routes]);
  return (
    <ul className="route-tree" aria-label={`Route tree of ${visibleText(app)}`}>
      <TreeItem node={root} view={view} update={update} />
    </ul>
  );
}

function TreeItem({ node, view, update }: { node: TreeNode } & Omit<ViewProps, 'repoKey'>) {
  const children = [...node.children.values()].sort((a, b) =>
    a.segment < b.segment ? -1 : a.segment > b.segment ? 1 : 0,
  );
  return (
    <li data-testid="route-node" data-url={node.url}>
      <div className="route-node">
        <span className="mono route-seg" title={visibleText(node.url)}>
          <VisibleText text={node.segment === '/' ? '/' : `/${node.segment}`} />
        </span>
        {node.routes.length > 0 && (
          <ul className="route-files" aria-label={`Files for ${visibleText(node.url)}`}>
            {node.routes.map((r) => (
              <li key={`${r.filePath}:${r.type}`} data-testid="route-file">
                <RouteBadges r={r} />
                <FileLink
                  view={view}
                  update={update}
                  path={r.filePath}
                  label={`${visibleText(r.filePath)} (${r.type} ${visibleText(r.path)})`}
                >
                  <PathText path={r.filePath} />
                </FileLink>
              </li>
            ))}
          </ul>
        )}
      </div>
      {children.length > 0 && (
        <ul className="route-children">
          {children.map((c) => (
            <TreeItem key={c.segment} node={c} view={view} update={update} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The drawn route tree: the URL segments of the routes left to right (layoutTree), each URL
 * colored by its route's type (page, API route, layout, ...; a segment with no route of its
 * own is drawn hollow). A click on a URL opens its route's file and lists all its files in the
 * side panel; the find box selects a URL without the canvas. Wheel or buttons zoom, drag pans.
 */
import type { ElementDefinition, StylesheetJson } from 'cytoscape';
import { useEffect, useMemo, useState } from 'react';
import type { RouteEntry, RouteType } from '../../../core/analyze/routes';
import { layoutTree, TREE_NODE_HEIGHT, TREE_NODE_WIDTH } from '../../../core/explore/layout';
import { plural } from '../../format';
import { visibleText } from '../../visible-text';
import { VisibleText } from '../../VisibleText';
import { Badge, PathText } from '../parts';
import {
  centerOn,
  GraphCanvas,
  NodeFinder,
  useCytoscape,
  ZoomControls,
  type FinderItem,
  type GraphTheme,
} from './graph-canvas';
import '../views.css';
import './graph.css';

export interface RouteTreeProps {
  /** The routes to draw (one app's, usually: routes of several apps at one URL share its node). */
  routes: RouteEntry[];
  onOpenFile: (path: string) => void;
  /** The canvas's height in CSS pixels (default 480). */
  height?: number;
}

/** The order a URL's routes are listed in; the first one colors the node and opens on click. */
const TYPE_ORDER: readonly RouteType[] = [
  'page',
  'api',
  'layout',
  'loading',
  'error',
  'not-found',
  'template',
  'default',
  'global-error',
  'global-not-found',
  'forbidden',
  'unauthorized',
  'metadata',
];

/** Route types by the color they are drawn in. */
const TONE: Record<RouteType, Tone> = {
  page: 'page',
  api: 'api',
  layout: 'layout',
  loading: 'wait',
  template: 'wait',
  default: 'wait',
  error: 'error',
  'global-error': 'error',
  'not-found': 'error',
  'global-not-found': 'error',
  forbidden: 'error',
  unauthorized: 'error',
  metadata: 'other',
};
type Tone = 'page' | 'api' | 'layout' | 'wait' | 'error' | 'other';
const TONES: readonly Tone[] = ['page', 'api', 'layout', 'wait', 'error', 'other'];
const TONE_LABEL: Record<Tone, string> = {
  page: 'page',
  api: 'API route',
  layout: 'layout',
  wait: 'loading / template / default',
  error: 'error / not-found',
  other: 'metadata',
};

const COLORS = [
  '--bg',
  '--fg',
  '--fg-muted',
  '--border',
  '--accent',
  '--bg-active',
  '--graph-edge',
  ...TONES.flatMap((t) => [`--graph-${t}-fill`, `--graph-${t}-line`]),
];

function treeStyle(t: GraphTheme): StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        shape: 'round-rectangle',
        width: TREE_NODE_WIDTH,
        height: TREE_NODE_HEIGHT,
        'background-color': t['--bg'],
        'border-color': t['--fg-muted'],
        'border-width': 1,
        'border-style': 'dashed',
        label: 'data(label)',
        'text-valign': 'center',
        'text-halign': 'center',
        'text-wrap': 'ellipsis',
        'text-max-width': `${TREE_NODE_WIDTH - 12}px`,
        'font-family': t.font,
        'font-size': 12,
        color: t['--fg'],
        'min-zoomed-font-size': 6,
        'text-events': 'no',
      },
    },
    ...TONES.map((tone) => ({
      selector: `node.tone-${tone}`,
      style: {
        'background-color': t[`--graph-${tone}-fill`],
        'border-color': t[`--graph-${tone}-line`],
        'border-style': 'solid',
        'border-width': 1.5,
      },
    })),
    {
      selector: 'node.picked',
      style: { 'border-color': t['--accent'], 'border-width': 4, 'border-style': 'solid' },
    },
    {
      selector: 'edge',
      style: {
        width: 1.2,
        'curve-style': 'taxi',
        'taxi-direction': 'rightward',
        'line-color': t['--graph-edge'],
        opacity: 0.8,
      },
    },
  ] as StylesheetJson;
}

/** `/blog//[slug]/` -> `/blog/[slug]`: the id layoutTree gives the URL's node. */
function urlKey(path: string): string {
  return `/${path.split('/').filter(Boolean).join('/')}`;
}

const typeRank = (t: RouteType) => {
  const i = TYPE_ORDER.indexOf(t);
  return i < 0 ? TYPE_ORDER.length : i;
};

interface Drawing {
  elements: ElementDefinition[];
  /** URL -> its routes (best type first). */
  routesAt: Map<string, RouteEntry[]>;
  cyId: Map<string, string>;
  urlOf: Map<string, string>;
  finder: FinderItem[];
  tones: Set<Tone>;
}

function buildDrawing(routes: RouteEntry[]): Drawing {
  const routesAt = new Map<string, RouteEntry[]>();
  for (const r of routes) {
    const k = urlKey(r.path);
    const list = routesAt.get(k);
    if (list) list.push(r);
    else routesAt.set(k, [r]);
  }
  for (const list of routesAt.values())
    list.sort(
      (a, b) =>
        typeRank(a.type) - typeRank(b.type) ||
        (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0),
    );
  const tree = layoutTree(routes.map((r) => r.path));
  const elements: ElementDefinition[] = [];
  const cyId = new Map<string, string>();
  const urlOf = new Map<string, string>();
  const tones = new Set<Tone>();
  tree.nodes.forEach((n, i) => {
    const id = `t${i}`;
    cyId.set(n.id, id);
    urlOf.set(id, n.id);
    const first = routesAt.get(n.id)?.[0];
    const tone = first ? (TONE[first.type] ?? 'other') : null;
    if (tone) tones.add(tone);
    elements.push({
      group: 'nodes',
      data: { id, label: visibleText(n.depth === 0 ? '/' : n.label) },
      position: { x: n.x, y: n.y },
      classes: tone ? `tone-${tone}` : 'bare',
      pannable: true,
    });
  });
  tree.edges.forEach((e, i) =>
    elements.push({
      group: 'edges',
      data: { id: `u${i}`, source: cyId.get(e.from)!, target: cyId.get(e.to)! },
      pannable: true,
    }),
  );
  const finder = tree.nodes.map((n) => ({ id: n.id, name: n.label, full: n.id }));
  return { elements, routesAt, cyId, urlOf, finder, tones };
}

/** The side panel's content: the selected URL's route files (a prompt while none is selected). */
function SelectedUrl({
  selected,
  at,
  apps,
  onOpenFile,
}: {
  selected: string | null;
  at: RouteEntry[];
  /** How many apps the routes come from (past one, each file names its app). */
  apps: number;
  onOpenFile: (path: string) => void;
}) {
  return selected === null ? (
    <p className="muted">Select a URL in the tree, or find it by name, to see its files.</p>
  ) : (
    <>
      <h3 className="graph-panel-title mono">
        <VisibleText text={selected} />
      </h3>
      {at.length === 0 ? (
        <p className="muted">No route file at this URL: a segment of longer URLs.</p>
      ) : (
        <ul className="graph-route-files" aria-label={`Files for ${visibleText(selected)}`}>
          {at.map((r) => (
            <li key={`${r.app}\u0000${r.filePath}\u0000${r.type}`}>
              <Badge kind={`route-${r.type}`}>{r.type}</Badge>
              {r.slot && (
                <Badge kind="muted">
                  @<VisibleText text={r.slot} />
                </Badge>
              )}
              {r.methods && r.methods.length > 0 && <Badge kind="plain">{r.methods.join(' ')}</Badge>}
              <button
                type="button"
                className="link mono"
                onClick={() => onOpenFile(r.filePath)}
                aria-label={`Open ${visibleText(r.filePath)} (${r.type})`}
              >
                <PathText path={r.filePath} />
              </button>
              {apps > 1 && (
                <span className="muted">
                  {' '}
                  in <VisibleText text={r.app} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function RouteTree({ routes, onOpenFile, height = 480 }: RouteTreeProps) {
  const drawing = useMemo(() => buildDrawing(routes), [routes]);
  const [picked, setPicked] = useState<{ drawing: Drawing; url: string } | null>(null);
  const selected = picked?.drawing === drawing ? picked.url : null;
  const [centerRequest, setCenterRequest] = useState<string | null>(null);

  const { containerRef, cy, error, retry } = useCytoscape({
    elements: drawing.elements,
    style: treeStyle,
    colors: COLORS,
    onNodeTap: (id) => {
      const url = drawing.urlOf.get(id);
      if (url === undefined) return;
      setPicked({ drawing, url });
      const first = drawing.routesAt.get(url)?.[0];
      if (first) onOpenFile(first.filePath);
    },
    onBackgroundTap: () => setPicked(null),
    titleOf: (id) => {
      const url = drawing.urlOf.get(id);
      if (url === undefined) return undefined;
      const at = drawing.routesAt.get(url) ?? [];
      return [url, ...at.map((r) => `${r.type}: ${r.filePath}`)];
    },
  });

  useEffect(() => {
    if (!cy || cy.destroyed()) return;
    cy.batch(() => {
      cy.nodes('.picked').removeClass('picked');
      const id = selected === null ? undefined : drawing.cyId.get(selected);
      if (id) cy.getElementById(id).addClass('picked');
    });
  }, [cy, selected, drawing]);

  useEffect(() => {
    if (!cy || cy.destroyed() || centerRequest === null) return;
    const id = drawing.cyId.get(centerRequest);
    if (!id || centerOn(cy, id)) setCenterRequest(null);
  }, [cy, centerRequest, drawing]);

  const select = (url: string) => {
    setPicked({ drawing, url });
    setCenterRequest(url);
  };

  const urls = drawing.cyId.size;
  const pages = routes.filter((r) => r.type === 'page').length;
  const apis = routes.filter((r) => r.type === 'api').length;
  const summary = `Route tree: ${plural(urls, 'URL segment')}, ${plural(routes.length, 'route')} (${plural(pages, 'page')}, ${plural(apis, 'API route')})`;

  if (!routes.length) {
    return (
      <div className="graph-wrap" data-testid="route-tree">
        <p className="graph-note">No routes to draw.</p>
      </div>
    );
  }

  const at = selected === null ? [] : (drawing.routesAt.get(selected) ?? []);
  const apps = new Set(routes.map((r) => r.app)).size;
  return (
    <div className="graph-wrap" data-testid="route-tree">
      <div className="graph-toolbar">
        <NodeFinder
          items={drawing.finder}
          onPick={select}
          label="Find a URL in the route tree"
          placeholder="Find a URL segment"
        />
        <ZoomControls cy={cy} what="route tree" />
        <ul className="graph-legend" aria-label="Legend">
          {TONES.filter((t) => drawing.tones.has(t)).map((t) => (
            <li key={t}>
              <span className={`swatch swatch-${t}`} aria-hidden="true" /> {TONE_LABEL[t]}
            </li>
          ))}
          <li>
            <span className="swatch swatch-bare" aria-hidden="true" /> segment only
          </li>
        </ul>
      </div>
      <div className="graph-body">
        <GraphCanvas
          canvasRef={containerRef}
          ready={!!cy}
          error={error}
          onRetry={retry}
          label={summary}
          height={height}
          what="route tree"
        />
        <aside
          className="graph-panel"
          aria-label="Selected URL"
          data-testid="route-tree-panel"
          data-selected={selected ?? ''}
          style={{ maxHeight: height }}
        >
          <SelectedUrl selected={selected} at={at} apps={apps} onOpenFile={onOpenFile} />
        </aside>
      </div>
    </div>
  );
}

/**
 * The drawn import graph's elements and stylesheet: a GraphView (core/explore/graph-folders) laid
 * out (core/explore/layout, in the layout worker: layout-client.ts) and turned into Cytoscape
 * element definitions.
 *
 * Folder boxes are plain nodes sized by the layout, drawn under the edges and the files, not
 * compound parents: a compound parent's bounds follow its children, and Cytoscape recomputed
 * them (and restyled the parents) for every child added or styled; on 1,000 files in 48 folders
 * that was most of a 7.5 s main-thread task. Node ids are the view's keys (`f:<path>`, `d:<folder>`),
 * so a change of view (a folder expanded) keeps every element that stays and only moves it.
 */
import type { Core, ElementDefinition, StylesheetJson } from 'cytoscape';
import { FOLDERS_GROUP, type GraphView } from '../../../core/explore/graph-folders';
import { GRAPH_CLUSTER_PADDING, GRAPH_NODE_HEIGHT, GRAPH_NODE_WIDTH } from '../../../core/explore/layout';
import { visibleText } from '../../visible-text';
import type { GraphTheme } from './graph-canvas';
import type { GraphPlacement } from './layout-client';
import type { GraphLayoutInput } from './layout-protocol';

export const GRAPH_COLORS = [
  '--bg',
  '--bg-soft',
  '--bg-active',
  '--fg',
  '--fg-muted',
  '--border',
  '--accent',
  '--error',
  '--graph-cluster',
  '--graph-edge',
  '--graph-ext-fill',
  '--graph-ext-line',
  '--graph-hub-fill',
  '--graph-hub-line',
  '--graph-folder-fill',
] as const;

/** An edge standing for this many imports or more is drawn at its widest. */
const WIDEST_EDGE = 24;

export function graphStyle(t: GraphTheme): StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        'font-family': t.font,
        'font-size': 12,
        color: t['--fg'],
        'min-zoomed-font-size': 7,
        'text-events': 'no',
        'z-compound-depth': 'orphan',
        'z-index-compare': 'manual',
        'z-index': 10,
      },
    },
    {
      selector: 'node.cluster',
      style: {
        shape: 'round-rectangle',
        width: 'data(w)',
        height: 'data(h)',
        'background-color': t['--graph-cluster'],
        'border-color': t['--border'],
        'border-width': 1,
        label: 'data(label)',
        'text-valign': 'top',
        'text-halign': 'center',
        'text-margin-y': -4,
        'font-size': 14,
        'font-weight': 600,
        color: t['--fg-muted'],
        'min-zoomed-font-size': 5,
        'z-index': 0,
      },
    },
    {
      selector: 'node.file, node.external, node.folder',
      style: {
        shape: 'round-rectangle',
        width: GRAPH_NODE_WIDTH,
        height: GRAPH_NODE_HEIGHT,
        'background-color': t['--bg'],
        'border-color': t['--fg-muted'],
        'border-width': 1,
        label: 'data(label)',
        'text-valign': 'center',
        'text-halign': 'center',
        'text-wrap': 'ellipsis',
        'text-max-width': `${GRAPH_NODE_WIDTH - 14}px`,
      },
    },
    {
      selector: 'node.folder',
      style: {
        'background-color': t['--graph-folder-fill'],
        'border-width': 1.5,
        'font-weight': 600,
        'min-zoomed-font-size': 4,
      },
    },
    {
      selector: 'node.external',
      style: {
        shape: 'hexagon',
        'background-color': t['--graph-ext-fill'],
        'border-color': t['--graph-ext-line'],
      },
    },
    {
      selector: 'node.hub',
      style: {
        'background-color': t['--graph-hub-fill'],
        'border-color': t['--graph-hub-line'],
        'border-width': 2.5,
        'font-weight': 700,
      },
    },
    { selector: 'node.cycle', style: { 'border-color': t['--error'], 'border-width': 2.5 } },
    { selector: 'node.near', style: { 'border-color': t['--accent'], 'border-width': 2.5 } },
    {
      selector: 'node.picked',
      style: { 'border-color': t['--accent'], 'border-width': 4, 'background-color': t['--bg-active'] },
    },
    {
      selector: 'edge',
      style: {
        width: `mapData(weight, 1, ${WIDEST_EDGE}, 1.2, 7)`,
        'curve-style': 'straight',
        'line-color': t['--graph-edge'],
        'target-arrow-color': t['--graph-edge'],
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.9,
        opacity: 0.7,
        'z-index': 5,
      },
    },
    { selector: 'edge.type', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
    { selector: 'edge.dynamic', style: { 'line-style': 'dotted' } },
    {
      selector: 'edge.cycle',
      style: {
        'line-color': t['--error'],
        'target-arrow-color': t['--error'],
        width: `mapData(weight, 1, ${WIDEST_EDGE}, 2.2, 8)`,
        opacity: 1,
        'z-index': 6,
      },
    },
    {
      selector: 'edge.near',
      style: {
        'line-color': t['--accent'],
        'target-arrow-color': t['--accent'],
        width: `mapData(weight, 1, ${WIDEST_EDGE}, 2.5, 8)`,
        opacity: 1,
        'z-index': 9,
      },
    },
  ] as StylesheetJson;
}

/** The element id of a folder's box (an expanded folder, or a cluster of the file-level graph). */
export const boxId = (folder: string): string => `box:${folder}`;

/** Show a drawn element whole, zoomed in no further than reading size; false while it is not drawn. */
export function fitTo(cy: Core, id: string, padding = 40): boolean {
  if (cy.destroyed()) return false;
  const el = cy.getElementById(id);
  if (el.empty()) return false;
  cy.fit(el, padding);
  if (cy.zoom() > 1) cy.zoom({ level: 1, position: el.position() });
  cy.center(el);
  return true;
}

export interface Drawing {
  elements: ElementDefinition[];
  /** The drawing's extent in model units (for the first viewport, without measuring every element). */
  bounds: { x1: number; y1: number; x2: number; y2: number };
}

/** What the layout needs of a view: its nodes by key (a folder and a file may share a name), grouped as drawn. */
export function layoutInputOf(view: GraphView): GraphLayoutInput {
  return {
    nodes: view.nodes.map((n) => ({ id: n.key, kind: n.kind, group: n.group, groupLabel: n.groupLabel })),
    edges: view.edges,
  };
}

/**
 * The view laid out (`placed`: its layoutInputOf's positions), as elements: folder boxes first,
 * then the nodes, then the edges (the order they are added in).
 */
export function drawingOf(view: GraphView, placed: GraphPlacement): Drawing {
  const { xy } = placed;
  const elements: ElementDefinition[] = [];
  const bounds = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  const grow = (x1: number, y1: number, x2: number, y2: number) => {
    bounds.x1 = Math.min(bounds.x1, x1);
    bounds.y1 = Math.min(bounds.y1, y1);
    bounds.x2 = Math.max(bounds.x2, x2);
    bounds.y2 = Math.max(bounds.y2, y2);
  };
  for (const c of placed.clusters) {
    if (c.id === FOLDERS_GROUP) continue; // collapsed folders stand side by side, no box
    grow(c.x, c.y - 24, c.x + c.width, c.y + c.height);
    elements.push({
      group: 'nodes',
      data: { id: boxId(c.id), label: visibleText(c.label), w: c.width, h: c.height },
      position: { x: c.x + c.width / 2, y: c.y + c.height / 2 },
      classes: 'cluster',
      selectable: false,
      pannable: true,
    });
  }
  view.nodes.forEach((n, i) => {
    const p = { x: xy[2 * i], y: xy[2 * i + 1] };
    grow(
      p.x - GRAPH_NODE_WIDTH / 2 - GRAPH_CLUSTER_PADDING,
      p.y - GRAPH_NODE_HEIGHT / 2,
      p.x + GRAPH_NODE_WIDTH / 2 + GRAPH_CLUSTER_PADDING,
      p.y + GRAPH_NODE_HEIGHT / 2,
    );
    const classes: string[] = [n.kind];
    if (n.hub) classes.push('hub');
    if (n.cycle) classes.push('cycle');
    elements.push({
      group: 'nodes',
      data: { id: n.key, label: visibleText(n.label) },
      position: { x: p.x, y: p.y },
      classes,
      pannable: true,
    });
  });
  for (const e of view.edges) {
    const classes: string[] = [e.kind];
    if (e.cycle) classes.push('cycle');
    elements.push({
      group: 'edges',
      data: { id: `e:${e.key}`, source: e.from, target: e.to, weight: e.weight },
      classes,
      pannable: true,
    });
  }
  if (!Number.isFinite(bounds.x1)) Object.assign(bounds, { x1: 0, y1: 0, x2: 1, y2: 1 });
  return { elements, bounds };
}

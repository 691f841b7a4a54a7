/**
 * The drawn import graph: files grouped in their folders (layoutGraph), external packages
 * apart, an arrow per import (type-only dashed, dynamic dotted), runtime cycles in the danger
 * color. Wheel or buttons zoom, drag pans. A click (or the find box) selects a file; the side
 * panel, in the DOM, shows its path, what imports it (each opens the importing line) and what
 * it imports.
 */
import type { ElementDefinition, StylesheetJson } from 'cytoscape';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { baseName } from '../../../core/source/types';
import type { GraphEdgeReport, GraphNodeReport, ImportGraphReport } from '../../../core/explore/types';
import {
  GRAPH_CLUSTER_PADDING,
  GRAPH_NODE_HEIGHT,
  GRAPH_NODE_WIDTH,
  layoutGraph,
} from '../../../core/explore/layout';
import { formatCount, plural } from '../../format';
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

export interface ImportGraphProps {
  graph: ImportGraphReport;
  /** Open a workspace file, at a line when there is one. */
  onOpenFile: (path: string, line?: number) => void;
  /** The canvas's height in CSS pixels (default 560). */
  height?: number;
}

/** A list in the side panel shows this many rows, then says how many more. */
const PANEL_ROWS = 200;

const COLORS = [
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
] as const;

/** Which drawn kind wins when two files import each other more than once. */
const KIND_RANK: Record<GraphEdgeReport['kind'], number> = { static: 0, dynamic: 1, type: 2 };

function graphStyle(t: GraphTheme): StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        'font-family': t.font,
        'font-size': 12,
        color: t['--fg'],
        'min-zoomed-font-size': 7,
        'text-events': 'no',
      },
    },
    {
      selector: 'node.cluster',
      style: {
        shape: 'round-rectangle',
        'background-color': t['--graph-cluster'],
        'border-color': t['--border'],
        'border-width': 1,
        padding: `${GRAPH_CLUSTER_PADDING}px`,
        label: 'data(label)',
        'text-valign': 'top',
        'text-halign': 'center',
        'text-margin-y': -4,
        'font-size': 14,
        'font-weight': 600,
        color: t['--fg-muted'],
        'min-zoomed-font-size': 5,
      },
    },
    {
      selector: 'node.file, node.external',
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
      selector: 'node.external',
      style: {
        shape: 'hexagon',
        'background-color': t['--graph-ext-fill'],
        'border-color': t['--graph-ext-line'],
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
        width: 1.2,
        'curve-style': 'straight',
        'line-color': t['--graph-edge'],
        'target-arrow-color': t['--graph-edge'],
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.9,
        opacity: 0.7,
      },
    },
    { selector: 'edge.type', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
    { selector: 'edge.dynamic', style: { 'line-style': 'dotted' } },
    {
      selector: 'edge.cycle',
      style: {
        'line-color': t['--error'],
        'target-arrow-color': t['--error'],
        width: 2.2,
        opacity: 1,
        'z-index': 5,
      },
    },
    {
      selector: 'edge.near',
      style: {
        'line-color': t['--accent'],
        'target-arrow-color': t['--accent'],
        width: 2.5,
        opacity: 1,
        'z-index': 9,
      },
    },
  ] as StylesheetJson;
}

interface Model {
  byId: Map<string, GraphNodeReport>;
  /** Edges into a file (its importers), and out of it, in line order. */
  importedBy: Map<string, GraphEdgeReport[]>;
  imports: Map<string, GraphEdgeReport[]>;
  /** Runtime cycle: each file's component. */
  cycleOf: Map<string, number>;
  finder: FinderItem[];
}

function buildModel(graph: ImportGraphReport): Model {
  const byId = new Map<string, GraphNodeReport>();
  for (const n of graph.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const importedBy = new Map<string, GraphEdgeReport[]>();
  const imports = new Map<string, GraphEdgeReport[]>();
  const push = (m: Map<string, GraphEdgeReport[]>, k: string, e: GraphEdgeReport) => {
    const list = m.get(k);
    if (list) list.push(e);
    else m.set(k, [e]);
  };
  for (const e of graph.edges) {
    push(importedBy, e.to, e);
    push(imports, e.from, e);
  }
  const byPath = (a: GraphEdgeReport, b: GraphEdgeReport, key: 'from' | 'to') =>
    a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.line - b.line;
  for (const list of importedBy.values()) list.sort((a, b) => byPath(a, b, 'from'));
  for (const list of imports.values()) list.sort((a, b) => a.line - b.line || byPath(a, b, 'to'));
  const cycleOf = new Map<string, number>();
  graph.cycles.forEach((c, i) => c.files.forEach((f) => cycleOf.set(f, i)));
  const finder = [...byId.values()].map((n) => ({
    id: n.id,
    name: n.kind === 'file' ? baseName(n.id) : n.id,
    full: n.id,
  }));
  return { byId, importedBy, imports, cycleOf, finder };
}

/** A static edge between two files of the same runtime cycle is part of it. */
const inCycle = (m: Model, e: { from: string; to: string; kind: string }) =>
  e.kind === 'static' && m.cycleOf.has(e.from) && m.cycleOf.get(e.from) === m.cycleOf.get(e.to);

/** The drawing: cluster boxes, nodes at their layout positions (ids n0.., c0..), one edge per pair of files. */
function buildElements(
  graph: ImportGraphReport,
  m: Model,
  onlyCycles: boolean,
): {
  elements: ElementDefinition[];
  cyId: Map<string, string>;
  pathOf: Map<string, string>;
  edgeCount: number;
} {
  const nodes = [...m.byId.values()].filter((n) => !onlyCycles || m.cycleOf.has(n.id));
  const shown = new Set(nodes.map((n) => n.id));
  const pairs = new Map<string, GraphEdgeReport>();
  for (const e of graph.edges) {
    if (!shown.has(e.from) || !shown.has(e.to)) continue;
    if (onlyCycles && !inCycle(m, e)) continue;
    const key = `${e.from}\u0000${e.to}`;
    const had = pairs.get(key);
    if (!had || KIND_RANK[e.kind] < KIND_RANK[had.kind]) pairs.set(key, e);
  }
  const layout = layoutGraph(nodes, [...pairs.values()]);
  const elements: ElementDefinition[] = [];
  const clusterId = new Map<string, string>();
  layout.clusters.forEach((c, i) => {
    clusterId.set(c.id, `c${i}`);
    elements.push({
      group: 'nodes',
      data: { id: `c${i}`, label: visibleText(c.label) },
      classes: 'cluster',
      selectable: false,
      pannable: true,
    });
  });
  const cyId = new Map<string, string>();
  const pathOf = new Map<string, string>();
  nodes.forEach((n, i) => {
    const p = layout.positions.get(n.id)!;
    const id = `n${i}`;
    cyId.set(n.id, id);
    pathOf.set(id, n.id);
    const classes = [n.kind === 'external' ? 'external' : 'file'];
    if (m.cycleOf.has(n.id)) classes.push('cycle');
    elements.push({
      group: 'nodes',
      data: {
        id,
        parent: clusterId.get(p.cluster),
        label: visibleText(n.kind === 'file' ? baseName(n.id) : n.id),
      },
      position: { x: p.x, y: p.y },
      classes,
      pannable: true,
    });
  });
  let k = 0;
  for (const e of pairs.values()) {
    const classes: string[] = [e.kind];
    if (inCycle(m, e)) classes.push('cycle');
    elements.push({
      group: 'edges',
      data: { id: `e${k++}`, source: cyId.get(e.from)!, target: cyId.get(e.to)! },
      classes,
      pannable: true,
    });
  }
  return { elements, cyId, pathOf, edgeCount: k };
}

export function ImportGraph({ graph, onOpenFile, height = 560 }: ImportGraphProps) {
  const model = useMemo(() => buildModel(graph), [graph]);
  const hasCycles = graph.cycles.length > 0;
  const [cyclesOnly, setCyclesOnly] = useState(false);
  const onlyCycles = cyclesOnly && hasCycles;
  const drawing = useMemo(() => buildElements(graph, model, onlyCycles), [graph, model, onlyCycles]);
  // the selection belongs to the graph it was made in
  const [picked, setPicked] = useState<{ graph: ImportGraphReport; path: string } | null>(null);
  const selected = picked?.graph === graph && model.byId.has(picked.path) ? picked.path : null;
  const [centerRequest, setCenterRequest] = useState<string | null>(null);

  const { containerRef, cy, error, retry } = useCytoscape({
    elements: drawing.elements,
    style: graphStyle,
    colors: COLORS,
    onNodeTap: (id) => {
      const path = drawing.pathOf.get(id);
      if (path) setPicked({ graph, path });
    },
    onBackgroundTap: () => setPicked(null),
    titleOf: (id) => {
      const path = drawing.pathOf.get(id);
      return path === undefined ? undefined : [path];
    },
  });

  // the selection on the canvas: the file, its edges and its neighbours
  useEffect(() => {
    if (!cy || cy.destroyed()) return;
    cy.batch(() => {
      cy.elements('.picked, .near').removeClass('picked near');
      const id = selected === null ? undefined : drawing.cyId.get(selected);
      if (!id) return;
      const node = cy.getElementById(id);
      node.addClass('picked');
      node.connectedEdges().addClass('near');
      node.neighborhood('node').not(node).addClass('near');
    });
  }, [cy, selected, drawing]);

  // a file chosen outside the canvas: show it (waits for a rebuild when the drawing changed)
  useEffect(() => {
    if (!cy || cy.destroyed() || centerRequest === null) return;
    const id = drawing.cyId.get(centerRequest);
    if (id && centerOn(cy, id)) setCenterRequest(null);
  }, [cy, centerRequest, drawing]);

  const select = (path: string) => {
    setPicked({ graph, path });
    if (onlyCycles && !model.cycleOf.has(path)) setCyclesOnly(false);
    setCenterRequest(path);
  };

  const files = graph.nodes.filter((n) => n.kind === 'file').length;
  const externals = graph.nodes.length - files;
  const drawnFiles = onlyCycles ? model.cycleOf.size : files;
  const summary =
    `Import graph: ${plural(drawnFiles, 'file')}` +
    (onlyCycles ? ' in cycles' : externals ? `, ${plural(externals, 'external package')}` : '') +
    `, ${plural(drawing.edgeCount, 'import')}, ${plural(graph.cycles.length, 'cycle')}`;

  if (!graph.nodes.length) {
    return (
      <div className="graph-wrap" data-testid="import-graph">
        <p className="graph-note">No imports to draw: no file of the workspace imports another.</p>
      </div>
    );
  }

  return (
    <div className="graph-wrap" data-testid="import-graph">
      <div className="graph-toolbar">
        <NodeFinder
          items={model.finder}
          onPick={select}
          label="Find a file in the import graph"
          placeholder="Find a file by name"
        />
        <button
          type="button"
          className="toggle"
          aria-pressed={onlyCycles}
          disabled={!hasCycles}
          onClick={() => setCyclesOnly((v) => !v)}
          title={hasCycles ? 'Draw only the files in runtime import cycles' : 'No runtime import cycle'}
        >
          Only cycles
        </button>
        <ZoomControls cy={cy} what="import graph" />
        <GraphLegend />
      </div>
      {graph.truncated && <p className="graph-note">The graph was capped: only part of it is drawn.</p>}
      <div className="graph-body">
        <GraphCanvas
          canvasRef={containerRef}
          ready={!!cy}
          error={error}
          onRetry={retry}
          label={summary}
          height={height}
          what="import graph"
        />
        <NodePanel
          selected={selected}
          model={model}
          onOpenFile={onOpenFile}
          onSelect={select}
          height={height}
        />
      </div>
    </div>
  );
}

function GraphLegend() {
  return (
    <ul className="graph-legend" aria-label="Legend">
      <li>
        <span className="swatch swatch-file" aria-hidden="true" /> file
      </li>
      <li>
        <span className="swatch swatch-external" aria-hidden="true" /> external package
      </li>
      <li>
        <span className="swatch swatch-cycle" aria-hidden="true" /> in a runtime cycle
      </li>
      <li>
        <span className="line line-static" aria-hidden="true" /> import
      </li>
      <li>
        <span className="line line-type" aria-hidden="true" /> type-only
      </li>
      <li>
        <span className="line line-dynamic" aria-hidden="true" /> dynamic import()
      </li>
    </ul>
  );
}

function NodePanel({
  selected,
  model,
  onOpenFile,
  onSelect,
  height,
}: {
  selected: string | null;
  model: Model;
  onOpenFile: ImportGraphProps['onOpenFile'];
  onSelect: (path: string) => void;
  height: number;
}) {
  const node = selected === null ? undefined : model.byId.get(selected);
  return (
    <aside
      className="graph-panel"
      aria-label="Selected file"
      data-testid="graph-node-panel"
      data-selected={selected ?? ''}
      style={{ maxHeight: height }}
    >
      {!node ? (
        <p className="muted">
          Select a file in the graph, or find it by name, to see what imports it and what it imports.
        </p>
      ) : (
        <>
          <h3 className="graph-panel-title mono">
            <PathText path={node.id} />
          </h3>
          <p className="badges">
            <Badge kind={node.kind === 'external' ? 'muted' : 'plain'}>
              {node.kind === 'external' ? 'external package' : 'file'}
            </Badge>
            {model.cycleOf.has(node.id) && <Badge kind="cycle">in a runtime cycle</Badge>}
          </p>
          {node.kind === 'file' && (
            <button
              type="button"
              className="primary"
              onClick={() => onOpenFile(node.id)}
              aria-label={`Open file ${visibleText(node.id)}`}
            >
              Open file
            </button>
          )}
          <EdgeList
            title="Imported by"
            edges={model.importedBy.get(node.id) ?? []}
            other={(e) => e.from}
            renderRow={(e) => (
              <>
                <button
                  type="button"
                  className="link mono"
                  onClick={() => onOpenFile(e.from, e.line)}
                  aria-label={`Open ${visibleText(e.from)} at line ${e.line}`}
                >
                  <PathText path={e.from} line={e.line} />
                </button>
                <KindBadge e={e} />
                <ShowButton path={e.from} model={model} onSelect={onSelect} />
              </>
            )}
          />
          <EdgeList
            title="Imports"
            edges={model.imports.get(node.id) ?? []}
            other={(e) => e.to}
            renderRow={(e) => {
              const target = model.byId.get(e.to);
              return (
                <>
                  {target?.kind === 'external' ? (
                    <span className="mono">
                      <VisibleText text={e.to} />
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="link mono"
                      onClick={() => onOpenFile(e.to)}
                      aria-label={`Open ${visibleText(e.to)}`}
                    >
                      <PathText path={e.to} />
                    </button>
                  )}
                  <button
                    type="button"
                    className="graph-line"
                    onClick={() => onOpenFile(e.from, e.line)}
                    aria-label={`Open the import of ${visibleText(e.to)}: line ${e.line} of ${visibleText(e.from)}`}
                  >
                    line {e.line}
                  </button>
                  <KindBadge e={e} />
                  <ShowButton path={e.to} model={model} onSelect={onSelect} />
                </>
              );
            }}
          />
        </>
      )}
    </aside>
  );
}

function EdgeList({
  title,
  edges,
  other,
  renderRow,
}: {
  title: string;
  edges: GraphEdgeReport[];
  other: (e: GraphEdgeReport) => string;
  renderRow: (e: GraphEdgeReport) => ReactNode;
}) {
  const files = new Set(edges.map(other)).size;
  return (
    <section className="graph-edges">
      <h4>
        {title} ({formatCount(files)})
      </h4>
      {edges.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul aria-label={`${title}: ${plural(files, 'file')}`}>
          {edges.slice(0, PANEL_ROWS).map((e) => (
            <li key={`${e.from}\u0000${e.to}\u0000${e.line}\u0000${e.kind}`}>{renderRow(e)}</li>
          ))}
          {edges.length > PANEL_ROWS && (
            <li className="muted">and {plural(edges.length - PANEL_ROWS, 'more import')}</li>
          )}
        </ul>
      )}
    </section>
  );
}

function KindBadge({ e }: { e: GraphEdgeReport }) {
  if (e.kind === 'static') return null;
  return <Badge kind="muted">{e.kind === 'type' ? 'type-only' : 'dynamic'}</Badge>;
}

function ShowButton({
  path,
  model,
  onSelect,
}: {
  path: string;
  model: Model;
  onSelect: (path: string) => void;
}) {
  if (!model.byId.has(path)) return null;
  return (
    <button
      type="button"
      className="graph-show"
      onClick={() => onSelect(path)}
      aria-label={`Select ${visibleText(path)} in the graph`}
      title="Select in the graph"
    >
      ◎
    </button>
  );
}

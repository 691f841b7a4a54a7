/**
 * The drawn import graph: files grouped in their folders, external packages apart, an arrow per
 * pair of importing files (type-only dashed, dynamic dotted), runtime cycles in the danger color,
 * the most imported files and folders (hubs) filled. A large graph (opensAtFolderLevel) opens at
 * folder level: each folder one node, the imports between folders one edge each, as wide as
 * their count; a click on a folder (or its button in the side panel's folder list) draws its
 * files in its place. Wheel or buttons zoom, drag pans. A click (or the find box) selects a file;
 * the side panel, in the DOM, shows its path, what imports it (each opens the importing line) and
 * what it imports. The layout runs in a worker (useGraphDrawing) and the drawing fills in a slice
 * per frame (useCytoscape), so opening the view on a 1,000-file graph never blocks the page.
 */
import type { Core } from 'cytoscape';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { baseName } from '../../../core/source/types';
import type { GraphEdgeReport, GraphNodeReport, ImportGraphReport } from '../../../core/explore/types';
import {
  fileKey,
  folderKey,
  graphView,
  indexFolders,
  opensAtFolderLevel,
  type FolderIndex,
} from '../../../core/explore/graph-folders';
import { formatCount, plural } from '../../format';
import { visibleText } from '../../visible-text';
import { VisibleText } from '../../VisibleText';
import { Badge, PathText } from '../parts';
import { FolderList } from './FolderList';
import { boxId, fitTo, GRAPH_COLORS, graphStyle } from './graph-elements';
import {
  centerOn,
  GraphCanvas,
  NodeFinder,
  useCytoscape,
  ZoomControls,
  type FinderItem,
} from './graph-canvas';
import { useGraphDrawing } from './use-graph-drawing';
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

interface Model {
  byId: Map<string, GraphNodeReport>;
  /** Edges into a file (its importers), and out of it, in line order. */
  importedBy: Map<string, GraphEdgeReport[]>;
  imports: Map<string, GraphEdgeReport[]>;
  /** Folders, cycles and hubs. */
  folders: FolderIndex;
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
  const finder = [...byId.values()].map((n) => ({
    id: n.id,
    name: n.kind === 'file' ? baseName(n.id) : n.id,
    full: n.id,
  }));
  return { byId, importedBy, imports, folders: indexFolders(graph), finder };
}

const NO_FOLDERS: ReadonlySet<string> = new Set();

export function ImportGraph({ graph, onOpenFile, height = 560 }: ImportGraphProps) {
  const model = useMemo(() => buildModel(graph), [graph]);
  const byFolder = useMemo(() => opensAtFolderLevel(graph), [graph]);
  const hasCycles = graph.cycles.length > 0;
  const [cyclesOnly, setCyclesOnly] = useState(false);
  const onlyCycles = cyclesOnly && hasCycles;
  const [expanded, setExpanded] = useExpanded(graph);
  const view = useMemo(
    () => graphView(graph, model.folders, { expanded: byFolder ? expanded : 'all', onlyCycles }),
    [graph, model, byFolder, expanded, onlyCycles],
  );
  const { drawing, pending } = useGraphDrawing(view);
  // the selection belongs to the graph it was made in
  const [picked, setPicked] = useState<{ graph: ImportGraphReport; path: string } | null>(null);
  const selected = picked?.graph === graph && model.byId.has(picked.path) ? picked.path : null;
  // what to show once drawn: a file chosen outside the canvas, a folder just expanded
  const [centerRequest, setCenterRequest] = useState<string | null>(null);

  const expand = (folder: string) => {
    setExpanded((had) => new Set(had).add(folder));
    setCenterRequest(boxId(folder));
  };
  const toggleFolder = (folder: string) => {
    if (expanded.has(folder)) setExpanded((had) => new Set([...had].filter((f) => f !== folder)));
    else expand(folder);
  };

  const { containerRef, cy, drawn, version, error, retry } = useCytoscape({
    elements: drawing.elements,
    bounds: drawing.bounds,
    big: graph.nodes.length + graph.edges.length > 600,
    style: graphStyle,
    colors: GRAPH_COLORS,
    onNodeTap: (id) => {
      if (id.startsWith('d:'))
        expand(id.slice(2)); // a collapsed folder: draw its files
      else if (id.startsWith('f:')) setPicked({ graph, path: id.slice(2) });
    },
    onBackgroundTap: () => setPicked(null),
    titleOf: (id) => titleOf(model, id),
  });

  useCanvasSelection(cy, selected, model, version);
  useEffect(() => {
    if (!cy || cy.destroyed() || centerRequest === null) return;
    const shown = centerRequest.startsWith('box:')
      ? fitTo(cy, centerRequest)
      : centerOn(cy, fileKey(centerRequest));
    if (shown) setCenterRequest(null);
  }, [cy, centerRequest, version]);

  const select = (path: string) => {
    setPicked({ graph, path });
    if (onlyCycles && !model.folders.cycleOf.has(path)) setCyclesOnly(false);
    const folder = model.folders.folderOf.get(path);
    if (byFolder && folder !== undefined && !expanded.has(folder))
      setExpanded((had) => new Set(had).add(folder));
    setCenterRequest(path);
  };

  const files = graph.nodes.filter((n) => n.kind === 'file').length;
  const folderLevel = byFolder && !onlyCycles;
  const summary = summaryOf(graph, model, view.edges.length, folderLevel ? expanded : null, onlyCycles);

  if (!graph.edges.length) {
    return (
      <div className="graph-wrap" data-testid="import-graph">
        <p className="graph-note">No imports to draw: no file of the workspace imports another.</p>
      </div>
    );
  }

  return (
    <div className="graph-wrap" data-testid="import-graph" data-level={folderLevel ? 'folders' : 'files'}>
      <div className="graph-toolbar">
        <NodeFinder
          items={model.finder}
          onPick={select}
          label="Find a file in the import graph"
          placeholder="Find a file by name"
        />
        <CyclesToggle on={onlyCycles} enabled={hasCycles} onToggle={() => setCyclesOnly((v) => !v)} />
        <ZoomControls cy={cy} what="import graph" />
        <GraphLegend folders={byFolder} />
      </div>
      {folderLevel && <FolderNote files={files} folders={model.folders.folders.size} />}
      {graph.truncated && <p className="graph-note">The graph was capped: only part of it is drawn.</p>}
      <div className="graph-body">
        <GraphCanvas
          canvasRef={containerRef}
          ready={!!cy}
          drawn={drawn && !pending}
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
        >
          {byFolder && (
            <FolderList
              index={model.folders}
              expanded={expanded}
              onToggle={toggleFolder}
              onCollapseAll={() => setExpanded(() => NO_FOLDERS)}
            />
          )}
        </NodePanel>
      </div>
    </div>
  );
}

/** The folders drawn as their files (large graphs), for the graph they were opened in. */
function useExpanded(
  graph: ImportGraphReport,
): [ReadonlySet<string>, (next: (had: ReadonlySet<string>) => ReadonlySet<string>) => void] {
  const [opened, setOpened] = useState<{ graph: ImportGraphReport; folders: ReadonlySet<string> } | null>(
    null,
  );
  const expanded = opened?.graph === graph ? opened.folders : NO_FOLDERS;
  const setExpanded = (next: (had: ReadonlySet<string>) => ReadonlySet<string>) =>
    setOpened((o) => ({ graph, folders: next(o?.graph === graph ? o.folders : NO_FOLDERS) }));
  return [expanded, setExpanded];
}

/** A node's tooltip: a file's path; a folder's name, size and marks. */
function titleOf(model: Model, id: string): string[] | undefined {
  if (id.startsWith('f:')) return [id.slice(2)];
  const f = id.startsWith('d:') ? model.folders.folders.get(id.slice(2)) : undefined;
  if (!f) return undefined;
  const marks = `${f.hub ? ', a hub' : ''}${f.cycle ? ', in a runtime cycle' : ''}`;
  return [
    f.label,
    `${plural(f.members.length, f.external ? 'package' : 'file')}${marks}`,
    'Click to draw its files',
  ];
}

function CyclesToggle({ on, enabled, onToggle }: { on: boolean; enabled: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="toggle"
      aria-pressed={on}
      disabled={!enabled}
      onClick={onToggle}
      title={enabled ? 'Draw only the files in runtime import cycles' : 'No runtime import cycle'}
    >
      Only cycles
    </button>
  );
}

function FolderNote({ files, folders }: { files: number; folders: number }) {
  return (
    <p className="graph-note">
      {formatCount(files)} files in {plural(folders, 'folder')}: drawn by folder, each line as wide as the
      imports it stands for. Click a folder, or its name under Folders, to draw its files.
    </p>
  );
}

/** The selection on the canvas: the file (or its folder, collapsed), its edges and its neighbours. */
function useCanvasSelection(cy: Core | null, selected: string | null, model: Model, version: number): void {
  useEffect(() => {
    if (!cy || cy.destroyed()) return;
    cy.batch(() => {
      cy.elements('.picked, .near').removeClass('picked near');
      if (selected === null) return;
      let node = cy.getElementById(fileKey(selected));
      const folder = model.folders.folderOf.get(selected);
      if (node.empty() && folder !== undefined) node = cy.getElementById(folderKey(folder));
      if (node.empty()) return;
      node.addClass('picked');
      node.connectedEdges().addClass('near');
      node.neighborhood('node').not(node).addClass('near');
    });
  }, [cy, selected, model, version]);
}

/** The drawing's accessible name: what is drawn, in words. `expanded` null: drawn file by file. */
function summaryOf(
  graph: ImportGraphReport,
  model: Model,
  links: number,
  expanded: ReadonlySet<string> | null,
  onlyCycles: boolean,
): string {
  const files = graph.nodes.filter((n) => n.kind === 'file').length;
  const externals = graph.nodes.length - files;
  const cycles = plural(graph.cycles.length, 'cycle');
  if (expanded)
    return (
      `Import graph by folder: ${plural(model.folders.folders.size, 'folder')} of ${plural(files, 'file')}` +
      (expanded.size ? `, ${plural(expanded.size, 'folder')} drawn as files` : '') +
      `, ${plural(links, 'link')}, ${cycles}`
    );
  return (
    `Import graph: ${plural(onlyCycles ? model.folders.cycleOf.size : files, 'file')}` +
    (onlyCycles ? ' in cycles' : externals ? `, ${plural(externals, 'external package')}` : '') +
    `, ${plural(links, 'import')}, ${cycles}`
  );
}

function GraphLegend({ folders }: { folders: boolean }) {
  return (
    <ul className="graph-legend" aria-label="Legend">
      {folders && (
        <li>
          <span className="swatch swatch-folder" aria-hidden="true" /> folder
        </li>
      )}
      <li>
        <span className="swatch swatch-file" aria-hidden="true" /> file
      </li>
      <li>
        <span className="swatch swatch-external" aria-hidden="true" /> external package
      </li>
      <li>
        <span className="swatch swatch-hub" aria-hidden="true" /> hub (most imported)
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
  children,
}: {
  selected: string | null;
  model: Model;
  onOpenFile: ImportGraphProps['onOpenFile'];
  onSelect: (path: string) => void;
  height: number;
  /** Shown under the file (the folder list of a large graph). */
  children?: ReactNode;
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
            {model.folders.cycleOf.has(node.id) && <Badge kind="cycle">in a runtime cycle</Badge>}
            {model.folders.hubFiles.has(node.id) && <Badge kind="hub">hub</Badge>}
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
      {children}
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

/**
 * The import graph at folder level, for drawing a large one without drawing every file: plain
 * data in, plain data out (no DOM), so the UI only lays the result out and hands it to the
 * renderer.
 *
 * indexFolders groups the graph's files into folders (their first `depth` segments, as the
 * drawn clusters; external packages in one group of their own) and measures each folder: its
 * files, the files of other folders importing it (fan-in) and its own files importing another (fan-out), whether
 * it holds a file of a runtime cycle, and whether it is a hub (among the most imported folders,
 * well above the average). graphView then draws the graph with some folders expanded: a
 * collapsed folder is one node, an expanded folder its files; the imports between what is drawn
 * are merged into one edge per pair, with their count as the weight, the strongest kind
 * (static, then dynamic, then type-only) and whether one of them is part of a runtime cycle.
 * Everything is linear in the graph's size, but for sorting the folders.
 */
import { baseName } from '../source/types';
import { clusterOf } from './layout';
import type { GraphEdgeReport, ImportGraphReport } from './types';

/** Above this many drawn nodes (files and packages), the graph opens at folder level. */
export const FOLDER_LEVEL_NODES = 300;
/** ... or above this many imports between them. */
export const FOLDER_LEVEL_EDGES = 1200;
/** At most this many folders are marked as hubs. */
export const HUB_FOLDERS = 5;
/** A hub's fan-in is at least this many times the average folder's (and at least HUB_MIN). */
const HUB_FACTOR = 2;
const HUB_MIN = 3;
/** A file is marked as a hub when it is among the report's most imported and imported this many times the average (and at least HUB_MIN). */
const HUB_FILE_FACTOR = 3;

/** The group collapsed folders are laid out in (drawn without a box). */
export const FOLDERS_GROUP = 'folders';

/** Which drawn kind wins when several imports are merged into one edge. */
export const KIND_RANK: Record<GraphEdgeReport['kind'], number> = { static: 0, dynamic: 1, type: 2 };

export interface FolderInfo {
  /** The drawn cluster's id: `dir:<folder>`, or `external` for the packages. */
  id: string;
  label: string;
  /** Its nodes (files, or packages), in path order. */
  members: string[];
  external: boolean;
  /** Files of other folders importing one of its files; files of its own importing another folder. */
  fanIn: number;
  fanOut: number;
  /** Imports between its own files. */
  internal: number;
  hub: boolean;
  /** It holds a file of a runtime cycle. */
  cycle: boolean;
}

export interface FolderIndex {
  /** By id, in id order. */
  folders: Map<string, FolderInfo>;
  /** Node id (file path or package) -> its folder's id. */
  folderOf: Map<string, string>;
  /** Runtime cycle: each file's component. */
  cycleOf: Map<string, number>;
  /** The most imported files, well above the average. */
  hubFiles: Set<string>;
}

export interface ViewNode {
  /** Unique among the view's nodes: `f:<path>` for a file or package, `d:<folder id>` for a collapsed folder. */
  key: string;
  kind: 'file' | 'external' | 'folder';
  /** The file's path, the package's name, or the folder's id. */
  id: string;
  label: string;
  /** The layout group: the folder's id for a file, FOLDERS_GROUP for a collapsed folder. */
  group: string;
  groupLabel: string;
  /** A collapsed folder's node count. */
  size: number;
  hub: boolean;
  cycle: boolean;
}

export interface ViewEdge {
  key: string;
  /** View node keys. */
  from: string;
  to: string;
  kind: GraphEdgeReport['kind'];
  /** How many imports (distinct pairs of files) it stands for. */
  weight: number;
  cycle: boolean;
}

export interface GraphView {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** Collapsed folders drawn. */
  folders: number;
  /** Files and packages drawn one by one. */
  files: number;
}

export const fileKey = (id: string): string => `f:${id}`;
export const folderKey = (id: string): string => `d:${id}`;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A large graph opens at folder level: drawing every file would take seconds and show nothing legible. */
export function opensAtFolderLevel(graph: Pick<ImportGraphReport, 'nodes' | 'edges'>): boolean {
  return graph.nodes.length > FOLDER_LEVEL_NODES || graph.edges.length > FOLDER_LEVEL_EDGES;
}

/** A static edge between two files of the same runtime cycle is part of it. */
export const edgeInCycle = (
  cycleOf: ReadonlyMap<string, number>,
  e: Omit<GraphEdgeReport, 'line'>,
): boolean => e.kind === 'static' && cycleOf.has(e.from) && cycleOf.get(e.from) === cycleOf.get(e.to);

export function indexFolders(
  graph: Pick<ImportGraphReport, 'nodes' | 'edges' | 'cycles' | 'hubs'>,
  depth = 2,
): FolderIndex {
  const cycleOf = new Map<string, number>();
  graph.cycles.forEach((c, i) => c.files.forEach((f) => cycleOf.set(f, i)));
  const folderOf = new Map<string, string>();
  const byId = new Map<string, FolderInfo>();
  for (const n of graph.nodes) {
    if (folderOf.has(n.id)) continue;
    const c = clusterOf(n.id, n.kind, depth);
    folderOf.set(n.id, c.id);
    let f = byId.get(c.id);
    if (!f) {
      f = {
        id: c.id,
        label: c.label,
        members: [],
        external: n.kind === 'external',
        fanIn: 0,
        fanOut: 0,
        internal: 0,
        hub: false,
        cycle: false,
      };
      byId.set(c.id, f);
    }
    f.members.push(n.id);
    if (cycleOf.has(n.id)) f.cycle = true;
  }
  // fan-in and fan-out count files, not imports: a file importing three files of a folder is one
  const importers = new Map<string, Set<string>>();
  const importing = new Map<string, Set<string>>();
  const pairs = new Set<string>();
  for (const e of graph.edges) {
    const a = folderOf.get(e.from);
    const b = folderOf.get(e.to);
    if (a === undefined || b === undefined || e.from === e.to) continue;
    const pair = `${e.from}\u0000${e.to}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    if (a === b) {
      byId.get(a)!.internal++;
      continue;
    }
    let s = importers.get(b);
    if (!s) importers.set(b, (s = new Set()));
    s.add(e.from);
    let t = importing.get(a);
    if (!t) importing.set(a, (t = new Set()));
    t.add(e.from);
  }
  const folders = new Map([...byId.entries()].sort(([a], [b]) => compare(a, b)));
  for (const f of folders.values()) {
    f.members.sort(compare);
    f.fanIn = importers.get(f.id)?.size ?? 0;
    f.fanOut = importing.get(f.id)?.size ?? 0;
  }
  // hubs: the most imported folders, well above the average (packages are a sink, not a hub)
  const local = [...folders.values()].filter((f) => !f.external);
  const mean = local.reduce((sum, f) => sum + f.fanIn, 0) / Math.max(1, local.length);
  local
    .filter((f) => f.fanIn >= Math.max(HUB_MIN, HUB_FACTOR * mean))
    .sort((a, b) => b.fanIn - a.fanIn || compare(a.id, b.id))
    .slice(0, HUB_FOLDERS)
    .forEach((f) => (f.hub = true));
  const files = graph.nodes.filter((n) => n.kind === 'file').length;
  const meanIn = pairs.size / Math.max(1, files);
  const hubFiles = new Set(
    graph.hubs.fanIn
      .filter((h) => h.count >= Math.max(HUB_MIN, HUB_FILE_FACTOR * meanIn) && folderOf.has(h.path))
      .map((h) => h.path),
  );
  return { folders, folderOf, cycleOf, hubFiles };
}

export interface ViewOptions {
  /** Folder ids drawn as their files; `all` draws every file (the file-level graph). */
  expanded: ReadonlySet<string> | 'all';
  /** Only the files in runtime cycles and the imports that make them (file level). */
  onlyCycles?: boolean;
}

/** The graph to draw: collapsed folders as nodes, expanded ones as their files, imports merged per pair. */
export function graphView(
  graph: Pick<ImportGraphReport, 'nodes' | 'edges'>,
  index: FolderIndex,
  { expanded, onlyCycles = false }: ViewOptions,
): GraphView {
  const all = expanded === 'all' || onlyCycles;
  const open = (folder: string) => all || (expanded as ReadonlySet<string>).has(folder);
  const kindOf = new Map<string, 'file' | 'external'>();
  for (const n of graph.nodes) if (!kindOf.has(n.id)) kindOf.set(n.id, n.kind);
  const nodes: ViewNode[] = [];
  const repOf = new Map<string, string>();
  let folders = 0;
  for (const f of index.folders.values()) {
    if (open(f.id)) {
      for (const id of f.members) {
        if (onlyCycles && !index.cycleOf.has(id)) continue;
        const kind = kindOf.get(id) ?? 'file';
        repOf.set(id, fileKey(id));
        nodes.push({
          key: fileKey(id),
          kind,
          id,
          label: kind === 'file' ? baseName(id) : id,
          group: f.id,
          groupLabel: f.label,
          size: 1,
          hub: index.hubFiles.has(id),
          cycle: index.cycleOf.has(id),
        });
      }
    } else {
      folders++;
      for (const id of f.members) repOf.set(id, folderKey(f.id));
      nodes.push({
        key: folderKey(f.id),
        kind: 'folder',
        id: f.id,
        label: `${f.label} (${f.members.length})`,
        group: FOLDERS_GROUP,
        groupLabel: '',
        size: f.members.length,
        hub: f.hub,
        cycle: f.cycle,
      });
    }
  }
  // one edge per pair of drawn nodes: the strongest kind, the imports it stands for, any in a cycle
  const merged = new Map<string, ViewEdge>();
  const pairs = new Set<string>();
  for (const e of graph.edges) {
    const from = repOf.get(e.from);
    const to = repOf.get(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    const cycle = edgeInCycle(index.cycleOf, e);
    if (onlyCycles && !cycle) continue;
    const key = `${from}\u0000${to}`;
    const pair = `${e.from}\u0000${e.to}`;
    const had = merged.get(key);
    if (!had) {
      pairs.add(pair);
      merged.set(key, { key, from, to, kind: e.kind, weight: 1, cycle });
      continue;
    }
    if (KIND_RANK[e.kind] < KIND_RANK[had.kind]) had.kind = e.kind;
    if (cycle) had.cycle = true;
    if (!pairs.has(pair)) {
      pairs.add(pair);
      had.weight++;
    }
  }
  return { nodes, edges: [...merged.values()], folders, files: nodes.length - folders };
}

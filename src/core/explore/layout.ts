/**
 * Positions for the drawn import graph and the drawn route tree: plain data in, plain data out
 * (no DOM), so the UI only hands the result to the renderer's `preset` layout.
 *
 * layoutGraph: files are grouped by folder (the first `maxClusterDepth` segments), external
 * packages in one cluster of their own, or by `groupOf` (the folder-level graph: collapsed
 * folders as nodes of one group, an expanded folder's files in its own). Inside a cluster, files stand in columns by import
 * depth within the cluster (the longest path from a file no other file of the cluster imports;
 * cycles are broken at the DFS back edges, so they cannot hang the layering), each column in
 * name order; a tall column wraps into several, and a long run of columns wraps into bands,
 * so each cluster stays near 16:10. The clusters are shelf-packed (tallest first) into rows
 * about 16:10 overall. O(n log n + e log e): the sorts; the rest is linear.
 *
 * layoutTree: URL paths as a tree of segments, left to right: x by depth, y by leaf order
 * (children in name order), each parent centered over its first and last child.
 *
 * Coordinates are in the renderer's model units: a node's position is its center; a
 * cluster's x/y is its top-left corner.
 */

/** The drawn size of a graph node; the layout keeps them this far apart. */
export const GRAPH_NODE_WIDTH = 170;
export const GRAPH_NODE_HEIGHT = 28;
/** Space inside a cluster's box around its nodes (the renderer's compound padding). */
export const GRAPH_CLUSTER_PADDING = 20;
/** Column and row pitch inside a cluster. */
const COL = GRAPH_NODE_WIDTH + 36;
const ROW = GRAPH_NODE_HEIGHT + 16;
/** Space between clusters (room for a cluster's label above its box). */
const CLUSTER_GAP = 56;
/** Width / height the packing aims at. */
const ASPECT = 1.6;

/** Route-tree pitch: between depths, and between leaves. */
export const TREE_NODE_WIDTH = 150;
export const TREE_NODE_HEIGHT = 26;
export const TREE_DX = TREE_NODE_WIDTH + 50;
export const TREE_DY = TREE_NODE_HEIGHT + 14;

export const EXTERNAL_CLUSTER_ID = 'external';
export const EXTERNAL_CLUSTER_LABEL = 'external packages';
export const ROOT_CLUSTER_LABEL = '(root)';

export interface LayoutCluster {
  /** `dir:<folder>` for a folder (`dir:` for files at the root), `external` for the packages. */
  id: string;
  label: string;
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GraphLayout {
  clusters: LayoutCluster[];
  /** Node id -> its center and its cluster's id. */
  positions: Map<string, { x: number; y: number; cluster: string }>;
}

export interface GraphLayoutOptions<N extends LayoutNode = LayoutNode> {
  /** Folder segments that name a cluster (2: `src/core/explore/a.ts` -> `src/core`). */
  maxClusterDepth?: number;
  /** The cluster of a node, instead of its folder (clusterOf): e.g. collapsed folders drawn as nodes, side by side. */
  groupOf?: (node: N) => { id: string; label: string };
}

/** What the graph layout needs of a node. */
export interface LayoutNode {
  id: string;
  kind: 'file' | 'external' | 'folder';
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The cluster a file belongs to: its folder cut at `depth` segments. */
export function clusterOf(
  id: string,
  kind: 'file' | 'external' | 'folder',
  depth = 2,
): { id: string; label: string } {
  if (kind === 'external') return { id: EXTERNAL_CLUSTER_ID, label: EXTERNAL_CLUSTER_LABEL };
  // the folder, cut after `depth` segments
  const last = id.lastIndexOf('/');
  let end = -1;
  for (let k = 0; k < depth; k++) {
    const next = id.indexOf('/', end + 1);
    if (next < 0 || next > last) {
      end = last;
      break;
    }
    end = next;
  }
  const folder = end < 0 ? '' : id.slice(0, end);
  return { id: `dir:${folder}`, label: folder || ROOT_CLUSTER_LABEL };
}

export function layoutGraph<N extends LayoutNode>(
  nodes: ReadonlyArray<N>,
  edges: ReadonlyArray<{ from: string; to: string }>,
  options: GraphLayoutOptions<N> = {},
): GraphLayout {
  const depth = Math.max(0, Math.floor(options.maxClusterDepth ?? 2));
  // group the nodes (the first of a repeated id wins)
  const groups = new Map<string, { label: string; members: string[] }>();
  const clusterOfNode = new Map<string, string>();
  for (const n of nodes) {
    if (clusterOfNode.has(n.id)) continue;
    const c = options.groupOf ? options.groupOf(n) : clusterOf(n.id, n.kind, depth);
    clusterOfNode.set(n.id, c.id);
    let g = groups.get(c.id);
    if (!g) groups.set(c.id, (g = { label: c.label, members: [] }));
    g.members.push(n.id);
  }
  // each node's index inside its cluster, once the members are in name order
  const localIndex = new Map<string, number>();
  for (const g of groups.values()) {
    g.members.sort(compare);
    g.members.forEach((m, i) => localIndex.set(m, i));
  }
  // in-cluster edges, per cluster, as local indexes
  const inner = new Map<string, Array<[number, number]>>();
  for (const e of edges) {
    if (e.from === e.to) continue;
    const c = clusterOfNode.get(e.from);
    if (c === undefined || clusterOfNode.get(e.to) !== c) continue;
    let list = inner.get(c);
    if (!list) inner.set(c, (list = []));
    list.push([localIndex.get(e.from)!, localIndex.get(e.to)!]);
  }

  // each cluster on its own, at the origin
  const placed: Array<{
    id: string;
    label: string;
    width: number;
    height: number;
    members: string[];
    local: Array<{ x: number; y: number }>;
  }> = [];
  for (const [id, g] of groups) {
    const layers = layerOf(g.members.length, inner.get(id) ?? []);
    const grid = gridOf(layers);
    placed.push({ id, label: g.label, ...grid, members: g.members });
  }

  // shelf packing: tallest first, rows no wider than the 16:10 target
  placed.sort((a, b) => b.height - a.height || compare(a.id, b.id));
  let area = 0;
  let widest = 0;
  for (const p of placed) {
    area += (p.width + CLUSTER_GAP) * (p.height + CLUSTER_GAP);
    widest = Math.max(widest, p.width);
  }
  const rowWidth = Math.max(widest, Math.sqrt(area * ASPECT));
  const clusters: LayoutCluster[] = [];
  const positions: GraphLayout['positions'] = new Map();
  let x = 0;
  let y = 0;
  let shelf = 0;
  for (const p of placed) {
    if (x > 0 && x + p.width > rowWidth) {
      x = 0;
      y += shelf + CLUSTER_GAP;
      shelf = 0;
    }
    clusters.push({ id: p.id, label: p.label, x, y, width: p.width, height: p.height });
    p.members.forEach((m, i) =>
      positions.set(m, { x: x + p.local[i].x, y: y + p.local[i].y, cluster: p.id }),
    );
    x += p.width + CLUSTER_GAP;
    shelf = Math.max(shelf, p.height);
  }
  return { clusters, positions };
}

/**
 * Longest-path layers over the cluster's edges with the DFS back edges left out (so a cycle
 * cannot loop): a node's layer is one more than its deepest importer's.
 */
function layerOf(n: number, edges: Array<[number, number]>): Int32Array {
  const layer = new Int32Array(n);
  if (!edges.length) return layer;
  // adjacency in CSR form, each list in index order (the result does not depend on edge order)
  const start = new Int32Array(n + 1);
  for (const [a] of edges) start[a + 1]++;
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const adj = new Int32Array(edges.length);
  const fill = start.slice(0, n);
  for (const [a, b] of edges) adj[fill[a]++] = b;
  for (let i = 0; i < n; i++) if (start[i + 1] - start[i] > 1) adj.subarray(start[i], start[i + 1]).sort();
  // iterative DFS: postorder, and the back edges (to a node still on the stack) marked
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 done
  const back = new Uint8Array(edges.length);
  const post: number[] = [];
  const stack: number[] = [];
  const next = new Int32Array(n);
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    state[root] = 1;
    next[root] = start[root];
    stack.push(root);
    while (stack.length) {
      const v = stack[stack.length - 1];
      if (next[v] < start[v + 1]) {
        const k = next[v]++;
        const w = adj[k];
        if (state[w] === 1) back[k] = 1;
        else if (state[w] === 0) {
          state[w] = 1;
          next[w] = start[w];
          stack.push(w);
        }
      } else {
        state[v] = 2;
        post.push(v);
        stack.pop();
      }
    }
  }
  // reverse postorder is a topological order of the edges that are left
  for (let i = post.length - 1; i >= 0; i--) {
    const v = post[i];
    for (let k = start[v]; k < start[v + 1]; k++)
      if (!back[k] && layer[adj[k]] < layer[v] + 1) layer[adj[k]] = layer[v] + 1;
  }
  return layer;
}

/** The cluster's grid: layers as columns (tall ones wrapped), columns wrapped into bands. */
function gridOf(layers: Int32Array): {
  width: number;
  height: number;
  local: Array<{ x: number; y: number }>;
} {
  const n = layers.length;
  const local: Array<{ x: number; y: number }> = new Array(n);
  // rows per column and columns per band, for a cluster near ASPECT
  const maxRows = Math.max(4, Math.ceil(Math.sqrt((n * COL) / (ASPECT * ROW))));
  const maxCols = Math.max(4, Math.ceil((maxRows * ASPECT * ROW) / COL));
  let layerCount = 0;
  for (let i = 0; i < n; i++) layerCount = Math.max(layerCount, layers[i] + 1);
  const byLayer: number[][] = Array.from({ length: layerCount }, () => []);
  for (let i = 0; i < n; i++) byLayer[layers[i]].push(i); // in name order: the members are sorted
  const columns: number[][] = [];
  for (const members of byLayer)
    for (let i = 0; i < members.length; i += maxRows) columns.push(members.slice(i, i + maxRows));
  let top = 0;
  let cols = 0;
  for (let c0 = 0; c0 < columns.length; c0 += maxCols) {
    const band = columns.slice(c0, c0 + maxCols);
    let rows = 0;
    band.forEach((column, j) => {
      column.forEach(
        (m, r) =>
          (local[m] = {
            x: GRAPH_CLUSTER_PADDING + GRAPH_NODE_WIDTH / 2 + j * COL,
            y: GRAPH_CLUSTER_PADDING + GRAPH_NODE_HEIGHT / 2 + top + r * ROW,
          }),
      );
      rows = Math.max(rows, column.length);
    });
    cols = Math.max(cols, band.length);
    top += rows * ROW + (c0 + maxCols < columns.length ? ROW / 2 : 0);
  }
  const width = 2 * GRAPH_CLUSTER_PADDING + GRAPH_NODE_WIDTH + Math.max(0, cols - 1) * COL;
  const height = 2 * GRAPH_CLUSTER_PADDING + GRAPH_NODE_HEIGHT + Math.max(0, top - ROW);
  return { width, height, local };
}

export interface TreeLayoutNode {
  /** The URL up to this segment (`/blog/[slug]`); the root is `/`. */
  id: string;
  /** The segment (`[slug]`), `/` for the root. */
  label: string;
  depth: number;
  x: number;
  y: number;
  leaf: boolean;
}

export interface TreeLayout {
  nodes: TreeLayoutNode[];
  edges: Array<{ from: string; to: string }>;
}

/** URL paths as a left-to-right tidy tree; no paths, no nodes. */
export function layoutTree(paths: readonly string[]): TreeLayout {
  if (!paths.length) return { nodes: [], edges: [] };
  interface T {
    id: string;
    label: string;
    depth: number;
    children: Map<string, T>;
    y: number;
  }
  const root: T = { id: '/', label: '/', depth: 0, children: new Map(), y: 0 };
  for (const p of paths) {
    let node = root;
    for (const seg of p.split('/')) {
      if (!seg) continue;
      let child = node.children.get(seg);
      if (!child) {
        child = {
          id: node === root ? `/${seg}` : `${node.id}/${seg}`,
          label: seg,
          depth: node.depth + 1,
          children: new Map(),
          y: 0,
        };
        node.children.set(seg, child);
      }
      node = child;
    }
  }
  // preorder for the output and the edges, postorder for the y of the parents (no recursion)
  const order: T[] = [];
  const kids = new Map<T, T[]>();
  const edges: TreeLayout['edges'] = [];
  const stack: T[] = [root];
  while (stack.length) {
    const t = stack.pop()!;
    order.push(t);
    const children = [...t.children.values()].sort((a, b) => compare(a.label, b.label));
    kids.set(t, children);
    for (const c of children) edges.push({ from: t.id, to: c.id });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  let slot = 0;
  for (const t of order) if (!t.children.size) t.y = slot++ * TREE_DY;
  for (let i = order.length - 1; i >= 0; i--) {
    const c = kids.get(order[i])!;
    if (c.length) order[i].y = (c[0].y + c[c.length - 1].y) / 2;
  }
  return {
    nodes: order.map((t) => ({
      id: t.id,
      label: t.label,
      depth: t.depth,
      x: t.depth * TREE_DX,
      y: t.y,
      leaf: t.children.size === 0,
    })),
    edges,
  };
}

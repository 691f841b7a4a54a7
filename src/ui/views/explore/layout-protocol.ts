/**
 * The import graph's layout worker contract (layout.worker.ts, layout-client.ts): the messages
 * both sides exchange and the one function that answers a request, the same in the worker and,
 * where no worker can start, on the main thread.
 *
 * Only plain data crosses (docs/ARCHITECTURE: no Map, no function): layoutGraph's `groupOf`
 * becomes a group index per node; nodes and edges travel as parallel arrays and node indexes in
 * typed arrays, and the positions come back as one Float64Array (x, y per request node, in the
 * request's order), so both directions are a few transferred buffers plus short string lists,
 * not thousands of small objects to clone.
 */
import { layoutGraph, type LayoutCluster } from '../../../core/explore/layout';

export type LayoutNodeKind = 'file' | 'external' | 'folder';
const KINDS: readonly LayoutNodeKind[] = ['file', 'external', 'folder'];

/** What the page asks for: a graph laid out as core's layoutGraph does, grouped by `groups`. */
export interface GraphLayoutRequest {
  type: 'graph';
  /** Increases with each request of one client: an answer is matched to its request by it. */
  id: number;
  /** Node ids, in the caller's order (the answer's positions follow it). */
  ids: string[];
  /** Per node, its kind as an index into KINDS. */
  kinds: Uint8Array;
  /** Per node, its group as an index into groupIds / groupLabels. */
  groups: Int32Array;
  groupIds: string[];
  groupLabels: string[];
  /** Edges as node indexes: from, to, from, to, ... (edges to an unknown node are left out). */
  edges: Int32Array;
}

export type LayoutRequest = GraphLayoutRequest;

export interface GraphLayoutAnswer {
  type: 'graph';
  id: number;
  /** Per request node: its center, x then y. */
  xy: Float64Array;
  clusters: LayoutCluster[];
}

export interface LayoutFailure {
  type: 'error';
  id: number;
  message: string;
}

export type LayoutAnswer = GraphLayoutAnswer | LayoutFailure;

/** What a caller has: nodes with their group (layoutGraph's `groupOf` answer), edges by node id. */
export interface GraphLayoutInput {
  nodes: ReadonlyArray<{ id: string; kind: LayoutNodeKind; group: string; groupLabel: string }>;
  edges: ReadonlyArray<{ from: string; to: string }>;
}

/** The input as a request message (main thread: one pass over nodes and edges). */
export function graphLayoutRequest(input: GraphLayoutInput, id: number): GraphLayoutRequest {
  const n = input.nodes.length;
  const ids: string[] = new Array(n);
  const kinds = new Uint8Array(n);
  const groups = new Int32Array(n);
  const groupIds: string[] = [];
  const groupLabels: string[] = [];
  const groupIndex = new Map<string, number>();
  const nodeIndex = new Map<string, number>();
  input.nodes.forEach((node, i) => {
    ids[i] = node.id;
    if (!nodeIndex.has(node.id)) nodeIndex.set(node.id, i); // the first of a repeated id, as layoutGraph
    kinds[i] = Math.max(0, KINDS.indexOf(node.kind));
    let g = groupIndex.get(node.group);
    if (g === undefined) {
      g = groupIds.length;
      groupIndex.set(node.group, g);
      groupIds.push(node.group);
      groupLabels.push(node.groupLabel);
    }
    groups[i] = g;
  });
  const edges = new Int32Array(input.edges.length * 2);
  let k = 0;
  for (const e of input.edges) {
    const from = nodeIndex.get(e.from);
    const to = nodeIndex.get(e.to);
    if (from === undefined || to === undefined) continue; // layoutGraph ignores them too
    edges[k++] = from;
    edges[k++] = to;
  }
  return { type: 'graph', id, ids, kinds, groups, groupIds, groupLabels, edges: edges.slice(0, k) };
}

/** The buffers a message can hand over instead of copying. */
export function transferablesOf(message: LayoutRequest | LayoutAnswer): Transferable[] {
  if (message.type === 'error') return [];
  if ('xy' in message) return [message.xy.buffer];
  return [message.kinds.buffer, message.groups.buffer, message.edges.buffer];
}

/** The answer to a request (the worker's whole job; the fallback's on the main thread). */
export function answerLayout(request: LayoutRequest): LayoutAnswer {
  try {
    if (request.type !== 'graph') throw new Error(`unknown layout request: ${String(request.type)}`);
    const { ids, kinds, groups, groupIds, groupLabels, edges } = request;
    const nodes = ids.map((id, i) => ({ id, kind: KINDS[kinds[i]] ?? 'file', group: groups[i] }));
    const pairs: Array<{ from: string; to: string }> = new Array(edges.length >> 1);
    for (let i = 0; i < pairs.length; i++) pairs[i] = { from: ids[edges[2 * i]], to: ids[edges[2 * i + 1]] };
    const layout = layoutGraph(nodes, pairs, {
      groupOf: (node) => ({ id: groupIds[node.group], label: groupLabels[node.group] }),
    });
    const xy = new Float64Array(ids.length * 2);
    ids.forEach((id, i) => {
      const p = layout.positions.get(id);
      xy[2 * i] = p?.x ?? 0;
      xy[2 * i + 1] = p?.y ?? 0;
    });
    return { type: 'graph', id: request.id, xy, clusters: layout.clusters };
  } catch (e) {
    return { type: 'error', id: request.id, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Import-graph analysis for explore (issue 17): plain data in, plain data out. Nodes are
 * files (or external packages as leaves); an edge says how one file imports another:
 * 'static' (a runtime import), 'type' (type-only: erased, no runtime cycle) or 'dynamic'
 * (`import()`: loaded later, no load-order cycle).
 * - cycles: strongly connected components over static edges (Tarjan, iterative, so a
 *   10,000-file chain does not overflow the stack), each with one shortest cycle through it
 *   as evidence; a file importing itself is a cycle of one;
 * - typeCycles / dynamicCycles: components that appear only once type-only (or dynamic)
 *   edges are added: listed apart, since they do not cause runtime cycles;
 * - hubs: the files most imported (fan-in) and importing most (fan-out);
 * - orphans: files nothing imports that are not entry points.
 */

export type EdgeKind = 'static' | 'type' | 'dynamic';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface Cycle {
  /** the component's files, sorted */
  files: string[];
  /** one shortest cycle through the component, as a path that starts and ends at the same file */
  path: string[];
}

export interface GraphReport {
  cycles: Cycle[];
  typeCycles: Cycle[];
  dynamicCycles: Cycle[];
  hubs: { fanIn: Array<{ file: string; count: number }>; fanOut: Array<{ file: string; count: number }> };
  orphans: string[];
}

/** Strongly connected components with more than one node, or a node with an edge to itself. */
export function cyclicComponents(
  nodes: readonly string[],
  edges: ReadonlyArray<{ from: string; to: string }>,
): string[][] {
  const index = new Map<string, number>();
  nodes.forEach((n) => index.set(n, index.size));
  for (const e of edges) {
    if (!index.has(e.from)) index.set(e.from, index.size);
    if (!index.has(e.to)) index.set(e.to, index.size);
  }
  const names = [...index.keys()];
  const n = names.length;
  const adj: number[][] = Array.from({ length: n }, () => []);
  const selfLoop = new Uint8Array(n);
  for (const e of edges) {
    const a = index.get(e.from)!;
    const b = index.get(e.to)!;
    adj[a].push(b);
    if (a === b) selfLoop[a] = 1;
  }
  // Tarjan's algorithm with an explicit stack of (node, next edge) frames
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    const frames: Array<[node: number, edge: number]> = [[root, 0]];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const [v, i] = frame;
      if (i < adj[v].length) {
        frame[1]++;
        const w = adj[v][i];
        if (order[w] === -1) {
          order[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], order[w]);
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === order[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        if (comp.length > 1 || selfLoop[v]) out.push(comp.map((c) => names[c]).sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || (a[0] < b[0] ? -1 : 1));
}

/** A shortest cycle through `start` using only edges inside `within` (breadth-first). */
function shortestCycle(
  start: string,
  within: ReadonlySet<string>,
  adj: ReadonlyMap<string, readonly string[]>,
): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    for (const w of adj.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = prev.get(at))
          path.push(at);
        path.push(start);
        return path.reverse();
      }
      if (!prev.has(w) && w !== start) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

function cyclesOf(nodes: readonly string[], edges: readonly GraphEdge[]): Cycle[] {
  const adj = new Map<string, string[]>();
  for (const e of edges) {
    let list = adj.get(e.from);
    if (!list) adj.set(e.from, (list = []));
    list.push(e.to);
  }
  for (const list of adj.values()) list.sort();
  return cyclicComponents(nodes, edges).map((files) => ({
    files,
    path: shortestCycle(files[0], new Set(files), adj),
  }));
}

const key = (files: readonly string[]) => files.join('\0');

export function analyzeGraph(
  nodes: readonly string[],
  edges: readonly GraphEdge[],
  options: { entryPoints?: readonly string[]; hubs?: number } = {},
): GraphReport {
  const runtime = edges.filter((e) => e.kind === 'static');
  const cycles = cyclesOf(nodes, runtime);
  const seen = new Set(cycles.map((c) => key(c.files)));
  const extra = (kind: EdgeKind): Cycle[] => {
    const found = cyclesOf(
      nodes,
      edges.filter((e) => e.kind === 'static' || e.kind === kind),
    ).filter((c) => !seen.has(key(c.files)));
    return found;
  };
  const typeCycles = extra('type');
  const dynamicCycles = extra('dynamic');
  // fan-in / fan-out over distinct importers and imports, every kind of edge
  const fanIn = new Map<string, Set<string>>();
  const fanOut = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.from === e.to) continue;
    if (!fanIn.has(e.to)) fanIn.set(e.to, new Set());
    fanIn.get(e.to)!.add(e.from);
    if (!fanOut.has(e.from)) fanOut.set(e.from, new Set());
    fanOut.get(e.from)!.add(e.to);
  }
  const top = (m: Map<string, Set<string>>) =>
    [...m]
      .map(([file, s]) => ({ file, count: s.size }))
      .sort((a, b) => b.count - a.count || (a.file < b.file ? -1 : 1))
      .slice(0, options.hubs ?? 10);
  const entries = new Set(options.entryPoints ?? []);
  const orphans = nodes.filter((n) => !fanIn.has(n) && !entries.has(n)).sort();
  return { cycles, typeCycles, dynamicCycles, hubs: { fanIn: top(fanIn), fanOut: top(fanOut) }, orphans };
}

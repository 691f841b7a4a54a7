import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clusterOf,
  EXTERNAL_CLUSTER_ID,
  GRAPH_NODE_HEIGHT,
  GRAPH_NODE_WIDTH,
  layoutGraph,
  layoutTree,
  TREE_DX,
  TREE_DY,
  type GraphLayout,
} from './layout';

type N = { id: string; kind: 'file' | 'external' };
type E = { from: string; to: string };

const file = (id: string): N => ({ id, kind: 'file' });
const ext = (id: string): N => ({ id, kind: 'external' });

/** The invariants every graph layout keeps. */
function checkGraph(nodes: N[], layout: GraphLayout) {
  const ids = [...new Set(nodes.map((n) => n.id))];
  expect(layout.positions.size).toBe(ids.length);
  const boxes = new Map(layout.clusters.map((c) => [c.id, c]));
  expect(boxes.size).toBe(layout.clusters.length);
  // every node inside its cluster's box (the whole node, not only its center)
  const outside: string[] = [];
  for (const [id, p] of layout.positions) {
    const c = boxes.get(p.cluster);
    const inside =
      !!c &&
      Number.isFinite(p.x) &&
      Number.isFinite(p.y) &&
      p.x - GRAPH_NODE_WIDTH / 2 >= c.x &&
      p.x + GRAPH_NODE_WIDTH / 2 <= c.x + c.width &&
      p.y - GRAPH_NODE_HEIGHT / 2 >= c.y &&
      p.y + GRAPH_NODE_HEIGHT / 2 <= c.y + c.height;
    if (!inside) outside.push(id);
  }
  expect(outside).toEqual([]);
  // no two nodes overlap (sweep on x: nodes closer than a node width in x must be a node height apart in y)
  const pts = [...layout.positions.values()].sort((a, b) => a.x - b.x || a.y - b.y);
  let overlaps = 0;
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length && pts[j].x - pts[i].x < GRAPH_NODE_WIDTH; j++) {
      if (Math.abs(pts[j].y - pts[i].y) < GRAPH_NODE_HEIGHT) overlaps++;
    }
  }
  expect(overlaps).toBe(0);
  // clusters do not overlap
  const cs = [...layout.clusters].sort((a, b) => a.x - b.x);
  for (let i = 0; i < cs.length; i++) {
    for (let j = i + 1; j < cs.length && cs[j].x < cs[i].x + cs[i].width; j++) {
      const apart = cs[j].y >= cs[i].y + cs[i].height || cs[i].y >= cs[j].y + cs[j].height;
      expect(apart, `${cs[i].id} / ${cs[j].id}`).toBe(true);
    }
  }
}

/** A repository-like graph: `files` files in `folders` folders, `edgesPerFile` imports each, some externals. */
function bigGraph(files: number, folders: number, edgesPerFile: number): { nodes: N[]; edges: E[] } {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const nodes: N[] = [];
  for (let i = 0; i < files; i++) nodes.push(file(`src/f${i % folders}/sub${i % 3}/file${i}.ts`));
  for (let i = 0; i < files / 20; i++) nodes.push(ext(`pkg-${i}`));
  const edges: E[] = [];
  for (let i = 0; i < files; i++) {
    for (let k = 0; k < edgesPerFile; k++)
      edges.push({ from: nodes[i].id, to: nodes[Math.floor(rand() * nodes.length)].id });
  }
  return { nodes, edges };
}

describe('layoutGraph', () => {
  it('is empty for an empty graph', () => {
    const l = layoutGraph([], []);
    expect(l.clusters).toEqual([]);
    expect(l.positions.size).toBe(0);
  });

  it('clusters files by folder (2 segments by default) and externals together', () => {
    expect(clusterOf('src/core/explore/a.ts', 'file')).toEqual({ id: 'dir:src/core', label: 'src/core' });
    expect(clusterOf('src/main.tsx', 'file')).toEqual({ id: 'dir:src', label: 'src' });
    expect(clusterOf('README.md', 'file')).toEqual({ id: 'dir:', label: '(root)' });
    expect(clusterOf('react', 'external')).toEqual({ id: EXTERNAL_CLUSTER_ID, label: 'external packages' });
    expect(clusterOf('a/b/c/d.ts', 'file', 3).label).toBe('a/b/c');
    expect(clusterOf('a/b/c/d.ts', 'file', 1).label).toBe('a');

    const nodes = [
      file('src/core/a.ts'),
      file('src/core/x/b.ts'),
      file('src/ui/c.tsx'),
      file('index.ts'),
      ext('react'),
      ext('src'),
    ];
    const l = layoutGraph(nodes, []);
    expect(l.clusters.map((c) => c.label).sort()).toEqual([
      '(root)',
      'external packages',
      'src/core',
      'src/ui',
    ]);
    expect(l.positions.get('src/core/a.ts')!.cluster).toBe(l.positions.get('src/core/x/b.ts')!.cluster);
    // an external package named like a folder is still an external
    expect(l.positions.get('src')!.cluster).toBe(EXTERNAL_CLUSTER_ID);
    checkGraph(nodes, l);
  });

  it('puts importers left of what they import inside a cluster, rows in name order', () => {
    const nodes = ['d/c.ts', 'd/a.ts', 'd/b.ts', 'd/z.ts'].map(file);
    const l = layoutGraph(nodes, [
      { from: 'd/a.ts', to: 'd/b.ts' },
      { from: 'd/b.ts', to: 'd/c.ts' },
      { from: 'd/a.ts', to: 'd/c.ts' },
    ]);
    const p = (id: string) => l.positions.get(id)!;
    expect(p('d/a.ts').x).toBeLessThan(p('d/b.ts').x);
    expect(p('d/b.ts').x).toBeLessThan(p('d/c.ts').x); // longest path: c is two steps from a
    expect(p('d/a.ts').x).toBe(p('d/z.ts').x); // both sources
    expect(p('d/a.ts').y).toBeLessThan(p('d/z.ts').y);
    checkGraph(nodes, l);
  });

  it('is deterministic, whatever the input order', () => {
    const { nodes, edges } = bigGraph(300, 7, 3);
    const a = layoutGraph(nodes, edges);
    const b = layoutGraph([...nodes].reverse(), [...edges].reverse());
    expect([...b.positions].sort()).toEqual([...a.positions].sort());
    expect([...b.clusters].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
      [...a.clusters].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect(layoutGraph(nodes, edges)).toEqual(a);
  });

  it('does not hang on cycles, self-imports, repeated edges and edges to unknown nodes', () => {
    const nodes = ['c/a.ts', 'c/b.ts', 'c/c.ts', 'c/d.ts'].map(file);
    const edges: E[] = [
      { from: 'c/a.ts', to: 'c/b.ts' },
      { from: 'c/b.ts', to: 'c/c.ts' },
      { from: 'c/c.ts', to: 'c/a.ts' },
      { from: 'c/c.ts', to: 'c/a.ts' },
      { from: 'c/d.ts', to: 'c/d.ts' },
      { from: 'c/d.ts', to: 'nowhere.ts' },
      { from: 'ghost.ts', to: 'c/a.ts' },
    ];
    const l = layoutGraph(nodes, edges);
    checkGraph(nodes, l);
    // a 5,000-file ring in one folder
    const ring = Array.from({ length: 5000 }, (_, i) => file(`r/f${i}.ts`));
    const ringEdges = ring.map((n, i) => ({ from: n.id, to: ring[(i + 1) % ring.length].id }));
    checkGraph(ring, layoutGraph(ring, ringEdges));
  });

  it('keeps one node per id when an id repeats', () => {
    const nodes = [file('a/x.ts'), file('a/x.ts'), file('a/y.ts')];
    checkGraph(nodes, layoutGraph(nodes, []));
  });

  it('keeps a flat folder and a long chain near 16:10, and the whole graph too', () => {
    const flat = Array.from({ length: 400 }, (_, i) => file(`flat/f${String(i).padStart(3, '0')}.ts`));
    const one = layoutGraph(flat, []).clusters[0];
    expect(one.width / one.height).toBeGreaterThan(0.8);
    expect(one.width / one.height).toBeLessThan(3.2);
    const chain = Array.from({ length: 200 }, (_, i) => file(`chain/f${i}.ts`));
    const chainEdges = chain.slice(1).map((n, i) => ({ from: chain[i].id, to: n.id }));
    const c = layoutGraph(chain, chainEdges).clusters[0];
    expect(c.width / c.height).toBeGreaterThan(0.8);
    expect(c.width / c.height).toBeLessThan(3.2);
    const { nodes, edges } = bigGraph(1000, 40, 2);
    const l = layoutGraph(nodes, edges);
    const w = Math.max(...l.clusters.map((k) => k.x + k.width));
    const h = Math.max(...l.clusters.map((k) => k.y + k.height));
    expect(w / h).toBeGreaterThan(0.8);
    expect(w / h).toBeLessThan(3.2);
  });

  it('lays out 2,000 files and 8,000 imports quickly', () => {
    const { nodes, edges } = bigGraph(2000, 60, 4);
    layoutGraph(nodes, edges); // warm up
    const t0 = performance.now();
    const l = layoutGraph(nodes, edges);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(500);
    checkGraph(nodes, l);
  });

  it('holds its invariants on random graphs', () => {
    const arb = fc
      .record({
        files: fc.uniqueArray(
          fc.tuple(
            fc.constantFrom('', 'a', 'a/b', 'a/b/c', 'x', 'x/y'),
            fc.string({ minLength: 1, maxLength: 4 }),
          ),
          {
            maxLength: 40,
            selector: ([d, f]) => `${d}/${f}`,
          },
        ),
        externals: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 5 }),
        picks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 120 }),
        depth: fc.integer({ min: 0, max: 3 }),
      })
      .map(({ files, externals, picks, depth }) => {
        const nodes: N[] = [
          ...files.map(([d, f]) => file(d ? `${d}/${f.replace(/\//g, '_')}` : f.replace(/\//g, '_'))),
          ...externals.map(ext),
        ];
        const edges = nodes.length
          ? picks.map(([a, b]) => ({ from: nodes[a % nodes.length].id, to: nodes[b % nodes.length].id }))
          : [];
        return { nodes, edges, depth };
      });
    fc.assert(
      fc.property(arb, ({ nodes, edges, depth }) => {
        checkGraph(nodes, layoutGraph(nodes, edges, { maxClusterDepth: depth }));
      }),
      { numRuns: 200 },
    );
  });
  it('groups by groupOf when given: folder nodes side by side in one cluster, files in theirs', () => {
    type G = { id: string; kind: 'file' | 'folder'; group: string };
    const nodes: G[] = [
      { id: 'd:a', kind: 'folder', group: 'folders' },
      { id: 'd:b', kind: 'folder', group: 'folders' },
      { id: 'f:c/x.ts', kind: 'file', group: 'dir:c' },
      { id: 'f:c/y.ts', kind: 'file', group: 'dir:c' },
    ];
    const l = layoutGraph(nodes, [{ from: 'd:a', to: 'd:b' }], {
      groupOf: (n) => ({ id: n.group, label: n.group === 'folders' ? '' : 'c' }),
    });
    expect(l.clusters.map((c) => c.id).sort()).toEqual(['dir:c', 'folders']);
    expect(l.positions.get('d:a')!.cluster).toBe('folders');
    expect(l.positions.get('f:c/y.ts')!.cluster).toBe('dir:c');
    // a imports b: b a column to the right
    expect(l.positions.get('d:b')!.x).toBeGreaterThan(l.positions.get('d:a')!.x);
    checkGraph(nodes as unknown as N[], l);
  });
});

describe('layoutTree', () => {
  it('is empty for no paths', () => {
    expect(layoutTree([])).toEqual({ nodes: [], edges: [] });
  });

  it('draws URL segments left to right, leaves one row apart, parents centered over their children', () => {
    const t = layoutTree([
      '/blog/[slug]',
      '/',
      '/blog',
      '/about',
      '/api/users/[id]',
      '/api/health',
      '/blog/[slug]',
    ]);
    const byId = new Map(t.nodes.map((n) => [n.id, n]));
    expect(t.nodes.map((n) => n.id)).toEqual([
      '/',
      '/about',
      '/api',
      '/api/health',
      '/api/users',
      '/api/users/[id]',
      '/blog',
      '/blog/[slug]',
    ]);
    expect(byId.get('/blog/[slug]')).toMatchObject({ label: '[slug]', depth: 2, x: 2 * TREE_DX, leaf: true });
    expect(byId.get('/')).toMatchObject({ label: '/', depth: 0, x: 0, leaf: false });
    // leaves in order: /about, /api/health, /api/users/[id], /blog/[slug]
    expect(['/about', '/api/health', '/api/users/[id]', '/blog/[slug]'].map((id) => byId.get(id)!.y)).toEqual(
      [0, 1, 2, 3].map((i) => i * TREE_DY),
    );
    expect(byId.get('/api')!.y).toBe((byId.get('/api/health')!.y + byId.get('/api/users')!.y) / 2);
    expect(byId.get('/api/users')!.y).toBe(byId.get('/api/users/[id]')!.y);
    expect(byId.get('/')!.y).toBe((byId.get('/about')!.y + byId.get('/blog')!.y) / 2);
    expect(t.edges).toContainEqual({ from: '/api/users', to: '/api/users/[id]' });
    expect(t.edges).toHaveLength(t.nodes.length - 1);
  });

  it('is deterministic, and nodes of the same depth never overlap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom('a', 'b', '[id]', '(x)', 'api', ''), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 30,
        }),
        (segs) => {
          const paths = segs.map((s) => `/${s.join('/')}`);
          const t = layoutTree(paths);
          expect(layoutTree([...paths].reverse())).toEqual(t);
          const ids = new Set(t.nodes.map((n) => n.id));
          expect(ids.size).toBe(t.nodes.length);
          for (const e of t.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true);
          const byDepth = new Map<number, number[]>();
          for (const n of t.nodes) {
            expect(n.x).toBe(n.depth * TREE_DX);
            byDepth.set(n.depth, [...(byDepth.get(n.depth) ?? []), n.y]);
          }
          for (const ys of byDepth.values()) {
            ys.sort((a, b) => a - b);
            for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(TREE_DY);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles a very deep path without recursion', () => {
    const deep = `/${Array.from({ length: 20_000 }, (_, i) => `s${i}`).join('/')}`;
    const t = layoutTree([deep]);
    expect(t.nodes).toHaveLength(20_001);
    expect(t.nodes.every((n) => n.y === 0)).toBe(true);
  });
});

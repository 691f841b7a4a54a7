import { describe, expect, it } from 'vitest';
import {
  FOLDER_LEVEL_NODES,
  FOLDERS_GROUP,
  fileKey,
  folderKey,
  graphView,
  indexFolders,
  opensAtFolderLevel,
} from './graph-folders';
import { layoutGraph } from './layout';
import type { GraphEdgeReport, GraphNodeReport, ImportGraphReport } from './types';

type G = Pick<ImportGraphReport, 'nodes' | 'edges' | 'cycles' | 'hubs'>;

const file = (id: string): GraphNodeReport => ({ id, kind: 'file', fanIn: 0, fanOut: 0 });
const ext = (id: string): GraphNodeReport => ({ id, kind: 'external', fanIn: 0, fanOut: 0 });
const edge = (
  from: string,
  to: string,
  kind: GraphEdgeReport['kind'] = 'static',
  line = 1,
): GraphEdgeReport => ({
  from,
  to,
  kind,
  line,
});

/**
 * src/core: a, b (a <-> b: a runtime cycle), c; src/ui: x, y; lib/log: the hub, imported by
 * everything; one package.
 */
function sample(): G {
  const nodes = [
    file('src/core/a.ts'),
    file('src/core/b.ts'),
    file('src/core/c.ts'),
    file('src/ui/x.ts'),
    file('src/ui/y.ts'),
    file('lib/log/log.ts'),
    file('lib/log/fmt.ts'),
    file('tools/t.ts'),
    ext('react'),
  ];
  const edges = [
    edge('src/core/a.ts', 'src/core/b.ts'),
    edge('src/core/b.ts', 'src/core/a.ts'),
    edge('src/core/a.ts', 'src/core/c.ts', 'type'),
    edge('src/ui/x.ts', 'src/core/a.ts'),
    edge('src/ui/x.ts', 'src/core/a.ts', 'type', 2), // the same pair again: one import
    edge('src/ui/x.ts', 'src/core/c.ts', 'dynamic'),
    edge('src/ui/y.ts', 'src/core/c.ts', 'type'),
    edge('src/ui/x.ts', 'react'),
    ...['src/core/a.ts', 'src/core/b.ts', 'src/core/c.ts', 'src/ui/x.ts', 'src/ui/y.ts', 'tools/t.ts'].map(
      (f) => edge(f, 'lib/log/log.ts'),
    ),
    edge('lib/log/log.ts', 'lib/log/fmt.ts'),
  ];
  return {
    nodes,
    edges,
    cycles: [{ files: ['src/core/a.ts', 'src/core/b.ts'] } as ImportGraphReport['cycles'][number]],
    hubs: {
      fanIn: [
        { path: 'lib/log/log.ts', count: 6 },
        { path: 'src/core/a.ts', count: 2 },
      ],
      fanOut: [],
    },
  };
}

describe('indexFolders', () => {
  it('groups files by folder and packages apart, counting fan-in and fan-out in files', () => {
    const ix = indexFolders(sample());
    expect([...ix.folders.keys()]).toEqual([
      'dir:lib/log',
      'dir:src/core',
      'dir:src/ui',
      'dir:tools',
      'external',
    ]);
    const core = ix.folders.get('dir:src/core')!;
    expect(core.members).toEqual(['src/core/a.ts', 'src/core/b.ts', 'src/core/c.ts']);
    // x and y import it (x twice, counted once)
    expect(core.fanIn).toBe(2);
    // a, b and c import lib/log
    expect(core.fanOut).toBe(3);
    expect(core.internal).toBe(3);
    expect(core.cycle).toBe(true);
    expect(ix.folders.get('dir:src/ui')!.cycle).toBe(false);
    expect(ix.folders.get('external')!.external).toBe(true);
    expect(ix.folderOf.get('react')).toBe('external');
  });

  it('marks the most imported folder, well above the average, as a hub, and only that', () => {
    const ix = indexFolders(sample());
    const hubs = [...ix.folders.values()].filter((f) => f.hub).map((f) => f.id);
    expect(hubs).toEqual(['dir:lib/log']);
    expect([...ix.hubFiles]).toEqual(['lib/log/log.ts']);
  });

  it('marks no hub where every folder is imported alike', () => {
    const nodes = ['a/x.ts', 'b/x.ts', 'c/x.ts'].map(file);
    const edges = [edge('a/x.ts', 'b/x.ts'), edge('b/x.ts', 'c/x.ts'), edge('c/x.ts', 'a/x.ts')];
    const ix = indexFolders({ nodes, edges, cycles: [], hubs: { fanIn: [], fanOut: [] } });
    expect([...ix.folders.values()].some((f) => f.hub)).toBe(false);
  });
});

describe('graphView', () => {
  it('draws collapsed folders as nodes and merges their imports into weighted edges', () => {
    const g = sample();
    const v = graphView(g, indexFolders(g), { expanded: new Set() });
    expect(v.folders).toBe(5);
    expect(v.files).toBe(0);
    expect(v.nodes.every((n) => n.kind === 'folder' && n.group === FOLDERS_GROUP)).toBe(true);
    const ui = v.nodes.find((n) => n.id === 'dir:src/ui')!;
    expect(ui.label).toBe('src/ui (2)');
    const byPair = new Map(v.edges.map((e) => [`${e.from} ${e.to}`, e]));
    // x->a (static, and type again), x->c (dynamic), y->c (type): three pairs of files, static wins
    expect(byPair.get(`${folderKey('dir:src/ui')} ${folderKey('dir:src/core')}`)).toMatchObject({
      kind: 'static',
      weight: 3,
      cycle: false,
    });
    // no edge of a folder to itself
    expect(v.edges.some((e) => e.from === e.to)).toBe(false);
    expect(byPair.get(`${folderKey('dir:src/core')} ${folderKey('dir:lib/log')}`)!.weight).toBe(3);
    const core = v.nodes.find((n) => n.id === 'dir:src/core')!;
    expect(core).toMatchObject({ cycle: true, hub: false, size: 3 });
    expect(v.nodes.find((n) => n.id === 'dir:lib/log')!.hub).toBe(true);
  });

  it('draws an expanded folder as its files, with edges to the folders left collapsed', () => {
    const g = sample();
    const v = graphView(g, indexFolders(g), { expanded: new Set(['dir:src/core']) });
    expect(v.folders).toBe(4);
    expect(v.files).toBe(3);
    const a = v.nodes.find((n) => n.key === fileKey('src/core/a.ts'))!;
    expect(a).toMatchObject({
      kind: 'file',
      label: 'a.ts',
      group: 'dir:src/core',
      groupLabel: 'src/core',
      cycle: true,
    });
    const keys = new Set(v.edges.map((e) => `${e.from} ${e.to}`));
    expect(keys.has(`${fileKey('src/core/a.ts')} ${fileKey('src/core/b.ts')}`)).toBe(true);
    expect(keys.has(`${folderKey('dir:src/ui')} ${fileKey('src/core/a.ts')}`)).toBe(true);
    expect(keys.has(`${fileKey('src/core/a.ts')} ${folderKey('dir:lib/log')}`)).toBe(true);
    const cyc = v.edges.find(
      (e) => e.from === fileKey('src/core/b.ts') && e.to === fileKey('src/core/a.ts'),
    )!;
    expect(cyc.cycle).toBe(true);
  });

  it('draws every file when all are expanded, and only the cycles when asked', () => {
    const g = sample();
    const ix = indexFolders(g);
    const all = graphView(g, ix, { expanded: 'all' });
    expect(all.folders).toBe(0);
    expect(all.files).toBe(9);
    // one edge per pair of files: x->a twice is one
    expect(
      all.edges.filter((e) => e.from === fileKey('src/ui/x.ts') && e.to === fileKey('src/core/a.ts')),
    ).toHaveLength(1);
    const cycles = graphView(g, ix, { expanded: new Set(), onlyCycles: true });
    expect(cycles.nodes.map((n) => n.id).sort()).toEqual(['src/core/a.ts', 'src/core/b.ts']);
    expect(cycles.edges.every((e) => e.cycle)).toBe(true);
    expect(cycles.edges).toHaveLength(2);
  });

  it('lays out: collapsed folders side by side, an expanded folder in its own box, nothing overlapping', () => {
    const g = sample();
    const v = graphView(g, indexFolders(g), { expanded: new Set(['dir:src/core']) });
    const l = layoutGraph(
      v.nodes.map((n) => ({ id: n.key, kind: n.kind, group: n.group, label: n.groupLabel })),
      v.edges,
      { groupOf: (n) => ({ id: n.group, label: n.label }) },
    );
    expect(l.positions.size).toBe(v.nodes.length);
    expect(l.clusters.map((c) => c.id).sort()).toEqual(['dir:src/core', FOLDERS_GROUP]);
    const pts = [...l.positions.values()];
    for (let i = 0; i < pts.length; i++)
      for (let j = i + 1; j < pts.length; j++)
        expect(pts[i].x !== pts[j].x || pts[i].y !== pts[j].y, `${i} ${j}`).toBe(true);
  });
});

describe('opensAtFolderLevel', () => {
  it('is for graphs too large to draw file by file', () => {
    const small = { nodes: [file('a.ts')], edges: [] };
    expect(opensAtFolderLevel(small)).toBe(false);
    const big = {
      nodes: Array.from({ length: FOLDER_LEVEL_NODES + 1 }, (_, i) => file(`f${i}.ts`)),
      edges: [],
    };
    expect(opensAtFolderLevel(big)).toBe(true);
  });
});

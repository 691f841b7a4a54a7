/**
 * The main thread's share of laying out the drawn import graph, before and after the layout
 * moved to a worker (src/ui/views/explore/layout.worker.ts). Not a test: the figures are printed.
 *
 * A 1,000-file graph like e2e/import-graph.spec.ts's (48 folders, 2-5 imports per file, mostly
 * in the folder; a hub every third file imports), every folder drawn as files (graphView's
 * `expanded: 'all'`: the largest layout the view asks for). Timed, median of RUNS after warm-up:
 * - before: core's layoutGraph, called on the main thread (what graph-elements.ts did);
 * - after: what is left on the main thread: the request encoded (graphLayoutRequest), posted
 *   (structured clone with its buffers transferred) and the answer received (a clone of a few
 *   strings and one transferred buffer); the layout itself runs in the worker;
 * - both: drawingOf (positions into Cytoscape elements), the same on both sides.
 * The first call of each side is timed apart: cold code, as when the view opens.
 *
 *   npx tsx bench/explore/graph-layout.ts
 */
import { performance } from 'node:perf_hooks';
import { graphView, indexFolders } from '../../src/core/explore/graph-folders';
import { layoutGraph } from '../../src/core/explore/layout';
import type { ImportGraphReport } from '../../src/core/explore/types';
import { drawingOf, layoutInputOf } from '../../src/ui/views/explore/graph-elements';
import {
  answerLayout,
  graphLayoutRequest,
  transferablesOf,
} from '../../src/ui/views/explore/layout-protocol';
import { median, printTable } from '../common';
import { mulberry32 } from '../../src/core/seeded-random.testutil';

const FILES = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TOPS = ['core', 'ui', 'server', 'shared', 'tools', 'plugins'];
const SUBS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const HUB = 'shared/alpha/log.ts';

function graph(): ImportGraphReport {
  const random = mulberry32(33);
  const folders = TOPS.length * SUBS.length;
  const paths: string[] = [];
  const folderOf: number[] = [];
  for (let i = 0; i < FILES - 1; i++) {
    const f = Math.floor((i * folders) / (FILES - 1));
    folderOf.push(f);
    paths.push(`${TOPS[Math.floor(f / SUBS.length)]}/${SUBS[f % SUBS.length]}/m-${i}.ts`);
  }
  const edges: ImportGraphReport['edges'] = [];
  for (let i = 0; i < paths.length; i++) {
    if (i % 3 === 0) edges.push({ from: paths[i], to: HUB, kind: 'static', line: 1 });
    const want = 2 + Math.floor(random() * 4);
    for (let k = 0; k < want; k++) {
      const same = random() < 0.7;
      let hi = paths.length;
      if (same) while (hi > i + 1 && folderOf[hi - 1] !== folderOf[i]) hi--;
      if (hi <= i + 1) continue;
      const j = i + 1 + Math.floor(random() * Math.min(hi - i - 1, same ? hi - i - 1 : 300));
      edges.push({ from: paths[i], to: paths[j], kind: 'static', line: k + 2 });
    }
  }
  const nodes = [...paths, HUB].map((id) => ({ id, kind: 'file' as const, fanIn: 0, fanOut: 0 }));
  return {
    files: nodes.length,
    internalEdges: edges.length,
    externals: 0,
    unresolved: [],
    cycles: [],
    typeCycles: [],
    dynamicCycles: [],
    hubs: { fanIn: [{ path: HUB, count: 333 }], fanOut: [] },
    orphans: [],
    entryPoints: [],
    nodes,
    edges,
  };
}

/** One call, timed: the first of its kind in the process (cold code, as on opening the view). */
function once(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function time(fn: () => void): number {
  for (let i = 0; i < 5; i++) fn();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

const report = graph();
const view = graphView(report, indexFolders(report), { expanded: 'all' });
const input = layoutInputOf(view);

const layoutOnMain = () => {
  layoutGraph(
    view.nodes.map((n) => ({ id: n.key, kind: n.kind, group: n.group, label: n.groupLabel })),
    view.edges,
    { groupOf: (n) => ({ id: n.group, label: n.label }) },
  );
};
const postRequest = () => {
  const request = graphLayoutRequest(input, 1);
  structuredClone(request, { transfer: transferablesOf(request) });
};
const beforeCold = once(layoutOnMain);
const postCold = once(postRequest);
const before = time(layoutOnMain);
const answer = answerLayout(graphLayoutRequest(input, 1));
if (answer.type !== 'graph') throw new Error(answer.message);
const post = time(postRequest);
const receive = time(() => {
  const copy = { ...answer, xy: answer.xy.slice() };
  structuredClone(copy, { transfer: transferablesOf(copy) });
});
const inWorker = time(() => void answerLayout(graphLayoutRequest(input, 1)));
const draw = time(() => void drawingOf(view, answer));

const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(
  `${view.nodes.length} nodes, ${view.edges.length} edges (every folder drawn as files); median of ${RUNS}`,
);
printTable([
  ['step', 'thread', 'first call', 'median'],
  ['before: layoutGraph', 'main', ms(beforeCold), ms(before)],
  ['after: request encoded + posted', 'main', ms(postCold), ms(post)],
  ['after: answer received', 'main', '', ms(receive)],
  ['after: the layout (answerLayout)', 'worker', '', ms(inWorker)],
  ['both: drawingOf (elements)', 'main', '', ms(draw)],
]);

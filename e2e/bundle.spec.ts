/**
 * The page's own bundle holds no engine code (issue 32): what index.html loads before the app
 * runs — its entry chunk and that chunk's static imports, transitively — has none of explore's
 * analyzers, the walk, the chunkers, the engine or its session, web-tree-sitter or isomorphic-git.
 * Those run in the engine worker (or in the lazily loaded main-thread fallback); one ui import
 * of, say, core/explore/run.ts would put ~300 kB of them on the page's critical path.
 *
 * Reads dist/bundle-graph.json, which vite.config.ts (quarryBundleGraph) writes at build time;
 * no page is opened. Run after `npm run build`, like the rest of the suite.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const GRAPH = join(import.meta.dirname, '..', process.env.E2E_DIST ?? 'dist', 'bundle-graph.json');

interface ChunkInfo {
  fileName: string;
  bytes: number;
  modules: string[];
}
interface BundleGraph {
  entries: Record<string, { facade: string | null; chunks: ChunkInfo[] }>;
}

/** Module paths (relative to the project) the page's static graph must not hold. */
const ENGINE_ONLY: RegExp[] = [
  /^src\/core\/explore\//,
  /^src\/core\/chunk\//,
  /^src\/core\/walk\//,
  /^src\/worker\/engine/,
  /^src\/worker\/session/,
  /(^|\/)node_modules\/web-tree-sitter\//,
  /(^|\/)node_modules\/isomorphic-git\//,
  /(^|\/)node_modules\/@isomorphic-git\//,
  // an ONNX embedding model runs in the embedding worker only (its runtime a lazy chunk of that worker)
  /(^|\/)node_modules\/onnxruntime-(web|common)\//,
  /(^|\/)node_modules\/@huggingface\/tokenizers\//,
];

/**
 * The two explore modules the page may hold: pure, importing types only (anything they imported
 * at run time would be in the graph too, and checked). analyzers.ts: the analyzers a depth runs,
 * for the progress list; markdown.ts: the report as Markdown, for its export.
 */
const PAGE_SAFE = new Set(['src/core/explore/analyzers.ts', 'src/core/explore/markdown.ts']);

function pageGraph(): { chunks: ChunkInfo[]; modules: string[] } {
  expect(existsSync(GRAPH), `${GRAPH} is missing: run \`npm run build\` first`).toBe(true);
  const graph = JSON.parse(readFileSync(GRAPH, 'utf8')) as BundleGraph;
  const entry = Object.values(graph.entries).find((e) => e.facade === 'index.html');
  expect(entry, 'bundle-graph.json has no entry for index.html').toBeTruthy();
  const chunks = entry!.chunks;
  return { chunks, modules: chunks.flatMap((c) => c.modules) };
}

test('the page loads no engine code before it runs (index.html entry and its static imports)', () => {
  const { chunks, modules } = pageGraph();
  // the graph is real: the app itself, React and the engine's client are in it
  expect(modules).toContain('src/main.tsx');
  expect(modules).toContain('src/ui/App.tsx');
  expect(modules).toContain('src/worker/client.ts');
  expect(modules.some((m) => m.startsWith('node_modules/react-dom/'))).toBe(true);

  const engine = modules.filter((m) => !PAGE_SAFE.has(m) && ENGINE_ONLY.some((r) => r.test(m)));
  expect(engine, 'engine modules in the page bundle (import them in the worker, or lazily)').toEqual([]);

  const bytes = chunks.reduce((n, c) => n + c.bytes, 0);
  test.info().annotations.push({
    type: 'page bundle',
    description: `${modules.length} modules, ${bytes} bytes in ${chunks.map((c) => c.fileName).join(', ')}`,
  });
});

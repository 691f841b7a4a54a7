// @ts-check
/**
 * Quarry's layers, by folder under src/ (docs/design.md): core <- adapters <- worker <- ui;
 * cli uses core + adapters + worker. Read by eslint.config.js and by the rule's tests.
 *
 * `browser: true` layers ship in the app bundle, so quarry/browser-closure follows their imports
 * transitively and fails if one reaches Node; `node: true` layers may import Node builtins and
 * are Node-only. `paths` are folders (ending in '/') or files under src/; the longest match wins.
 * Every file under src/ must be in a layer (quarry/layers reports one that is not).
 */

/** Packages core may use: pure JS that runs unchanged in a worker, in Node and on the main thread. */
export const CORE_PACKAGES = ['ignore', 'jsonc-parser', 'picomatch', 're2js', 'smol-toml', 'web-tree-sitter'];

/** Packages ui may use: the page's own (no git, no parsers, no model runtime: those are the worker's). */
export const UI_PACKAGES = ['react', 'react-dom', '@tanstack/react-virtual', 'cytoscape'];

/**
 * The worker files ui may import: the client the page calls, the protocol's types, and the
 * transport that starts the worker (or, if none can start, the engine on the main thread, by a
 * dynamic import the bundle keeps out of the page's chunk).
 */
export const UI_WORKER_SURFACE = ['worker/client.ts', 'worker/protocol.ts', 'worker/browser-host.ts'];

/** @type {Record<string, import('./boundaries.js').LayerSpec>} */
export const LAYERS = {
  core: { paths: ['core/'], allow: ['core'], packages: CORE_PACKAGES, browser: true },
  'adapters/browser': { paths: ['adapters/browser/'], allow: ['core', 'adapters/browser'], browser: true },
  // isomorphic-git + lightning-fs: the worker's git, in the browser and (through the worker) in Node
  'adapters/git': { paths: ['adapters/git/'], allow: ['core', 'adapters/git'], browser: true },
  // the embedding model's runtime (tfjs, wasm backend): the browser's embedding worker and Node alike
  'adapters/embed': { paths: ['adapters/embed/'], allow: ['core', 'adapters/embed'], browser: true },
  'adapters/node': {
    paths: ['adapters/node/'],
    allow: ['core', 'adapters/browser', 'adapters/embed', 'adapters/git', 'adapters/node'],
    node: true,
  },
  worker: {
    paths: ['worker/'],
    allow: ['core', 'adapters/browser', 'adapters/embed', 'adapters/git', 'worker'],
    browser: true,
  },
  // The engine's Node hosts (worker_threads), for tests, benchmarks and Node callers.
  'worker/node': {
    paths: ['worker/node/', 'worker/node-host.ts', 'worker/node-expose.ts'],
    allow: [
      'core',
      'adapters/browser',
      'adapters/embed',
      'adapters/git',
      'adapters/node',
      'worker',
      'worker/node',
    ],
    node: true,
  },
  ui: {
    paths: ['ui/', 'main.tsx'],
    allow: ['core', 'worker', 'adapters/browser', 'ui'],
    // the page talks to the engine through its client only: the engine, its session and services
    // run in the worker (or in the lazily loaded main-thread fallback browser-host.ts starts)
    only: { worker: UI_WORKER_SURFACE },
    packages: UI_PACKAGES,
    browser: true,
  },
  cli: {
    paths: ['cli/'],
    allow: [
      'core',
      'adapters/browser',
      'adapters/embed',
      'adapters/git',
      'adapters/node',
      'worker',
      'worker/node',
      'cli',
    ],
    node: true,
  },
};

/** The options quarry/layers and quarry/browser-closure take. */
export const LAYER_OPTIONS = {
  root: 'src',
  layers: LAYERS,
  exempt: ['\\.test\\.tsx?$', '\\.testutil\\.tsx?$'],
};

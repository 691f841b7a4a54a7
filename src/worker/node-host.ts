/**
 * Run the engine in a Node worker_threads Worker behind the same EngineClient the app uses
 * (unit tests and benchmarks). The caller passes the Worker class, so this browser-layer
 * folder never imports a Node module:
 *
 *   // Worker is worker_threads' Worker class, imported by the (Node-only) caller
 *   const client = new EngineClient(() => startNodeWorkerTransport(Worker));
 *   await client.openRepo({ kind: 'memory', name: 'x', files }).done;
 *
 * The worker loads TypeScript through tsx's ESM register API (an `--import tsx` in a
 * worker's execArgv does not reach eval'd code on Node 20). Resolved from the working
 * directory, so run it from the project root.
 */
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { EngineTransport } from './client';
import type { EngineApi } from './protocol';

export interface NodeWorkerLike {
  postMessage(message: unknown, transfer?: unknown[]): void;
  on(type: string, listener: (...args: unknown[]) => void): void;
  off(type: string, listener: (...args: unknown[]) => void): void;
  terminate(): unknown;
}

export type NodeWorkerConstructor = new (
  code: string,
  options: { eval: true; execArgv?: string[]; workerData?: unknown },
) => NodeWorkerLike;

/** The bootstrap evaluated in the worker: import worker_threads there, then expose the engine. */
export function nodeWorkerBootstrap(
  options: {
    yieldBudgetMs?: number;
    nodeGrammars?: boolean;
    searchThreads?: boolean;
    wrapModule?: string;
  } = {},
): string {
  const entry = new URL('./node-expose.ts', import.meta.url).href;
  // With nodeGrammars the worker reads tree-sitter's wasm from node_modules (benchmarks: the
  // code index in a Node worker); the browser build fetches them as assets instead.
  const grammars = new URL('../adapters/node/grammars.ts', import.meta.url).href;
  // With searchThreads text search runs on a pool of worker_threads (the bench: as the CLI does).
  const searchPool = new URL('../adapters/node/search-pool.ts', import.meta.url).href;
  const { nodeGrammars, searchThreads, wrapModule, ...plain } = options;
  return [
    `const { parentPort } = require('node:worker_threads');`,
    `import('tsx/esm/api')`,
    `  .then(({ register }) => { register(); return Promise.all([import(${JSON.stringify(entry)}), ${nodeGrammars ? `import(${JSON.stringify(grammars)})` : 'null'}, ${wrapModule ? `import(${JSON.stringify(wrapModule)})` : 'null'}, ${searchThreads ? `import(${JSON.stringify(searchPool)})` : 'null'}]); })`,
    `  .then(([m, g, w, s]) => m.exposeOnNodePort(parentPort, { ...${JSON.stringify(plain)}, ...(g ? { grammarLoader: g.nodeGrammarLoader } : {}), ...(s ? { searchPool: () => s.nodeSearchPool() } : {}), ...(w && w.engineOptions ? w.engineOptions() : {}) }, w ? w.wrapApi : undefined))`,
    `  .catch((err) => { console.error(err); process.exit(1); });`,
  ].join('\n');
}

export async function startNodeWorkerTransport(
  WorkerCtor: NodeWorkerConstructor,
  /**
   * wrapModule: a module URL whose `wrapApi(api)` wraps the engine before it is exposed, and whose
   * `engineOptions()` adds engine options that cannot cross as JSON (an index store): test hooks
   * and benchmark set-ups stay out of the production API.
   */
  options: {
    yieldBudgetMs?: number;
    startTimeoutMs?: number;
    nodeGrammars?: boolean;
    searchThreads?: boolean;
    wrapModule?: string;
  } = {},
): Promise<EngineTransport> {
  const { startTimeoutMs: _t, ...boot } = options;
  const worker = new WorkerCtor(nodeWorkerBootstrap(boot), {
    eval: true,
  });
  const api = Comlink.wrap<EngineApi>(nodeEndpoint(worker as never));
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let onFail: (...args: unknown[]) => void = () => {};
  try {
    await Promise.race([
      api.ping(),
      new Promise((_, reject) => {
        onFail = (e: unknown) =>
          reject(
            new Error(`the engine worker failed to start: ${e instanceof Error ? e.message : String(e)}`),
          );
        worker.on('error', onFail);
        worker.on('exit', onFail);
      }),
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`the engine worker did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        ).unref?.(),
      ),
    ]);
  } catch (err) {
    void worker.terminate();
    throw err;
  } finally {
    worker.off('error', onFail);
    worker.off('exit', onFail);
  }
  return {
    api: api as unknown as EngineApi,
    proxy: (v) => Comlink.proxy(v),
    transfer: (v, list) => Comlink.transfer(v, list),
    terminate: () => {
      void worker.terminate();
    },
    host: 'node-worker',
  };
}

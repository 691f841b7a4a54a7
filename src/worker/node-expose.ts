/**
 * Node worker_threads entry body: exposes the engine on the worker's parentPort. Loaded by
 * the eval'd bootstrap that node-host.ts builds (the bootstrap does the node:worker_threads
 * import, so this browser-layer folder never imports a Node module itself).
 */
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { createEngineApi, type EngineApiOptions } from './engine';
import { exposeEngine } from './expose';
import type { EngineApi } from './protocol';

export function exposeOnNodePort(
  port: Parameters<typeof nodeEndpoint>[0],
  options: EngineApiOptions = {},
  wrapApi?: (api: EngineApi) => EngineApi,
): void {
  const api = createEngineApi({ host: 'node-worker', ...options });
  exposeEngine(wrapApi ? wrapApi(api) : api, nodeEndpoint(port));
}

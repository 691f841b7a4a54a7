/**
 * A wrapModule for startNodeWorkerTransport: the engine in the worker keeps its indexes in
 * files under $QUARRY_TEST_STORE_DIR (as the browser keeps them in IndexedDB), so they outlive
 * the worker, and a test can kill the worker and start another over the same store.
 */
import { FileIndexStore } from '../src/adapters/node/index-store';
import type { EngineApiOptions } from '../src/worker/engine';

export function engineOptions(): EngineApiOptions {
  const dir = process.env.QUARRY_TEST_STORE_DIR;
  if (!dir) throw new Error('QUARRY_TEST_STORE_DIR is not set');
  return { indexStore: new FileIndexStore(dir) };
}

export const WORKER_STORE_MODULE = new URL('./worker-store.testutil.ts', import.meta.url).href;

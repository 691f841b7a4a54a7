/**
 * Start the engine in a Web Worker; if a worker cannot start (no Worker, a CSP that forbids
 * it, a script that fails to load), run the same engine on the main thread instead. The
 * fallback engine is a lazily loaded chunk, so the normal path does not pay for it.
 */
import * as Comlink from 'comlink';
import type { EngineTransport } from './client';
import type { EngineApi } from './protocol';

/** How long a new worker may take to answer its first ping. */
export const WORKER_START_TIMEOUT_MS = 10_000;

export async function startWorkerTransport(timeoutMs = WORKER_START_TIMEOUT_MS): Promise<EngineTransport> {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-engine',
  });
  const api = Comlink.wrap<EngineApi>(worker);
  const transport: EngineTransport = {
    api: api as unknown as EngineApi,
    proxy: (v) => Comlink.proxy(v),
    transfer: (v, list) => Comlink.transfer(v, list),
    terminate: () => {
      try {
        api[Comlink.releaseProxy]();
      } catch {
        // ignore
      }
      worker.terminate();
    },
    host: 'worker',
  };
  let onError: ((e: Event) => void) | null = null;
  try {
    await Promise.race([
      api.ping(),
      new Promise((_, reject) => {
        onError = (e: Event) =>
          reject(new Error(`the worker failed to load: ${(e as ErrorEvent).message ?? 'error event'}`));
        worker.addEventListener('error', onError);
      }),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`the worker did not answer within ${timeoutMs} ms`)), timeoutMs),
      ),
    ]);
  } catch (err) {
    worker.terminate();
    throw err;
  } finally {
    if (onError) worker.removeEventListener('error', onError);
  }
  return transport;
}

export async function startMainThreadTransport(): Promise<EngineTransport> {
  const [
    { createEngineApi },
    { loadDemoFiles },
    { inThreadTransport },
    { browserGrammarLoader },
    { browserIndexStore },
  ] = await Promise.all([
    import('./engine'),
    import('../adapters/browser/demo-bundle'),
    import('./client'),
    import('../adapters/browser/grammars'),
    import('./browser-index-store'),
  ]);
  return inThreadTransport(
    createEngineApi({
      host: 'main-thread',
      loadDemo: loadDemoFiles,
      grammarLoader: browserGrammarLoader,
      indexStore: browserIndexStore(),
    }),
    'main-thread',
  );
}

/** The app's transport factory: a worker when possible, else the main thread. */
export async function startBrowserTransport(
  options: { forceMainThread?: boolean } = {},
): Promise<EngineTransport> {
  if (!options.forceMainThread && typeof Worker !== 'undefined') {
    try {
      return await startWorkerTransport();
    } catch (err) {
      console.warn(
        `Quarry: running the engine on the main thread because ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return startMainThreadTransport();
}

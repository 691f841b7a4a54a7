/**
 * Expose an engine on a Comlink endpoint (a worker's global scope, or a Node port wrapped
 * by comlink's node adapter). Callback proxies are released when their call settles, so a
 * long session does not pile up open MessagePorts.
 */
import * as Comlink from 'comlink';
import type { EngineApi } from './protocol';

type ReleasableCallback = { [Comlink.releaseProxy]?: () => void };

function release(cb: unknown): void {
  try {
    (cb as ReleasableCallback)?.[Comlink.releaseProxy]?.();
  } catch {
    // already released
  }
}

export function withReleasedCallbacks(api: EngineApi): EngineApi {
  return {
    ...api,
    openRepo: (jobId, spec, onEvent, pull, open) =>
      api.openRepo(jobId, spec, onEvent, pull, open).finally(() => {
        release(onEvent);
        release(pull);
      }),
    search: (jobId, request, onEvent) => api.search(jobId, request, onEvent).finally(() => release(onEvent)),
    indexRepo: (jobId, request, onEvent) =>
      api.indexRepo(jobId, request, onEvent).finally(() => release(onEvent)),
  };
}

export function exposeEngine(api: EngineApi, endpoint?: Comlink.Endpoint): void {
  Comlink.expose(withReleasedCallbacks(api), endpoint);
}

/**
 * Expose an engine on a Comlink endpoint (a worker's global scope, or a Node port wrapped
 * by comlink's node adapter). Callback proxies are released when their call settles, so a
 * long session does not pile up open MessagePorts.
 */
import * as Comlink from 'comlink';
import { ENGINE_METHODS, type EngineApi } from './protocol';

type ReleasableCallback = { [Comlink.releaseProxy]?: () => void };

function release(cb: unknown): void {
  try {
    (cb as ReleasableCallback)?.[Comlink.releaseProxy]?.();
  } catch {
    // already released
  }
}

/** Every job of the method table releases its callbacks (the event sink, a snapshot's pull) when it settles. */
export function withReleasedCallbacks(api: EngineApi): EngineApi {
  const wrapped: Record<string, unknown> = { ...api };
  for (const group of Object.values(ENGINE_METHODS)) {
    for (const [name, kind] of Object.entries(group)) {
      if (kind !== 'job' && kind !== 'foregroundJob') continue;
      const method = api[name as keyof EngineApi] as (...args: unknown[]) => Promise<unknown>;
      wrapped[name] = (...args: unknown[]) =>
        method(...args).finally(() => {
          for (const arg of args) if (typeof arg === 'function') release(arg);
        });
    }
  }
  return wrapped as EngineApi;
}

export function exposeEngine(api: EngineApi, endpoint?: Comlink.Endpoint): void {
  Comlink.expose(withReleasedCallbacks(api), endpoint);
}

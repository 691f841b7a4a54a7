/** The app's one engine client: a Web Worker when possible, the main thread otherwise. */
import { createContext, useContext } from 'react';
import { EngineClient } from '../worker/client';
import { startBrowserTransport } from '../worker/browser-host';
import { readAddressParams } from './url-state';

export function createAppEngine(): EngineClient {
  // `?engine=main` forces the main-thread fallback (diagnostics and its e2e test).
  const forceMainThread = readAddressParams(location.search).get('engine')?.[0]?.value === 'main';
  return new EngineClient(() => startBrowserTransport({ forceMainThread }));
}

export const EngineContext = createContext<EngineClient | null>(null);

export function useEngine(): EngineClient {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useEngine outside EngineContext');
  return engine;
}

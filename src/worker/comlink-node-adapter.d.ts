/** comlink ships this adapter without a .d.mts next to the .mjs, so TypeScript needs the shape. */
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export interface NodeEndpoint {
    postMessage(message: unknown, transfer?: unknown[]): void;
    on(type: string, listener: (...args: unknown[]) => void, options?: object): void;
    off(type: string, listener: (...args: unknown[]) => void, options?: object): void;
    start?: () => void;
  }
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}

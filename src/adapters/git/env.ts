/**
 * isomorphic-git expects a global `Buffer` ("Missing Buffer dependency" in browsers).
 * In the browser build 'buffer' resolves to the npm package (Vite and esbuild prefer an installed
 * package over the builtin name); in Node it is the builtin, which is the same API.
 */
import { Buffer } from 'buffer';

const g = globalThis as unknown as { Buffer?: unknown };
g.Buffer ??= Buffer;

// lightning-fs bundles a TextEncoder polyfill that finds the global object as
// `typeof window !== 'undefined' ? window : typeof global !== 'undefined' ? global : this`;
// in a module worker none of those is defined, so give it `global`.
const gl = globalThis as unknown as { global?: unknown };
gl.global ??= globalThis;

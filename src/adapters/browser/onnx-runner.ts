/**
 * onnxruntime-web as an OnnxRuntime, for the browser's embedding worker (adapters/embed/onnx-model.ts
 * runs the same code on onnxruntime-node in Node, both through core's ortRuntime). The CPU (wasm) build only: its glue is in the
 * bundle, and the one binary it needs, ort-wasm-simd-threaded.wasm, comes from `wasmPaths` (the
 * app's own asset, never a CDN) or is given as `wasmBinary`. One thread by default: more need a cross-origin isolated page
 * and start workers from the glue's URL, which the app's CSP may forbid.
 */
import * as ort from 'onnxruntime-web/wasm';
import type { OnnxRuntime } from '../../core/semantic/port';
import { ortRuntime } from '../../core/semantic/ort-session';

export interface BrowserOnnxOptions {
  /** A folder URL ending in '/', or the files' own URLs ({ wasm: '.../ort-wasm-simd-threaded.wasm' }). */
  wasmPaths?: string | { wasm?: string | URL; mjs?: string | URL };
  /** The binary itself, fetched by the caller (with its own progress or cache): wasmPaths' wasm is not fetched then. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** The wasm threads (default 1). */
  threads?: number;
}

/** onnxruntime-web's settings are global: the last call's win, for sessions created after it. */
export function browserOnnxRuntime(options: BrowserOnnxOptions = {}): OnnxRuntime {
  if (options.wasmPaths !== undefined) ort.env.wasm.wasmPaths = options.wasmPaths;
  if (options.wasmBinary !== undefined) ort.env.wasm.wasmBinary = options.wasmBinary;
  ort.env.wasm.numThreads = options.threads ?? 1;
  ort.env.wasm.proxy = false;
  return ortRuntime<ort.InferenceSession.SessionOptions>(ort, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
}

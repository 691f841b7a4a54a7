/**
 * onnxruntime-web's WebGPU execution provider as an OnnxRuntime, for the embedding worker when a
 * GPU is there (embed-device.ts decides). Its build is the JSPI one (ort.jspi: the CPU kernels and
 * the WebGPU provider in one binary, ort-wasm-simd-threaded.jspi.wasm, 17 MB: the app's own asset,
 * fetched on first use and kept by the service worker, never precached); a chunk of its own, so a
 * browser without WebGPU never loads it. Operators the provider lacks run on its CPU kernels.
 */
import * as ort from 'onnxruntime-web/jspi';
import type { OnnxRuntime } from '../../core/semantic/port';
import { ortRuntime } from '../../core/semantic/ort-session';
import type { GpuAdapterLike } from './embed-device';

export interface WebGpuOnnxOptions {
  /** The URL of ort-wasm-simd-threaded.jspi.wasm. */
  wasm: string;
  /** The adapter to run on (the one embed-device.ts chose). */
  adapter: GpuAdapterLike;
}

export function webGpuOnnxRuntime(options: WebGpuOnnxOptions): OnnxRuntime {
  ort.env.wasm.wasmPaths = { wasm: options.wasm };
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  (ort.env.webgpu as { adapter?: unknown }).adapter = options.adapter;
  return ortRuntime<ort.InferenceSession.SessionOptions>(ort, {
    executionProviders: ['webgpu'],
    graphOptimizationLevel: 'all',
  });
}

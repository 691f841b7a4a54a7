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
import { gpuDeviceOf, type GpuAdapterLike } from './embed-device';

export interface WebGpuOnnxOptions {
  /** The URL of ort-wasm-simd-threaded.jspi.wasm. */
  wasm: string;
  /** The adapter to run on (the one embed-device.ts chose): the sessions run on a device made from it. */
  adapter: GpuAdapterLike;
}

export async function webGpuOnnxRuntime(options: WebGpuOnnxOptions): Promise<OnnxRuntime> {
  ort.env.wasm.wasmPaths = { wasm: options.wasm };
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  // (this build only checks env.webgpu.adapter and asks for an adapter of its own: a device given
  // in the provider's options is the one it runs on)
  const device = await gpuDeviceOf(options.adapter);
  const webgpu = { name: 'webgpu', device } as unknown as ort.InferenceSession.ExecutionProviderConfig;
  return ortRuntime<ort.InferenceSession.SessionOptions>(ort, {
    executionProviders: [webgpu],
    graphOptimizationLevel: 'all',
  });
}

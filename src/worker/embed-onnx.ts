/**
 * The ONNX side of the embedding worker, a chunk of its own loaded only when the model is an
 * ONNX one (the build's, or the user's): the tokenizer, the layout and onnxruntime-web, one wasm
 * thread (more need a cross-origin isolated page and workers from blob: URLs, which the CSP
 * forbids). Where it runs follows the person's choice (adapters/browser/embed-device.ts): on a
 * GPU through WebGPU (onnxruntime-web's JSPI build, a chunk and a 17 MB binary of their own,
 * fetched only then), else on the CPU (the 14 MB ort-wasm-simd-threaded.wasm). Both binaries are
 * the app's own assets, kept by the service worker on first use, never precached. A WebGPU that
 * cannot start the model, or fails its first run, gives way to the CPU (the worker keeps the JSPI
 * build's instance and its device until it ends: a model switch or a reload); the model says
 * which ran (EmbeddingModel.device), and so do the results.
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import ortJspiWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jspi.wasm?url';
import type { EmbeddingModel, ModelLoadProgress, OnnxModelFiles } from '../core/semantic/port';
import { browserOnnxRuntime } from '../adapters/browser/onnx-runner';
import {
  embedDevicePreference,
  webGpuAdapterFor,
  type GpuAdapterLike,
} from '../adapters/browser/embed-device';
import { loadOnnxModel } from '../adapters/embed/onnx-model';

/** The model on `device` (what the results name). */
function on(model: EmbeddingModel, device: string): EmbeddingModel {
  return {
    id: model.id,
    dims: model.dims,
    device,
    embed: (texts) => model.embed(texts),
    dispose: () => model.dispose?.(),
  };
}

async function onWebGpu(
  adapter: GpuAdapterLike,
  files: OnnxModelFiles,
  onnxFile: string,
  onProgress?: (p: ModelLoadProgress) => void,
): Promise<EmbeddingModel | null> {
  try {
    const { webGpuOnnxRuntime } = await import('../adapters/browser/onnx-webgpu');
    // (loading runs the model once: a provider that fails on its first batch fails here, not mid-repository)
    const model = await loadOnnxModel(files, await webGpuOnnxRuntime({ wasm: ortJspiWasmUrl, adapter }), {
      onnxFile,
      onProgress,
    });
    return on(model, 'WebGPU');
  } catch (err) {
    console.warn(
      `Quarry: the embedding model runs on the CPU: WebGPU could not run it (${err instanceof Error ? err.message : String(err)})`,
    );
    return null;
  }
}

export async function loadBrowserOnnxModel(
  files: OnnxModelFiles,
  onnxFile: string,
  onProgress?: (p: ModelLoadProgress) => void,
): Promise<EmbeddingModel> {
  const adapter = await webGpuAdapterFor(await embedDevicePreference());
  const gpu = adapter ? await onWebGpu(adapter, files, onnxFile, onProgress) : null;
  if (gpu) return gpu;
  // (after a WebGPU that failed the files are read again, without a second progress bar)
  const runtime = browserOnnxRuntime({ wasmPaths: { wasm: ortWasmUrl }, threads: 1 });
  const model = await loadOnnxModel(files, runtime, {
    onnxFile,
    onProgress: adapter ? undefined : onProgress,
  });
  return on(model, 'CPU');
}

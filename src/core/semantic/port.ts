/**
 * The embedding port: what semantic search needs from a sentence-embedding model, with no
 * runtime in core. adapters/embed/use-lite.ts implements it with tfjs (wasm backend) for
 * Node and the browser's embedding worker; tests may pass any model of the same shape.
 */

export interface EmbeddingModel {
  /** Names the model and its vectors: stored vectors made by another model are not reused. */
  readonly id: string;
  readonly dims: number;
  /**
   * Where it runs, when that is worth saying: 'WebGPU' or 'CPU' (wasm) for an ONNX model in the browser.
   * The same model's vectors are the same wherever it runs (to float rounding): the id does not change.
   */
  readonly device?: string;
  /** Unit-length vectors for the texts, flat: text i is [i * dims, (i + 1) * dims). */
  embed(texts: readonly string[]): Promise<Float32Array>;
  dispose?(): void;
}

/** Loading the model: bytes of its files as they arrive, then ready. */
export interface ModelLoadProgress {
  phase: 'model';
  loaded: number;
  total: number;
}

/** Port: the USE-lite files (Node reads them from the package, the browser fetches the app's own assets). */
export interface UseLiteFiles {
  /** model.json: the graph and its weights manifest. */
  modelJson(): Promise<unknown>;
  /** The weight shards named in the manifest, in order, concatenated. */
  weights(
    paths: readonly string[],
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<ArrayBuffer>;
  /** vocab.json: [piece, score] pairs. */
  vocabulary(): Promise<unknown>;
}

/**
 * Port: the files of an ONNX model in the transformers.js layout (config.json, tokenizer.json,
 * onnx/model.onnx or onnx/model_quantized.onnx, and optionally tokenizer_config.json and the
 * sentence-transformers files modules.json, 1_Pooling/config.json, sentence_bert_config.json).
 * Node reads them from a folder (adapters/node/onnx-files.ts); a browser would fetch them.
 */
export interface OnnxModelFiles {
  /** What the model is called when its config names nothing (the folder's name, say). */
  readonly name: string;
  /** A file's bytes by its path relative to the model ('onnx/model.onnx'), or null when there is none. */
  read(path: string, onProgress?: (loaded: number, total: number) => void): Promise<Uint8Array | null>;
}

/** An int64 input of an ONNX model: [batch, sequence] ids, mask, token types or positions. */
export interface OnnxInput {
  data: BigInt64Array;
  dims: readonly number[];
}

/** A float32 output of an ONNX model ([batch, sequence, hidden] or [batch, hidden]). */
export interface OnnxOutput {
  data: Float32Array;
  dims: readonly number[];
}

/**
 * Port: one loaded ONNX graph (an onnxruntime-node or onnxruntime-web session). Core chooses
 * the inputs to feed (by the graph's input names) and the output to read.
 */
export interface OnnxRunner {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Readonly<Record<string, OnnxInput>>, output: string): Promise<OnnxOutput>;
  dispose?(): void;
}

/** Port: an ONNX runtime, which loads a graph from its bytes (the only runtime-specific step). */
export interface OnnxRuntime {
  createRunner(model: Uint8Array): Promise<OnnxRunner>;
}

/**
 * The embedding port: what semantic search needs from a sentence-embedding model, with no
 * runtime in core. adapters/embed/use-lite.ts implements it with tfjs (wasm backend) for
 * Node and the browser's embedding worker; tests may pass any model of the same shape.
 */

export interface EmbeddingModel {
  /** Names the model and its vectors: stored vectors made by another model are not reused. */
  readonly id: string;
  readonly dims: number;
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

declare module 'virtual:quarry-demo' {
  /** The demo's files, path -> text (built: fetched from a JSON asset; dev: inline). */
  const load: () => Promise<Record<string, string>>;
  export default load;
  /** The demo's stored code index (scripts/demo-index.ts), built with the app, as fetched (gzipped); null in dev or when it cannot be fetched. */
  export const loadIndex: () => Promise<Uint8Array | null>;
}

declare module 'virtual:quarry-use-lite' {
  /** A file of the embedding model: a same-origin URL (the app's own asset) and its size in bytes. */
  interface ModelAsset {
    url: string;
    bytes: number;
  }
  /** The USE-lite files emitted by the `quarry-use-lite` Vite plugin; `shards` is keyed by the path model.json's manifest gives. */
  const files: { modelJson: ModelAsset; vocabulary: ModelAsset; shards: Record<string, ModelAsset> };
  export default files;
}

declare module 'virtual:quarry-embed-model' {
  /**
   * The ONNX model a build was given (QUARRY_EMBED_MODEL, scripts/vite-embed-model.ts): its files
   * by their path in the transformers.js layout, each a same-origin URL and its size; null when
   * the build has none (USE lite).
   */
  const model: {
    name: string;
    onnxFile: string;
    bytes: number;
    files: Record<string, { url: string; bytes: number }>;
  } | null;
  export default model;
}

declare module 'virtual:quarry-embed-model-info' {
  /** The build's own ONNX model's name and size (no URLs), or null (USE lite). */
  const info: { name: string; bytes: number } | null;
  export default info;
}

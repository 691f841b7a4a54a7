/**
 * The embedding model on several threads (issue 36: "embed on a pool of workers, one per core"):
 * one ThreadEmbedder (thread-embedder.ts) per thread, each loading the model once, behind the one
 * EmbeddingModel port. A batch of texts is cut into as many contiguous slices as there are threads
 * (no slice empty), each thread embeds its slice, and the vectors are put back in the batch's
 * order. The browser (worker/embed-client.ts: nested Web Workers) and Node (adapters/node/
 * embed-pool.ts: worker_threads) give their spawn function and the thread count
 * (embedThreadCount of navigator.hardwareConcurrency / os.availableParallelism()).
 *
 * Why slices of one batch rather than whole batches to whichever thread is free: SemanticIndex
 * embeds one batch at a time (definitions and the open file's chunks first, then on), and a batch
 * made searchable as soon as it is done is what makes the first answer early; cutting it lets
 * every core work on the most wanted texts at once. The texts of a batch are of similar length
 * (shortest first), so equal counts are close to equal work.
 *
 * A thread that stops fails only what it held (as a single thread does): a batch with a slice on it
 * fails, and so does the model given before, from then on; the next load() starts a fresh thread
 * in its place and keeps the threads that still run (their model stays loaded). A load that fails
 * on one thread rejects, and the next load retries that thread only.
 */
import type { EmbeddingModel, ModelLoadProgress } from './port';
import { ThreadEmbedder, type EmbedThread, type ThreadEmbedderNames } from './thread-embedder';

/**
 * Threads at most. Each holds its own copy of the model (USE lite: ~30 MB of weights and the
 * wasm heap), and a batch of 16 cut more than four ways leaves slices too small to amortise a call.
 */
export const MAX_EMBED_THREADS = 4;

/** One thread per core (navigator.hardwareConcurrency, os.availableParallelism()), 1 to MAX_EMBED_THREADS. */
export function embedThreadCount(cores: number | undefined): number {
  const n = Math.floor(Number(cores));
  return Number.isFinite(n) ? Math.max(1, Math.min(MAX_EMBED_THREADS, n)) : 1;
}

/** Cuts `n` texts into `parts` contiguous slices as equal as possible (the first ones longer): their ends. */
export function sliceEnds(n: number, parts: number): number[] {
  const k = Math.max(1, Math.min(parts, n));
  const ends: number[] = [];
  const base = Math.floor(n / k);
  const extra = n % k;
  let at = 0;
  for (let i = 0; i < k; i++) {
    at += base + (i < extra ? 1 : 0);
    ends.push(at);
  }
  return ends;
}

export class EmbedderPool {
  /** Every thread the pool may run. */
  private readonly all: ThreadEmbedder[];
  /** The threads in use: all of them, or one while the model runs on a GPU. */
  private threads: ThreadEmbedder[];
  /** The model given last, and the threads' models it is made of (a new one when any changed). */
  private current: { model: EmbeddingModel; parts: readonly EmbeddingModel[] } | null = null;

  constructor(
    spawn: () => EmbedThread,
    names: ThreadEmbedderNames,
    /** How many threads (at least one; embedThreadCount gives one per core). */
    threadCount: number,
  ) {
    const n = Math.max(1, Math.floor(threadCount) || 1);
    this.all = Array.from({ length: n }, () => new ThreadEmbedder(spawn, names));
    this.threads = this.all;
  }

  /** How many threads the texts are shared among. */
  get size(): number {
    return this.threads.length;
  }

  /**
   * The model, loaded once on every thread (all at once: each thread reads the model itself). The
   * progress is the slowest thread's bytes of the model's (each reads the same files: a sum would
   * show the model n times its size). The first call starts the threads; later calls get the
   * same model while every thread still runs, else a new one over a fresh thread in place of the
   * stopped one. An abort rejects this caller only.
   */
  async load(onProgress?: (p: ModelLoadProgress) => void, signal?: AbortSignal): Promise<EmbeddingModel> {
    const loaded = this.threads.map(() => 0);
    const total = this.threads.map(() => 0);
    let parts = await Promise.all(
      this.threads.map((t, i) =>
        t.load(
          onProgress &&
            ((p) => {
              loaded[i] = p.loaded;
              total[i] = p.total;
              onProgress({ phase: 'model', loaded: Math.min(...loaded), total: Math.max(...total) });
            }),
          signal,
        ),
      ),
    );
    // A GPU is one device: the other threads would hold the weights on it again and queue their
    // batches behind the first's, so the first thread that runs the model there keeps it alone.
    const gpu = parts.findIndex((m) => m.device === 'WebGPU');
    if (gpu >= 0 && parts.length > 1) {
      this.threads.forEach((t, i) => i !== gpu && t.dispose());
      this.threads = [this.threads[gpu]];
      parts = [parts[gpu]];
    }
    const have = this.current;
    if (have && have.parts.length === parts.length && have.parts.every((m, i) => m === parts[i]))
      return have.model;
    const model = this.pooled(parts);
    this.current = { model, parts };
    return model;
  }

  /** Terminates every thread: requests in flight reject, and a later load() starts new ones. */
  dispose(): void {
    this.current = null;
    for (const t of this.all) t.dispose();
    // (the next model may run on the CPU: every thread again)
    this.threads = this.all;
  }

  private pooled(parts: readonly EmbeddingModel[]): EmbeddingModel {
    const [first] = parts;
    const mismatch = parts.find((m) => m.id !== first.id || m.dims !== first.dims);
    if (mismatch)
      throw new Error(
        `The embedding threads loaded different models: ${first.id} (${first.dims}) and ${mismatch.id} (${mismatch.dims})`,
      );
    // one thread: its own model, unchanged
    if (parts.length === 1) return first;
    // (several threads run it on the CPU: on a GPU one thread keeps it, above)
    const { id, dims, device } = first;
    return {
      id,
      dims,
      ...(device ? { device } : {}),
      async embed(texts: readonly string[]): Promise<Float32Array> {
        if (!texts.length) return new Float32Array(0);
        const ends = sliceEnds(texts.length, parts.length);
        const slices = await Promise.all(
          ends.map((end, i) => parts[i].embed(texts.slice(i ? ends[i - 1] : 0, end))),
        );
        if (slices.length === 1) return slices[0];
        const out = new Float32Array(texts.length * dims);
        slices.forEach((v, i) => out.set(v, (i ? ends[i - 1] : 0) * dims));
        return out;
      },
      dispose: () => {
        if (this.current?.parts === parts) this.current = null;
        for (const m of parts) m.dispose?.();
      },
    };
  }
}

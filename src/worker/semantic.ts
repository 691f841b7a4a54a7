/**
 * Semantic search in the engine: the embedding model (loaded once, on the first semantic
 * search or the "Enable semantic search" button, in the embedding worker the host provides)
 * and each open root's vectors (core/semantic SemanticIndex, stored under `vectors:<key>`
 * beside the code index). enable() is a job: the model's bytes, then each root's chunks
 * embedded, with progress and cancel; a cancelled run keeps the vectors made so far (stored)
 * and the next one embeds only the rest. Later searches first bring the vectors level with the
 * code index (only changed chunks are embedded, usually none).
 */
import { QuarryError } from '../core/errors';
import { createBackgroundYielder, elapsedSince, now, type Foreground } from '../core/jobs/yielder';
import { forgivingStore, type IndexStore } from '../core/rank/persist';
import { SemanticIndex, vectorsKeyOf } from '../core/semantic/index';
import type { EmbeddingModel, ModelLoadProgress } from '../core/semantic/port';
import type { SemanticRoot } from '../core/semantic/search';
import { errorJSON } from './edge';
import type { JobEnd, Progress, SemanticStats, SemanticStatus } from './protocol';
import type { Roots } from './roots';
import { slot } from '../core/workspace/root-state';

/** A root's vectors (kept in the root's state: closing the root releases them). */
const VECTORS = slot<SemanticIndex>('semantic vectors');

export const vectorStoreKey = (key: string): string => `vectors:${key}`;

/** Where a model's vectors of a root are stored (USE lite's under vectorStoreKey, an ONNX model's beside them). */
export const modelVectorsKey = (key: string, modelId: string): string =>
  vectorsKeyOf(vectorStoreKey(key), modelId);

/** Loads the model (the host's embedding worker, or the Node model in tests). */
export type SemanticModelLoader = (
  onProgress?: (p: ModelLoadProgress) => void,
  signal?: AbortSignal,
) => Promise<EmbeddingModel>;

export interface SemanticDeps {
  loadModel?: SemanticModelLoader;
  /** What the host's own model is (the status says it before the model is loaded). */
  builtIn?: SemanticStatus['builtIn'];
  store?: IndexStore;
  foreground: Foreground;
  yieldBudgetMs?: number;
}

export class SemanticService {
  private model: EmbeddingModel | null = null;
  private state: SemanticStatus['state'] = 'off';
  private error: SemanticStatus['error'];
  private last: SemanticStats | null = null;
  /** one enable/sync at a time: a second caller waits for the first */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SemanticDeps) {
    if (!deps.loadModel) this.state = 'unavailable';
  }

  status(roots: Roots): SemanticStatus {
    let vectors = 0;
    let chunks = 0;
    for (const s of roots.roots) {
      const v = s.state.get(VECTORS);
      if (v) vectors += v.vectorCount;
      if (s.indexReady) chunks += s.readyIndex().index.chunkCount;
    }
    return {
      state: this.state,
      vectors,
      chunks,
      ...(this.model ? { model: this.model.id } : {}),
      ...(this.deps.builtIn ? { builtIn: this.deps.builtIn } : {}),
      ...(this.last ? { last: this.last } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  private async loadModel(
    signal: AbortSignal | undefined,
    progress: (p: Progress) => void,
  ): Promise<EmbeddingModel> {
    if (this.model) return this.model;
    if (!this.deps.loadModel)
      throw new QuarryError('NotFound', 'This build has no embedding model: semantic search is unavailable', {
        reason: 'semanticUnavailable',
      });
    this.state = 'loading';
    this.model = await this.deps.loadModel(
      (p) => progress({ phase: 'model', files: 0, totalFiles: 0, bytes: p.loaded, totalBytes: p.total }),
      signal,
    );
    return this.model;
  }

  /** Every root's vectors brought level with its code index; the model loaded first. Serialised. */
  sync(
    roots: Roots,
    options: { signal?: AbortSignal; onProgress?: (p: Progress) => void } = {},
  ): Promise<{ model: EmbeddingModel; roots: SemanticRoot[]; stats: SemanticStats }> {
    const run = this.running.then(() => this.syncNow(roots, options));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async syncNow(roots: Roots, options: { signal?: AbortSignal; onProgress?: (p: Progress) => void }) {
    const t0 = now();
    const progress = options.onProgress ?? (() => undefined);
    try {
      const model = await this.loadModel(options.signal, progress);
      this.state = 'embedding';
      this.error = undefined;
      const out: SemanticRoot[] = [];
      const stats: SemanticStats = {
        elapsedMs: 0,
        ending: 'complete',
        embedded: 0,
        chunks: 0,
        vectors: 0,
        bytes: 0,
      };
      for (const session of roots.roots) {
        const { index } = session.readyIndex();
        const store = this.deps.store ? forgivingStore(this.deps.store, () => undefined) : undefined;
        const key = modelVectorsKey(session.key, model.id);
        let vectors = session.state.get(VECTORS);
        // another model's vectors (the model was switched) are not this one's: its own are loaded or made
        if (vectors && vectors.modelId !== model.id) vectors = undefined;
        if (!vectors && store)
          vectors = (await SemanticIndex.load(store, key, model.id, model.dims)) ?? undefined;
        vectors ??= new SemanticIndex(model.id, model.dims);
        session.state.set(VECTORS, vectors);
        const yielder = createBackgroundYielder(this.deps.foreground, {
          yieldBudgetMs: this.deps.yieldBudgetMs,
          signal: options.signal,
        });
        let s;
        try {
          s = await vectors.sync(index, (p) => session.fileLines(p), model, {
            signal: options.signal,
            yielder,
            onProgress: (p) =>
              progress({
                phase: 'embedding',
                label: session.name,
                files: p.loaded,
                totalFiles: p.total,
                bytes: 0,
                totalBytes: 0,
              }),
          });
        } finally {
          // what was embedded is kept, a cancelled run too (the next one embeds only the rest); an unchanged index is not written again
          if (store) await vectors.save(store, key);
        }
        stats.embedded += s.embedded;
        stats.chunks += s.chunks;
        stats.vectors += s.vectors;
        stats.bytes += vectors.byteSize;
        out.push({ prefix: roots.prefixOf(session), index, vectors });
      }
      stats.elapsedMs = elapsedSince(t0);
      this.state = 'ready';
      this.last = stats;
      return { model, roots: out, stats };
    } catch (err) {
      // cancelled: off until the next enable (which resumes: what was embedded is stored)
      const cancelled = options.signal?.aborted;
      this.state = cancelled ? 'off' : 'failed';
      if (!cancelled) this.error = errorJSON(err);
      throw err;
    }
  }

  /**
   * Forgets the loaded model (the host's model changed: a model picked or put back): after any
   * enable or sync in progress, the model is disposed and semantic search is off until the next
   * enable, which loads the host's model again and brings each root's vectors level for it (its
   * own stored vectors, or embedded anew).
   */
  async resetModel(roots: Roots): Promise<SemanticStatus> {
    const run = this.running.then(() => {
      this.model?.dispose?.();
      this.model = null;
      this.last = null;
      this.error = undefined;
      if (this.deps.loadModel) this.state = 'off';
    });
    this.running = run.catch(() => undefined);
    await run;
    return this.status(roots);
  }

  /** The enable job: model, then vectors, with progress; cancelled is a normal ending. */
  async enable(
    roots: Roots,
    signal: AbortSignal,
    onProgress: (p: Progress) => void,
  ): Promise<JobEnd<never, SemanticStats>> {
    const t0 = now();
    try {
      const { stats } = await this.sync(roots, { signal, onProgress });
      return { results: [], limitHit: false, skipped: [], stats };
    } catch (err) {
      if (!signal.aborted) throw err;
      return {
        results: [],
        limitHit: false,
        skipped: [],
        stats: {
          elapsedMs: elapsedSince(t0),
          ending: 'cancelled',
          embedded: 0,
          chunks: 0,
          vectors: 0,
          bytes: 0,
        },
      };
    }
  }
}

/**
 * Semantic search in the engine: the embedding model (loaded once, on the first semantic
 * search or the "Enable semantic search" button, in the embedding worker the host provides)
 * and each open root's vectors (core/semantic SemanticIndex, stored under `vectors:<key>`
 * beside the code index). enable() is a job: the model's bytes, then each root's chunks
 * embedded, with progress and cancel; a cancelled run keeps the vectors made so far (stored)
 * and the next one embeds only the rest. Later searches first bring the vectors level with the
 * code index (only changed chunks are embedded, usually none). A search with a time budget
 * (semantic_search's SEMANTIC_SEARCH_BUDGET_MS) embeds for at most that long (the open file's chunks
 * and its folders' first when the search names one, `near`; definitions first within each), answers
 * from the vectors made so far with its coverage, and the embedding goes on in the background
 * (serialised with every other run; a full sync or enable supersedes it).
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

/** How many of the roots' chunks a search searched (the rest are not embedded yet). */
export interface SemanticCoverage {
  searched: number;
  of: number;
}

export interface SemanticSyncOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Embed for at most this long, then answer from the vectors so far (the rest embedded in the background). */
  budgetMs?: number;
  /** The open file, a workspace path (its root's prefix first when several are open): its chunks, then its folders', first. */
  near?: string;
}

/** The open file as a path of `prefix`'s root, or undefined when it is in another root (or none is open). */
export function nearIn(near: string | undefined, prefix: string): string | undefined {
  if (!near) return undefined;
  return near.startsWith(prefix) ? near.slice(prefix.length) : undefined;
}

export interface SemanticSync {
  model: EmbeddingModel;
  roots: SemanticRoot[];
  stats: SemanticStats;
  coverage: SemanticCoverage;
}

/** How often a search past its budget looks again for vectors to answer from. */
const POLL_MS = 250;

const noStats = (): SemanticStats => ({
  elapsedMs: 0,
  ending: 'complete',
  embedded: 0,
  chunks: 0,
  vectors: 0,
  bytes: 0,
});

const sleep = (ms: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  return { done, clear: () => clearTimeout(timer) };
};

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
  /** The model held when a run failed: disposed if the next load gives another. */
  private failedModel: EmbeddingModel | null = null;
  private state: SemanticStatus['state'] = 'off';
  private error: SemanticStatus['error'];
  private last: SemanticStats | null = null;
  /** one enable/sync at a time: a second caller waits for the first */
  private running: Promise<unknown> = Promise.resolve();
  /** the background continuation of a search that ran out of budget, while it runs */
  private background: AbortController | null = null;

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
    // (after a failed run, the model that failed: the next run asks the loader for it again)
    const model = this.model ?? this.failedModel;
    return {
      state: this.state,
      vectors,
      chunks,
      ...(model ? { model: model.id } : {}),
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
    const model = await this.deps.loadModel(
      (p) => progress({ phase: 'model', files: 0, totalFiles: 0, bytes: p.loaded, totalBytes: p.total }),
      signal,
    );
    // the model held when a run failed, given again (a pool whose threads all run) or replaced
    if (this.failedModel && this.failedModel !== model) this.failedModel.dispose?.();
    this.failedModel = null;
    this.model = model;
    return model;
  }

  /**
   * Every root's vectors brought level with its code index; the model loaded first. Serialised.
   * With `budgetMs`: at most that long (a run in progress is waited for that long, then its
   * vectors so far answer), the rest embedded in the background; `coverage` says how much.
   */
  sync(roots: Roots, options: SemanticSyncOptions = {}): Promise<SemanticSync> {
    if (options.budgetMs !== undefined) return this.syncWithin(roots, options.budgetMs, options);
    // a full sync supersedes the background continuation (it embeds the rest itself, with progress)
    this.background?.abort();
    return this.queue(() => this.syncNow(roots, options));
  }

  private queue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.running.then(fn);
    this.running = run.catch(() => undefined);
    return run;
  }

  private async syncWithin(
    roots: Roots,
    budgetMs: number,
    options: SemanticSyncOptions,
  ): Promise<SemanticSync> {
    const deadline = now() + budgetMs;
    // a run in progress (an enable, a continuation) is waited for; once the budget is spent, its vectors so far answer
    for (;;) {
      const left = deadline - now();
      const wait = sleep(left > 0 ? left : POLL_MS);
      const finished = await Promise.race([this.running.then(() => true), wait.done.then(() => false)]);
      wait.clear();
      if (finished) break;
      if (options.signal?.aborted) throw new QuarryError('Cancelled', 'The search was cancelled');
      if (now() >= deadline && this.model && this.state === 'embedding') {
        const soFar = this.answerSoFar(roots, this.model);
        if (soFar.coverage.searched > 0) return soFar;
      }
    }
    const out = await this.queue(() => this.syncNow(roots, { ...options, deadline }));
    if (out.coverage.searched < out.coverage.of) this.continueInBackground(roots, options.near);
    return out;
  }

  /** The roots' vectors as they are (a run is adding to them): those embedded are searched. */
  private answerSoFar(roots: Roots, model: EmbeddingModel): SemanticSync {
    const out: SemanticRoot[] = [];
    const coverage = { searched: 0, of: 0 };
    for (const session of roots.roots) {
      const { index } = session.readyIndex();
      const vectors = session.state.get(VECTORS);
      if (!vectors || vectors.modelId !== model.id) {
        coverage.of += index.chunkCount;
        continue;
      }
      const c = vectors.coverage(index);
      coverage.searched += c.searched;
      coverage.of += c.of;
      out.push({ prefix: roots.prefixOf(session), index, vectors });
    }
    return { model, roots: out, stats: this.last ?? noStats(), coverage };
  }

  /** The rest embedded after a search that ran out of budget, behind whatever runs now. */
  private continueInBackground(roots: Roots, near: string | undefined): void {
    if (this.background) return;
    const controller = new AbortController();
    this.background = controller;
    // in the same order: what is near the open file first
    void this.queue(() => this.syncNow(roots, { signal: controller.signal, ...(near ? { near } : {}) }))
      .catch(() => undefined)
      .finally(() => {
        if (this.background === controller) this.background = null;
      });
  }

  /** True while a search's embedding goes on in the background. */
  get embeddingInBackground(): boolean {
    return this.background !== null;
  }

  /** Stops the background embedding (what it made is kept and stored); resolves when it has stopped. */
  async stopBackground(): Promise<void> {
    this.background?.abort();
    await this.running;
  }

  private async syncNow(
    roots: Roots,
    options: SemanticSyncOptions & { deadline?: number },
  ): Promise<SemanticSync> {
    const t0 = now();
    const progress = options.onProgress ?? (() => undefined);
    try {
      const model = await this.loadModel(options.signal, progress);
      this.state = 'embedding';
      this.error = undefined;
      const out: SemanticRoot[] = [];
      const stats = noStats();
      const coverage = { searched: 0, of: 0 };
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
            deadline: options.deadline,
            near: nearIn(options.near, roots.prefixOf(session)),
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
        const c = vectors.coverage(index);
        coverage.searched += c.searched;
        coverage.of += c.of;
        out.push({ prefix: roots.prefixOf(session), index, vectors });
      }
      stats.elapsedMs = elapsedSince(t0);
      // stopped at a deadline: still embedding (the background continuation follows)
      this.state = coverage.searched < coverage.of ? 'embedding' : 'ready';
      this.last = stats;
      return { model, roots: out, stats, coverage };
    } catch (err) {
      // cancelled: off until the next enable (which resumes: what was embedded is stored)
      const cancelled = options.signal?.aborted;
      this.state = cancelled ? 'off' : 'failed';
      if (!cancelled) {
        this.error = errorJSON(err);
        // The model is asked for again by the next run: a pool whose thread stopped starts a new
        // one (and gives the same model while every thread runs), where the model held would fail
        // again until resetModel.
        if (this.model) [this.failedModel, this.model] = [this.model, null];
      }
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
    this.background?.abort();
    const run = this.running.then(() => {
      this.model?.dispose?.();
      this.failedModel?.dispose?.();
      this.model = this.failedModel = null;
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

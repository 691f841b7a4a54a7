/**
 * The semantic index of one root: for every chunk of the code index (every file it ranks,
 * any language), the row of its view (views.ts) in a VectorTable, kept per file with
 * the (size, mtime) it was built from. sync() brings it level with the code index: files
 * whose chunks changed get new views, and only view texts never embedded before are sent to
 * the model, shortest first, in batches (one batch at a time, cancellable between batches;
 * vectors already made are kept, so a cancelled sync resumes where it stopped). search()
 * is exact: every row's cosine with the query.
 */
import type { ChunkIndex, IndexedChunk } from '../rank/bm25';
import { QuarryError } from '../errors';
import { createYielder, type Yielder } from '../jobs/yielder';
import { decodeIndex, encodeIndex, fromJsonParts, jsonParts, type IndexStore } from '../rank/persist';
import type { EmbeddingModel } from './port';
import { VectorTable } from './vectors';
import { chunkView, VIEWS_VERSION } from './views';

const cancelled = () => new QuarryError('Cancelled', 'Embedding was cancelled');

/** What vectorsKeyOf adds to a root's key for ONNX models' vectors (removed with the root). */
export const ONNX_VECTORS_SUFFIX = '@onnx';

/**
 * The store key a model's vectors go under: USE lite's keep the root's own key (`base`); any
 * ONNX model's share a second key (`base@onnx`), so switching between the built-in model and
 * one brought keeps both sets. A stored set is only used by the model that made it (decode checks
 * the model's id): another ONNX model re-embeds, and takes the key over.
 */
export function vectorsKeyOf(base: string, modelId: string): string {
  return modelId.startsWith('onnx:') ? `${base}${ONNX_VECTORS_SUFFIX}` : base;
}

/** Texts per model call: long enough to amortise the call, short enough to cancel promptly. */
export const EMBED_BATCH = 16;

export interface EmbedProgress {
  phase: 'embedding';
  loaded: number;
  total: number;
}

export interface SyncStats {
  filesChanged: number;
  filesRemoved: number;
  /** View texts sent to the model (the rest were already embedded). */
  embedded: number;
  chunks: number;
  vectors: number;
}

export interface SemanticHit {
  chunk: IndexedChunk;
  /** Cosine similarity of the query and the chunk's view. */
  similarity: number;
}

interface FileViews {
  size: number;
  mtimeMs: number;
  /** the row of each chunk of the file, in the code index's order */
  rows: Int32Array;
}

export class SemanticIndex {
  private table: VectorTable;
  private files = new Map<string, FileViews>();
  /** Vectors or files changed since the last save (or load): a sync with nothing to do saves nothing. */
  private changed = false;

  constructor(
    readonly modelId: string,
    readonly dims: number,
  ) {
    this.table = new VectorTable(dims);
  }

  get vectorCount(): number {
    return this.table.rows;
  }

  get byteSize(): number {
    return this.table.byteSize;
  }

  /** Files of the code index with no views yet, or views of another version of the file. */
  stale(index: ChunkIndex): string[] {
    const out: string[] = [];
    for (const path of index.paths()) {
      const meta = index.fileMeta(path);
      const have = this.files.get(path);
      if (
        !have ||
        !meta ||
        have.size !== meta.size ||
        have.mtimeMs !== meta.mtimeMs ||
        have.rows.length !== index.chunksOf(path).length
      )
        out.push(path);
    }
    return out;
  }

  /** True when every chunk of the index has its vectors. */
  covers(index: ChunkIndex): boolean {
    if (this.files.size !== index.paths().length) return false;
    return this.stale(index).length === 0;
  }

  async sync(
    index: ChunkIndex,
    readLines: (path: string) => Promise<readonly string[] | null>,
    model: EmbeddingModel,
    options: { signal?: AbortSignal; onProgress?: (p: EmbedProgress) => void; yielder?: Yielder } = {},
  ): Promise<SyncStats> {
    if (model.id !== this.modelId || model.dims !== this.dims)
      throw new QuarryError(
        'EngineError',
        `The semantic index is for model ${this.modelId}, not ${model.id}`,
      );
    const yielder = options.yielder ?? createYielder();
    const live = new Set(index.paths());
    const removed = [...this.files.keys()].filter((p) => !live.has(p));
    const stale = this.stale(index);
    // views of the changed files (the files are read once; only their view texts are kept)
    const views = new Map<string, string[]>();
    const missing = new Set<string>();
    for (const path of stale) {
      if (options.signal?.aborted) throw cancelled();
      const lines = (await readLines(path)) ?? [];
      const texts: string[] = [];
      for (const c of index.chunksOf(path)) {
        const v = chunkView(c, lines);
        texts.push(v);
        if (this.table.rowFor(v) === undefined) missing.add(v);
      }
      views.set(path, texts);
      await yielder.maybeYield();
    }
    // shortest first: a batch of similar lengths wastes no padding
    const todo = [...missing].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    options.onProgress?.({ phase: 'embedding', loaded: 0, total: todo.length });
    for (let i = 0; i < todo.length; i += EMBED_BATCH) {
      if (options.signal?.aborted) throw cancelled();
      const batch = todo.slice(i, i + EMBED_BATCH);
      const vecs = await model.embed(batch);
      if (vecs.length !== batch.length * this.dims)
        throw new QuarryError(
          'EngineError',
          `The embedding model returned ${vecs.length} numbers for ${batch.length} texts`,
        );
      batch.forEach((t, k) => this.table.add(t, vecs.subarray(k * this.dims, (k + 1) * this.dims)));
      this.changed = true;
      options.onProgress?.({
        phase: 'embedding',
        loaded: Math.min(i + EMBED_BATCH, todo.length),
        total: todo.length,
      });
      await yielder.maybeYield();
    }
    if (options.signal?.aborted) throw cancelled();
    // every vector exists: the files switch to their new views in one step
    if (removed.length || views.size) this.changed = true;
    for (const p of removed) this.files.delete(p);
    for (const [path, texts] of views) {
      const meta = index.fileMeta(path)!;
      this.files.set(path, {
        size: meta.size,
        mtimeMs: meta.mtimeMs,
        rows: Int32Array.from(texts, (t) => this.table.rowFor(t)!),
      });
    }
    let chunks = 0;
    for (const f of this.files.values()) chunks += f.rows.length;
    return {
      filesChanged: stale.length,
      filesRemoved: removed.length,
      embedded: todo.length,
      chunks,
      vectors: this.table.rows,
    };
  }

  /** The `limit` chunks most similar to the unit query vector, best first (ties by path, line). */
  search(
    index: ChunkIndex,
    query: Float32Array,
    limit: number,
    filter?: (c: IndexedChunk) => boolean,
  ): SemanticHit[] {
    if (limit <= 0 || !this.table.rows) return [];
    const scores = this.table.scoreAll(query);
    const hits: SemanticHit[] = [];
    let floor = -Infinity;
    for (const [path, f] of this.files) {
      // the file's chunks are looked up only when one of its rows could enter the top
      let chunks: IndexedChunk[] | null = null;
      for (let i = 0; i < f.rows.length; i++) {
        const similarity = scores[f.rows[i]];
        if (similarity < floor) continue;
        chunks ??= index.chunksOf(path);
        if (chunks.length !== f.rows.length) break; // stale until the next sync
        if (filter && !filter(chunks[i])) continue;
        hits.push({ chunk: chunks[i], similarity });
        if (hits.length >= limit * 4) {
          hits.sort(bySimilarity);
          hits.length = limit;
          floor = hits[limit - 1].similarity;
        }
      }
    }
    return hits.sort(bySimilarity).slice(0, limit);
  }

  /** Drops vectors no chunk uses (views that changed or files that went). */
  compact(): void {
    const used = new Set<number>();
    for (const f of this.files.values()) for (const r of f.rows) used.add(r);
    if (used.size === this.table.rows) return;
    const map = this.table.compact(used);
    for (const f of this.files.values()) f.rows = f.rows.map((r) => map[r]);
  }

  encode(): Uint8Array {
    this.compact();
    const t = this.table.toState();
    const files = [...this.files];
    const rows = new Int32Array(files.reduce((a, [, f]) => a + f.rows.length, 0));
    let at = 0;
    for (const [, f] of files) {
      rows.set(f.rows, at);
      at += f.rows.length;
    }
    const textParts = jsonParts(t.texts);
    const fileParts = jsonParts(files.map(([p, f]) => [p, f.size, f.mtimeMs, f.rows.length]));
    const json: StoredVectors = {
      modelId: this.modelId,
      dims: this.dims,
      views: VIEWS_VERSION,
      parts: [textParts.length, fileParts.length],
    };
    // sections are 32-bit words: the int8 rows padded to a multiple of 4 bytes
    const padded = new Uint8Array(Math.ceil(t.data.byteLength / 4) * 4);
    padded.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    const data = new Uint32Array(padded.buffer);
    return encodeIndex({
      json,
      sections: [
        data,
        new Uint32Array(t.scales.buffer),
        new Uint32Array(rows.buffer),
        ...textParts,
        ...fileParts,
      ],
    });
  }

  /** A stored index of this model and views version, or null (another model or views, or unreadable bytes: re-embed). */
  static decode(bytes: Uint8Array, modelId: string, dims: number): SemanticIndex | null {
    try {
      const { json, sections } = decodeIndex(bytes);
      const j = json as StoredVectors;
      if (
        !j ||
        j.modelId !== modelId ||
        j.dims !== dims ||
        j.views !== VIEWS_VERSION ||
        !Array.isArray(j.parts)
      )
        return null;
      const [data, scales, rows] = sections;
      const texts = fromJsonParts<string>(sections.slice(3, 3 + j.parts[0]));
      const files = fromJsonParts<[string, number, number, number]>(
        sections.slice(3 + j.parts[0], 3 + j.parts[0] + j.parts[1]),
      );
      const s = new SemanticIndex(modelId, dims);
      s.table = VectorTable.fromState(dims, {
        texts,
        data: new Int8Array(data.buffer, data.byteOffset, Math.min(data.byteLength, texts.length * dims)),
        scales: new Float32Array(scales.buffer, scales.byteOffset, scales.length),
      });
      const allRows = new Int32Array(rows.buffer, rows.byteOffset, rows.length);
      let at = 0;
      for (const [path, size, mtimeMs, n] of files) {
        const r = allRows.slice(at, at + n);
        at += n;
        if (r.some((x) => x < 0 || x >= texts.length)) return null;
        s.files.set(path, { size, mtimeMs, rows: r });
      }
      return at === allRows.length ? s : null;
    } catch {
      return null;
    }
  }

  /** Saves when something changed since the last save or load (a cancelled sync's vectors included). */
  async save(store: IndexStore, key: string): Promise<void> {
    if (!this.changed) return;
    await store.save(key, this.encode());
    this.changed = false;
  }

  static async load(
    store: IndexStore,
    key: string,
    modelId: string,
    dims: number,
  ): Promise<SemanticIndex | null> {
    const bytes = await store.load(key).catch(() => null);
    return bytes ? SemanticIndex.decode(bytes, modelId, dims) : null;
  }
}

function bySimilarity(a: SemanticHit, b: SemanticHit): number {
  return (
    b.similarity - a.similarity ||
    (a.chunk.path < b.chunk.path
      ? -1
      : a.chunk.path > b.chunk.path
        ? 1
        : a.chunk.startLine - b.chunk.startLine)
  );
}

interface StoredVectors {
  modelId: string;
  dims: number;
  views: number;
  /** sections after data, scales, rows: how many the texts and the file table take */
  parts: [number, number];
}

/**
 * The semantic index of one root: for every chunk of the code index (every file it ranks,
 * any language), the row of its view (views.ts) in a VectorTable, kept per file with
 * the (size, mtime) it was built from. sync() brings it level with the code index: files
 * whose chunks changed get new views, and only view texts never embedded before are sent to
 * the model, the open file's chunks and those of the folders around it first (`near`), then
 * definitions first and shortest first, in batches (one sent ahead of the one being filed,
 * cancellable between batches, or stopped at a deadline; each chunk is searchable once its batch is done,
 * and vectors already made are kept, so a stopped sync resumes where it stopped). search()
 * is exact: every embedded row's cosine with the query.
 */
import type { ChunkIndex, IndexedChunk } from '../rank/bm25';
import { QuarryError } from '../errors';
import { createYielder, now, type Yielder } from '../jobs/yielder';
import { DEFINITION_TYPES } from '../nav/symbol-table';
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
  /** false when a deadline stopped the embedding before every view had its vector */
  complete: boolean;
}

export interface SyncOptions {
  signal?: AbortSignal;
  onProgress?: (p: EmbedProgress) => void;
  yielder?: Yielder;
  /** a now() time: no batch is sent once it passed (at least one is), and those sent are filed */
  deadline?: number;
  /**
   * The open file (a path of the index): its chunks are embedded first, then its folder's, then
   * each folder above's (nearness), then the rest; definitions first within each.
   */
  near?: string;
}

/**
 * How near `path` is to the open file `near`, for the embedding order: 0 the file itself, 1 a file
 * in its folder (or below it), 2 one in the folder above (or below that), and so on; the root's
 * other files come last (the open file's folder depth + 1). Everything is 0 when nothing is open.
 */
export function nearness(path: string, near: string | undefined): number {
  if (!near || path === near) return 0;
  const open = near.split('/').slice(0, -1);
  const here = path.split('/').slice(0, -1);
  let common = 0;
  while (common < open.length && common < here.length && open[common] === here[common]) common++;
  return 1 + open.length - common;
}

/** A view text still to embed: its nearest chunk's nearness, whether a definition has it, the rows waiting for it. */
interface Waiting {
  near: number;
  definition: boolean;
  at: Array<[Int32Array, number]>;
}

/**
 * Nearest the open file first (what the question is likely about when a file is open), then
 * definitions first, then shortest first (a batch of similar lengths wastes no padding), then by text.
 */
function embedOrder(waiting: ReadonlyMap<string, Waiting>): string[] {
  return [...waiting]
    .sort(
      ([a, wa], [b, wb]) =>
        wa.near - wb.near ||
        Number(wb.definition) - Number(wa.definition) ||
        a.length - b.length ||
        (a < b ? -1 : a > b ? 1 : 0),
    )
    .map(([t]) => t);
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
        have.rows.length !== index.chunksOf(path).length ||
        have.rows.includes(-1)
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

  /** How many of the index's chunks have their vectors (searched) of how many it has. */
  coverage(index: ChunkIndex): { searched: number; of: number } {
    let searched = 0;
    let of = 0;
    for (const path of index.paths()) {
      const n = index.chunksOf(path).length;
      of += n;
      const f = this.files.get(path);
      if (f && f.rows.length === n) for (const r of f.rows) if (r >= 0) searched++;
    }
    return { searched, of };
  }

  /**
   * Brings the vectors level with the code index. Each changed file switches to its new views at
   * once (a chunk whose view is not embedded yet has no row: search skips it, and the file stays
   * stale), then the missing views are embedded: the open file's and its folders' first (`near`),
   * definitions first within each (what a question is usually about), shortest first within each
   * kind, each chunk searchable as soon as its batch is done. With a `deadline` (a now() time), no
   * batch is sent once it passed and those sent are filed: `complete` false.
   */
  async sync(
    index: ChunkIndex,
    readLines: (path: string) => Promise<readonly string[] | null>,
    model: EmbeddingModel,
    options: SyncOptions = {},
  ): Promise<SyncStats> {
    if (model.id !== this.modelId || model.dims !== this.dims)
      throw new QuarryError(
        'EngineError',
        `The semantic index is for model ${this.modelId}, not ${model.id}`,
      );
    const yielder = options.yielder ?? createYielder();
    const live = new Set(index.paths());
    const removed = [...this.files.keys()].filter((p) => !live.has(p));
    for (const p of removed) this.files.delete(p);
    if (removed.length) this.changed = true;
    const stale = this.stale(index);
    const waiting = new Map<string, Waiting>();
    for (const path of stale) {
      if (options.signal?.aborted) throw cancelled();
      const lines = (await readLines(path)) ?? [];
      this.switchViews(index, path, lines, waiting, nearness(path, options.near));
      await yielder.maybeYield();
    }
    const todo = embedOrder(waiting);
    const embedded = await this.embedAll(todo, waiting, model, yielder, options);
    let chunks = 0;
    for (const f of this.files.values()) chunks += f.rows.length;
    return {
      filesChanged: stale.length,
      filesRemoved: removed.length,
      embedded,
      chunks,
      vectors: this.table.rows,
      complete: embedded === todo.length,
    };
  }

  /** A changed file's chunks get their views' rows (-1 where a view still has to be embedded: put in `waiting`). */
  private switchViews(
    index: ChunkIndex,
    path: string,
    lines: readonly string[],
    waiting: Map<string, Waiting>,
    near: number,
  ): void {
    const chunks = index.chunksOf(path);
    const rows = new Int32Array(chunks.length);
    chunks.forEach((c, i) => {
      const v = chunkView(c, lines);
      const r = this.table.rowFor(v);
      rows[i] = r ?? -1;
      if (r !== undefined) return;
      let w = waiting.get(v);
      if (!w) waiting.set(v, (w = { near, definition: false, at: [] }));
      w.near = Math.min(w.near, near);
      w.definition ||= DEFINITION_TYPES.has(c.chunkType);
      w.at.push([rows, i]);
    });
    const meta = index.fileMeta(path);
    this.files.set(path, { size: meta?.size ?? -1, mtimeMs: meta?.mtimeMs ?? -1, rows });
    this.changed = true;
  }

  /**
   * Embeds `todo` in batches, each chunk's row set as its batch ends; returns how many were
   * embedded. One batch is sent ahead, so a pool of threads (embedder-pool.ts) never waits while
   * this thread files the vectors. No batch is sent once cancelled or past the deadline; the one
   * ahead is still filed (the model made it: a cancelled sync keeps it, stored, like the others).
   */
  private async embedAll(
    todo: readonly string[],
    waiting: ReadonlyMap<string, Waiting>,
    model: EmbeddingModel,
    yielder: Yielder,
    options: SyncOptions,
  ): Promise<number> {
    options.onProgress?.({ phase: 'embedding', loaded: 0, total: todo.length });
    let sent = 0;
    const more = () =>
      sent < todo.length &&
      !options.signal?.aborted &&
      !(options.deadline !== undefined && sent > 0 && now() >= options.deadline);
    const send = () => {
      const batch = todo.slice(sent, sent + EMBED_BATCH);
      sent += batch.length;
      const vecs = model.embed(batch);
      // awaited in turn; one left behind by an earlier batch's failure must not go unhandled
      vecs.catch(() => undefined);
      return { batch, vecs };
    };
    let done = 0;
    let next = more() ? send() : null;
    while (next) {
      const { batch, vecs: pending } = next;
      next = more() ? send() : null;
      const vecs = await pending;
      if (vecs.length !== batch.length * this.dims)
        throw new QuarryError(
          'EngineError',
          `The embedding model returned ${vecs.length} numbers for ${batch.length} texts`,
        );
      batch.forEach((t, k) => {
        const row = this.table.add(t, vecs.subarray(k * this.dims, (k + 1) * this.dims));
        for (const [rows, i] of waiting.get(t)!.at) rows[i] = row;
      });
      this.changed = true;
      done += batch.length;
      options.onProgress?.({ phase: 'embedding', loaded: done, total: todo.length });
      await yielder.maybeYield();
    }
    if (options.signal?.aborted) throw cancelled();
    return done;
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
        if (f.rows[i] < 0) continue; // not embedded yet
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
    for (const f of this.files.values()) for (const r of f.rows) if (r >= 0) used.add(r);
    if (used.size === this.table.rows) return;
    const map = this.table.compact(used);
    for (const f of this.files.values()) f.rows = f.rows.map((r) => (r < 0 ? -1 : map[r]));
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
        if (r.some((x) => x < -1 || x >= texts.length)) return null; // -1: not embedded yet
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

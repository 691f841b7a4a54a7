/**
 * The chunk index: an inverted index (term -> postings of chunk id and term frequency) over
 * symbol chunks, scored with BM25 exactly as seed 004 gives it:
 *   k1 = 1.2, b = 0.75, idf = ln((N - df + 0.5) / (df + 0.5) + 1),
 *   N and df over the full index (filters never recompute them), dl = tokens in the chunk,
 *   avgdl = mean tokens per chunk. Query terms are the unique tokens of the query.
 * Removal leaves a tombstone (ids are never reused) and takes the ids out of the postings of
 * the file's own terms, so df/N/avgdl stay exact and an incrementally refreshed index scores
 * exactly like a rebuilt one.
 */
import type { Chunk } from '../chunk/types';
import { isCompound, splitIdentifier, tokenize, tokenizeRaw } from './tokenize';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const SNIPPET_CHARS = 360;

export interface IndexedChunk extends Chunk {
  /** Tokens in the chunk text, with repeats (BM25's document length). */
  tokenCount: number;
  /** Distinct tokens (find_related's set size). */
  uniqueCount: number;
  /** First SNIPPET_CHARS characters of the chunk text. */
  snippet: string;
}

export interface FileMeta {
  size: number;
  mtimeMs: number;
}

interface FileEntry extends FileMeta {
  chunkIds: number[];
  /** Distinct term ids of the file's chunks, so removal touches only their postings. */
  terms: Uint32Array;
}

/** Postings pack (chunk id, tf) into one number: id * TF_SPAN + min(tf, TF_SPAN - 1). */
const TF_SPAN = 65536;

export interface ScoreComponent {
  term: string;
  termFrequency: number;
  documentFrequency: number;
  idf: number;
  bm25: number;
}

export interface RankedHit {
  chunk: IndexedChunk;
  score: number;
  matchedTerms: string[];
  scoreComponents: ScoreComponent[];
}

export type ChunkFilter = (chunk: IndexedChunk) => boolean;

export function idf(N: number, df: number): number {
  return Math.log((N - df + 0.5) / (df + 0.5) + 1);
}

export function bm25Term(tf: number, idfValue: number, dl: number, avgdl: number, k1 = BM25_K1, b = BM25_B): number {
  return (idfValue * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * dl) / avgdl));
}

/** Lines startLine..endLine (1-based, inclusive) of pre-split file lines, joined by '\n'. */
export function chunkText(lines: string[], startLine: number, endLine: number): string {
  return lines.slice(startLine - 1, endLine).join('\n');
}

function compareHits(a: { score: number; chunk: Chunk }, b: { score: number; chunk: Chunk }): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.chunk.path !== b.chunk.path) return a.chunk.path < b.chunk.path ? -1 : 1;
  return a.chunk.startLine - b.chunk.startLine;
}

/**
 * Postings per term id: a compact base (CSR: one Uint32 id array and one Uint16 tf array,
 * term by term, ids ascending) built by compact(), plus a tail of packed numbers
 * (id * TF_SPAN + tf) for chunks added since. A removed file's chunks die in place: the
 * base keeps their entries (skipped via `alive`) and counts them in `dead`, so df stays exact.
 */
class PostingStore {
  start: Uint32Array = new Uint32Array(1);
  ids: Uint32Array = new Uint32Array(0);
  tfs: Uint16Array = new Uint16Array(0);
  dead: Int32Array = new Int32Array(0);
  baseTerms = 0;
  tail: number[][] = [];

  addTerm(): void {
    this.tail.push([]);
  }

  df(t: number): number {
    const base = t < this.baseTerms ? this.start[t + 1] - this.start[t] - this.dead[t] : 0;
    return base + this.tail[t].length;
  }

  forEach(t: number, alive: Array<unknown>, fn: (id: number, tf: number) => void): void {
    if (t < this.baseTerms) {
      const ids = this.ids;
      const tfs = this.tfs;
      for (let i = this.start[t], end = this.start[t + 1]; i < end; i++) {
        const id = ids[i];
        if (alive[id] !== null) fn(id, tfs[i]);
      }
    }
    const p = this.tail[t];
    for (let i = 0; i < p.length; i++) {
      const id = Math.floor(p[i] / TF_SPAN);
      fn(id, p[i] - id * TF_SPAN);
    }
  }

  tf(t: number, id: number): number {
    if (t < this.baseTerms) {
      let lo = this.start[t];
      let hi = this.start[t + 1] - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = this.ids[mid];
        if (v === id) return this.tfs[mid];
        if (v < id) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    const p = this.tail[t];
    let lo = 0;
    let hi = p.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = Math.floor(p[mid] / TF_SPAN);
      if (v === id) return p[mid] - v * TF_SPAN;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  add(t: number, id: number, tf: number): void {
    this.tail[t].push(id * TF_SPAN + Math.min(tf, TF_SPAN - 1));
  }

  /** Chunk ids lo..hi (one file's, consecutive) leave term t. */
  removeRange(t: number, lo: number, hi: number): void {
    if (t < this.baseTerms) {
      const a = lowerBound(this.ids, this.start[t], this.start[t + 1], lo);
      const b = lowerBound(this.ids, this.start[t], this.start[t + 1], hi + 1);
      this.dead[t] += b - a;
    }
    const p = this.tail[t];
    let w = 0;
    for (let i = 0; i < p.length; i++) {
      const id = Math.floor(p[i] / TF_SPAN);
      if (id >= lo && id <= hi) continue;
      p[w++] = p[i];
    }
    p.length = w;
  }

  /** Fold the tail and drop dead entries into a new base. */
  compact(alive: Array<unknown>): void {
    const terms = this.tail.length;
    let n = 0;
    for (let t = 0; t < terms; t++) n += this.df(t);
    const start = new Uint32Array(terms + 1);
    const ids = new Uint32Array(n);
    const tfs = new Uint16Array(n);
    let k = 0;
    for (let t = 0; t < terms; t++) {
      start[t] = k;
      this.forEach(t, alive, (id, tf) => {
        ids[k] = id;
        tfs[k] = tf;
        k++;
      });
    }
    start[terms] = k;
    this.start = start;
    this.ids = ids;
    this.tfs = tfs;
    this.dead = new Int32Array(terms);
    this.baseTerms = terms;
    this.tail = Array.from({ length: terms }, () => []);
  }
}

function lowerBound(a: Uint32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class ChunkIndex {
  private chunks: Array<IndexedChunk | null> = [];
  private termIds = new Map<string, number>();
  private terms: string[] = [];
  private post = new PostingStore();
  private files = new Map<string, FileEntry>();
  private live = 0;
  private totalTokens = 0;
  /** scratch accumulators, grown with the chunk count */
  private scoreScratch = new Float64Array(0);
  private countScratch = new Uint32Array(0);
  private interScratch = new Uint32Array(0);

  get chunkCount(): number {
    return this.live;
  }
  fileMeta(path: string): FileMeta | undefined {
    const f = this.files.get(path);
    return f && { size: f.size, mtimeMs: f.mtimeMs };
  }
  paths(): string[] {
    return [...this.files.keys()];
  }
  chunksOf(path: string): IndexedChunk[] {
    return (this.files.get(path)?.chunkIds ?? []).map((id) => this.chunks[id]!).filter(Boolean);
  }
  avgdl(): number {
    return this.live ? this.totalTokens / this.live : 0;
  }

  /** compound term id -> its identifier parts (from the first cased spelling seen) */
  private parts = new Map<number, string[]>();
  /** part -> compound term ids containing it; rebuilt lazily */
  private partTermsCache: Map<string, number[]> | null = null;
  private partsSeen: Uint8Array = new Uint8Array(1024);

  private notePartsOf(t: number, raw: string): void {
    if (t >= this.partsSeen.length) {
      const grown = new Uint8Array(Math.max(t + 1, this.partsSeen.length * 2));
      grown.set(this.partsSeen);
      this.partsSeen = grown;
    }
    this.partsSeen[t] = 1;
    if (!isCompound(raw)) return;
    const parts = splitIdentifier(raw);
    if (parts.length > 1) {
      this.parts.set(t, parts);
      this.partTermsCache = null;
    }
  }

  /** Term ids whose identifier parts include `part` (for the people analyzer). */
  termsWithPart(part: string): number[] {
    if (!this.partTermsCache) {
      const m = new Map<string, number[]>();
      for (const [t, ps] of this.parts) {
        for (const p of new Set(ps)) {
          let l = m.get(p);
          if (!l) m.set(p, (l = []));
          l.push(t);
        }
      }
      this.partTermsCache = m;
    }
    return this.partTermsCache.get(part) ?? [];
  }

  termIdOf(term: string): number | undefined {
    return this.termIds.get(term);
  }
  termString(t: number): string {
    return this.terms[t];
  }
  /** Calls fn(chunkId, tf) for every posting of a term id. */
  forEachPosting(t: number, fn: (id: number, tf: number) => void): void {
    this.post.forEach(t, this.chunks, fn);
  }
  chunkById(id: number): IndexedChunk | null {
    return this.chunks[id] ?? null;
  }

  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.terms.length;
      this.termIds.set(term, t);
      this.terms.push(term);
      this.post.addTerm();
    }
    return t;
  }

  /** Replace a file's chunks (lines are the file's lines without terminators). */
  setFile(path: string, meta: FileMeta, chunks: Chunk[], lines: string[]): void {
    this.removeFile(path);
    const ids: number[] = [];
    const fileTerms = new Set<number>();
    const tf = new Map<number, number>();
    for (const c of chunks) {
      const text = chunkText(lines, c.startLine, c.endLine);
      const tokens = tokenizeRaw(text);
      tf.clear();
      for (const raw of tokens) {
        const t = this.termId(raw.toLowerCase());
        tf.set(t, (tf.get(t) ?? 0) + 1);
        if (!this.partsSeen[t]) this.notePartsOf(t, raw);
      }
      const id = this.chunks.length;
      this.chunks.push({
        path,
        startLine: c.startLine,
        endLine: c.endLine,
        symbolName: c.symbolName,
        chunkType: c.chunkType,
        tokenCount: tokens.length,
        uniqueCount: tf.size,
        snippet: text.slice(0, SNIPPET_CHARS),
      });
      for (const [t, n] of tf) {
        fileTerms.add(t);
        this.post.add(t, id, n);
      }
      this.live++;
      this.totalTokens += tokens.length;
      ids.push(id);
    }
    this.files.set(path, { ...meta, chunkIds: ids, terms: Uint32Array.from(fileTerms) });
  }

  /** Forget a file: its chunks become tombstones and leave the postings of the file's own terms. */
  removeFile(path: string): void {
    const entry = this.files.get(path);
    if (!entry) return;
    const lo = entry.chunkIds.length ? entry.chunkIds[0] : 0;
    const hi = entry.chunkIds.length ? entry.chunkIds[entry.chunkIds.length - 1] : -1;
    for (const id of entry.chunkIds) {
      const c = this.chunks[id];
      if (!c) continue;
      this.live--;
      this.totalTokens -= c.tokenCount;
      this.chunks[id] = null;
    }
    // a file's chunk ids are consecutive: the range [lo, hi] leaves the postings of its terms
    for (const t of entry.terms) this.post.removeRange(t, lo, hi);
    this.files.delete(path);
  }

  private ensureScratch(): void {
    const n = this.chunks.length;
    if (this.scoreScratch.length < n) {
      const cap = Math.max(n, this.scoreScratch.length * 2, 1024);
      this.scoreScratch = new Float64Array(cap);
      this.countScratch = new Uint32Array(cap);
      this.interScratch = new Uint32Array(cap);
    }
  }

  /** tf of a term in one chunk (binary search: postings are ascending by id). */
  private tfIn(t: number, id: number): number {
    return this.post.tf(t, id);
  }

  /** Fold recent additions and removals into the compact postings (after a build, before saving). */
  compact(): void {
    this.post.compact(this.chunks);
  }

  /** BM25 over the whole index; `filter` runs before `limit`; N and df stay the full index's. */
  search(query: string, limit: number, filter?: ChunkFilter): RankedHit[] {
    const termList: Array<{ term: string; t: number; df: number; idf: number }> = [];
    const N = this.live;
    for (const term of new Set(tokenize(query))) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const df = this.post.df(t);
      if (!df) continue;
      termList.push({ term, t, df, idf: idf(N, df) });
    }
    if (!termList.length || !N) return [];
    this.ensureScratch();
    const scores = this.scoreScratch;
    const avgdl = this.avgdl();
    const touched: number[] = [];
    const k1 = BM25_K1;
    const chunks = this.chunks;
    for (const { t, idf: w } of termList) {
      this.post.forEach(t, chunks, (id, tf) => {
        const dl = chunks[id]!.tokenCount;
        // same arithmetic as bm25Term(): idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * dl / avgdl))
        const s = (w * (tf * (k1 + 1))) / (tf + k1 * (1 - BM25_B + (BM25_B * dl) / avgdl));
        if (scores[id] === 0) touched.push(id);
        scores[id] += s;
      });
    }
    const hits: Array<{ id: number; score: number }> = [];
    for (const id of touched) {
      const score = scores[id];
      scores[id] = 0;
      const chunk = this.chunks[id]!;
      if (filter && !filter(chunk)) continue;
      hits.push({ id, score });
    }
    hits.sort((a, b) => compareHits({ score: a.score, chunk: this.chunks[a.id]! }, { score: b.score, chunk: this.chunks[b.id]! }));
    return hits.slice(0, limit).map(({ id, score }) => {
      const chunk = this.chunks[id]!;
      const scoreComponents: ScoreComponent[] = [];
      for (const { term, t, df, idf: w } of termList) {
        const tf = this.tfIn(t, id);
        if (!tf) continue;
        scoreComponents.push({ term, termFrequency: tf, documentFrequency: df, idf: w, bm25: bm25Term(tf, w, chunk.tokenCount, avgdl) });
      }
      return { chunk, score, matchedTerms: scoreComponents.map((c) => c.term), scoreComponents };
    });
  }

  /** Innermost chunk of `path` whose range contains `line`. */
  chunkAt(path: string, line: number): IndexedChunk | null {
    let best: IndexedChunk | null = null;
    for (const c of this.chunksOf(path)) {
      if (c.startLine <= line && line <= c.endLine) {
        if (!best || c.endLine - c.startLine < best.endLine - best.startLine) best = c;
      }
    }
    return best;
  }

  /**
   * Seed 004's related score, from the postings (never a pass over every chunk):
   * score = (candidate tokens, counted with repeats, that are in the seed's token set)
   *         / |seed unique tokens ∪ candidate unique tokens|.
   * The seed chunk and chunks that contain it or that it contains are left out (they share
   * text by construction). Sorted by score descending, then path ascending.
   */
  related(seed: IndexedChunk, seedText: string, limit: number): Array<{ chunk: IndexedChunk; score: number; sharedTerms: string[] }> {
    const seedTerms = [...new Set(tokenize(seedText))];
    this.ensureScratch();
    const shared = this.countScratch;
    const inter = this.interScratch;
    const touched: number[] = [];
    const termIdsUsed: number[] = [];
    for (const term of seedTerms) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      termIdsUsed.push(t);
      this.post.forEach(t, this.chunks, (id, tf) => {
        if (inter[id] === 0) touched.push(id);
        shared[id] += tf;
        inter[id]++;
      });
    }
    const out: Array<{ id: number; chunk: IndexedChunk; score: number }> = [];
    for (const id of touched) {
      const c = this.chunks[id]!;
      const a = shared[id];
      const n = inter[id];
      shared[id] = 0;
      inter[id] = 0;
      if (c.path === seed.path && ((c.startLine <= seed.startLine && c.endLine >= seed.endLine) || (c.startLine >= seed.startLine && c.endLine <= seed.endLine))) continue;
      out.push({ id, chunk: c, score: a / (seedTerms.length + c.uniqueCount - n) });
    }
    out.sort(compareHits);
    return out.slice(0, limit).map(({ id, chunk, score }) => ({
      chunk,
      score,
      sharedTerms: termIdsUsed.filter((t) => this.tfIn(t, id) > 0).map((t) => this.terms[t]).sort(),
    }));
  }

  /** Plain data for persistence (see persist.ts); tombstones are dropped and ids renumbered. */
  toState(): ChunkIndexState {
    const remap = new Int32Array(this.chunks.length).fill(-1);
    const chunks: ChunkIndexState['chunks'] = [];
    this.chunks.forEach((c, id) => {
      if (!c) return;
      remap[id] = chunks.length;
      chunks.push([c.path, c.startLine, c.endLine, c.symbolName, c.chunkType, c.tokenCount, c.uniqueCount, c.snippet]);
    });
    // only live terms are stored; term ids are renumbered densely
    const termRemap = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = [];
    let n = 0;
    for (let t = 0; t < this.terms.length; t++) {
      const df = this.post.df(t);
      if (!df) continue;
      termRemap[t] = terms.length;
      terms.push(this.terms[t]);
      n += df;
    }
    const files: ChunkIndexState['files'] = [...this.files].map(([path, f]) => [
      path,
      f.size,
      f.mtimeMs,
      f.chunkIds.map((id) => remap[id]),
      Array.from(f.terms, (t) => termRemap[t]).filter((t) => t >= 0),
    ]);
    const lengths = new Uint32Array(terms.length);
    const ids = new Uint32Array(n);
    const tfs = new Uint32Array(n);
    let k = 0;
    for (let t = 0; t < this.terms.length; t++) {
      if (termRemap[t] < 0) continue;
      lengths[termRemap[t]] = this.post.df(t);
      this.post.forEach(t, this.chunks, (id, tf) => {
        ids[k] = remap[id];
        tfs[k] = tf;
        k++;
      });
    }
    const compounds: Array<[number, string[]]> = [];
    for (const [t, ps] of this.parts) if (termRemap[t] >= 0) compounds.push([termRemap[t], ps]);
    return { chunks, files, terms, totalTokens: this.totalTokens, lengths, ids, tfs, compounds };
  }

  static fromState(state: ChunkIndexState): ChunkIndex {
    const index = new ChunkIndex();
    index.chunks = state.chunks.map(([path, startLine, endLine, symbolName, chunkType, tokenCount, uniqueCount, snippet]) => ({
      path,
      startLine,
      endLine,
      symbolName,
      chunkType: chunkType as Chunk['chunkType'],
      tokenCount,
      uniqueCount,
      snippet,
    }));
    index.live = index.chunks.length;
    index.totalTokens = state.totalTokens;
    index.terms = [...state.terms];
    // only the loaded terms are "seen": ids added later (an incremental refresh) still get their parts noted
    index.partsSeen = new Uint8Array(Math.max(1024, state.terms.length)).fill(1, 0, state.terms.length);
    for (const [t, ps] of state.compounds ?? []) index.parts.set(t, ps);
    state.terms.forEach((term, t) => index.termIds.set(term, t));
    for (const [path, size, mtimeMs, chunkIds, terms] of state.files) index.files.set(path, { size, mtimeMs, chunkIds, terms: Uint32Array.from(terms) });
    const post = index.post;
    const termCount = state.terms.length;
    post.start = new Uint32Array(termCount + 1);
    let k = 0;
    for (let t = 0; t < termCount; t++) {
      post.start[t] = k;
      k += state.lengths[t];
    }
    post.start[termCount] = k;
    post.ids = Uint32Array.from(state.ids);
    post.tfs = Uint16Array.from(state.tfs);
    post.dead = new Int32Array(termCount);
    post.baseTerms = termCount;
    post.tail = Array.from({ length: termCount }, () => []);
    return index;
  }
}

export interface ChunkIndexState {
  chunks: Array<[path: string, startLine: number, endLine: number, symbolName: string, chunkType: string, tokenCount: number, uniqueCount: number, snippet: string]>;
  files: Array<[path: string, size: number, mtimeMs: number, chunkIds: number[], termIds: number[]]>;
  terms: string[];
  totalTokens: number;
  /** compound terms' identifier parts (the people analyzer) */
  compounds?: Array<[termId: number, parts: string[]]>;
  /** postings, term by term: lengths[t] entries of ids/tfs */
  lengths: Uint32Array;
  ids: Uint32Array;
  tfs: Uint32Array;
}

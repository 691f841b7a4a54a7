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
import { tokenize } from './tokenize';

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
  /** Distinct terms of the file's chunks, so removal touches only their postings. */
  terms: string[];
}

interface Posting {
  ids: number[];
  tfs: number[];
  /** live documents containing the term */
  df: number;
}

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

export class ChunkIndex {
  private chunks: Array<IndexedChunk | null> = [];
  private postings = new Map<string, Posting>();
  private files = new Map<string, FileEntry>();
  private live = 0;
  private totalTokens = 0;

  get chunkCount(): number {
    return this.live;
  }
  get fileCount(): number {
    return this.files.size;
  }
  get termCount(): number {
    return this.postings.size;
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

  /** Replace a file's chunks (lines are the file's lines without terminators). */
  setFile(path: string, meta: FileMeta, chunks: Chunk[], lines: string[]): void {
    this.removeFile(path);
    const ids: number[] = [];
    const fileTerms = new Set<string>();
    for (const c of chunks) {
      const text = chunkText(lines, c.startLine, c.endLine);
      const tokens = tokenize(text);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
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
      for (const [term, n] of tf) {
        fileTerms.add(term);
        let p = this.postings.get(term);
        if (!p) {
          p = { ids: [], tfs: [], df: 0 };
          this.postings.set(term, p);
        }
        p.ids.push(id);
        p.tfs.push(n);
        p.df++;
      }
      this.live++;
      this.totalTokens += tokens.length;
      ids.push(id);
    }
    this.files.set(path, { ...meta, chunkIds: ids, terms: [...fileTerms] });
  }

  /** Forget a file: its chunks become tombstones and its ids leave the postings of its own terms. */
  removeFile(path: string): void {
    const entry = this.files.get(path);
    if (!entry) return;
    const dead = new Set(entry.chunkIds);
    for (const id of entry.chunkIds) {
      const c = this.chunks[id];
      if (!c) continue;
      this.live--;
      this.totalTokens -= c.tokenCount;
      this.chunks[id] = null;
    }
    for (const term of entry.terms) {
      const p = this.postings.get(term);
      if (!p) continue;
      let w = 0;
      for (let i = 0; i < p.ids.length; i++) {
        if (dead.has(p.ids[i])) continue;
        p.ids[w] = p.ids[i];
        p.tfs[w] = p.tfs[i];
        w++;
      }
      p.df -= p.ids.length - w;
      p.ids.length = w;
      p.tfs.length = w;
      if (p.df === 0) this.postings.delete(term);
    }
    this.files.delete(path);
  }

  /** BM25 over the whole index; `filter` runs before `limit`; N and df stay the full index's. */
  search(query: string, limit: number, filter?: ChunkFilter): RankedHit[] {
    const terms = [...new Set(tokenize(query))];
    if (!terms.length || !this.live) return [];
    const N = this.live;
    const avgdl = this.avgdl();
    const acc = new Map<number, { score: number; comps: ScoreComponent[] }>();
    for (const term of terms) {
      const p = this.postings.get(term);
      if (!p || p.df === 0) continue;
      const termIdf = idf(N, p.df);
      for (let i = 0; i < p.ids.length; i++) {
        const id = p.ids[i];
        const chunk = this.chunks[id];
        if (!chunk) continue;
        const tf = p.tfs[i];
        const s = bm25Term(tf, termIdf, chunk.tokenCount, avgdl);
        let a = acc.get(id);
        if (!a) {
          a = { score: 0, comps: [] };
          acc.set(id, a);
        }
        a.score += s;
        a.comps.push({ term, termFrequency: tf, documentFrequency: p.df, idf: termIdf, bm25: s });
      }
    }
    const hits: RankedHit[] = [];
    for (const [id, a] of acc) {
      const chunk = this.chunks[id]!;
      if (filter && !filter(chunk)) continue;
      hits.push({ chunk, score: a.score, matchedTerms: a.comps.map((c) => c.term), scoreComponents: a.comps });
    }
    hits.sort(compareHits);
    return hits.slice(0, limit);
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
    const acc = new Map<number, { shared: number; inter: number; terms: string[] }>();
    for (const term of seedTerms) {
      const p = this.postings.get(term);
      if (!p) continue;
      for (let i = 0; i < p.ids.length; i++) {
        const id = p.ids[i];
        if (!this.chunks[id]) continue;
        let a = acc.get(id);
        if (!a) {
          a = { shared: 0, inter: 0, terms: [] };
          acc.set(id, a);
        }
        a.shared += p.tfs[i];
        a.inter++;
        a.terms.push(term);
      }
    }
    const out: Array<{ chunk: IndexedChunk; score: number; sharedTerms: string[] }> = [];
    for (const [id, a] of acc) {
      const c = this.chunks[id]!;
      if (c.path === seed.path && ((c.startLine <= seed.startLine && c.endLine >= seed.endLine) || (c.startLine >= seed.startLine && c.endLine <= seed.endLine))) continue;
      const union = seedTerms.length + c.uniqueCount - a.inter;
      out.push({ chunk: c, score: a.shared / union, sharedTerms: a.terms.sort() });
    }
    out.sort(compareHits);
    return out.slice(0, limit);
  }

  /** Plain data for persistence (see persist.ts); tombstones are dropped and ids renumbered. */
  toState(): ChunkIndexState {
    const remap = new Map<number, number>();
    const chunks: ChunkIndexState['chunks'] = [];
    this.chunks.forEach((c, id) => {
      if (!c) return;
      remap.set(id, chunks.length);
      chunks.push([c.path, c.startLine, c.endLine, c.symbolName, c.chunkType, c.tokenCount, c.uniqueCount, c.snippet]);
    });
    const files: ChunkIndexState['files'] = [...this.files].map(([path, f]) => [path, f.size, f.mtimeMs, f.chunkIds.map((id) => remap.get(id)!), f.terms]);
    const terms: string[] = [];
    let n = 0;
    for (const p of this.postings.values()) n += p.ids.length;
    const lengths = new Uint32Array(this.postings.size);
    const ids = new Uint32Array(n);
    const tfs = new Uint32Array(n);
    let k = 0;
    let t = 0;
    for (const [term, p] of this.postings) {
      terms.push(term);
      lengths[t++] = p.ids.length;
      for (let i = 0; i < p.ids.length; i++, k++) {
        ids[k] = remap.get(p.ids[i])!;
        tfs[k] = p.tfs[i];
      }
    }
    return { chunks, files, terms, totalTokens: this.totalTokens, lengths, ids, tfs };
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
    for (const [path, size, mtimeMs, chunkIds, terms] of state.files) index.files.set(path, { size, mtimeMs, chunkIds, terms });
    let k = 0;
    state.terms.forEach((term, t) => {
      const len = state.lengths[t];
      const ids: number[] = new Array(len);
      const tfs: number[] = new Array(len);
      for (let i = 0; i < len; i++, k++) {
        ids[i] = state.ids[k];
        tfs[i] = state.tfs[k];
      }
      index.postings.set(term, { ids, tfs, df: len });
    });
    return index;
  }
}

export interface ChunkIndexState {
  chunks: Array<[path: string, startLine: number, endLine: number, symbolName: string, chunkType: string, tokenCount: number, uniqueCount: number, snippet: string]>;
  files: Array<[path: string, size: number, mtimeMs: number, chunkIds: number[], terms: string[]]>;
  terms: string[];
  totalTokens: number;
  /** postings, term by term: lengths[t] entries of ids/tfs */
  lengths: Uint32Array;
  ids: Uint32Array;
  tfs: Uint32Array;
}

/**
 * BM25 as seed 004 gives it (k1 = 1.2, b = 0.75, Lucene idf), the hit types the index
 * answers with, and the top-k selection and hit order its searches share.
 */
import type { Chunk } from '../chunk/types';
import type { IndexedChunk } from './indexed-chunk';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

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

export function bm25Term(
  tf: number,
  idfValue: number,
  dl: number,
  avgdl: number,
  k1 = BM25_K1,
  b = BM25_B,
): number {
  return (idfValue * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * dl) / avgdl));
}

export interface Hit {
  id: number;
  score: number;
  order: number;
}

/**
 * The hits (touched[0..count), scores[id]; the scores are reset to 0) that pass `filter`,
 * first `limit` in the order of a stable sort by compareHits (ties keep touched order), with
 * no object per hit: a bounded sorted buffer that most hits leave after one comparison.
 */
export function topHits(
  touched: Uint32Array,
  count: number,
  scores: Float64Array,
  limit: number,
  chunks: Array<IndexedChunk | null>,
  filter?: ChunkFilter,
): Hit[] {
  const cmp = (a: Hit, b: Hit): number => {
    if (b.score !== a.score) return b.score - a.score;
    const ca = chunks[a.id]!;
    const cb = chunks[b.id]!;
    if (ca.path !== cb.path) return ca.path < cb.path ? -1 : 1;
    return ca.startLine - cb.startLine || a.order - b.order;
  };
  const top: Hit[] = [];
  for (let order = 0; order < count; order++) {
    const id = touched[order];
    const score = scores[id];
    scores[id] = 0;
    if (limit <= 0) continue;
    if (top.length === limit && score < top[limit - 1].score) continue;
    if (filter && !filter(chunks[id]!)) continue;
    insertBounded(top, { id, score, order }, limit, cmp);
  }
  return top;
}

/**
 * Put `hit` in its place in `top` (kept sorted by `cmp`, at most `limit` long, limit >= 1): a
 * hit that sorts after a full buffer's last one is dropped, otherwise the last one leaves.
 */
export function insertBounded<T>(top: T[], hit: T, limit: number, cmp: (a: T, b: T) => number): void {
  if (top.length === limit) {
    if (cmp(hit, top[limit - 1]) >= 0) return;
    top.pop();
  }
  let lo = 0;
  let hi = top.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(top[mid], hit) <= 0) lo = mid + 1;
    else hi = mid;
  }
  top.splice(lo, 0, hit);
}

export function compareHits(a: { score: number; chunk: Chunk }, b: { score: number; chunk: Chunk }): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.chunk.path !== b.chunk.path) return a.chunk.path < b.chunk.path ? -1 : 1;
  return a.chunk.startLine - b.chunk.startLine;
}

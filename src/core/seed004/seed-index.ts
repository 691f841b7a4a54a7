/**
 * The seed-004 index: BM25 and find_related over the seed's chunks (chunks.ts), computed as
 * the reference engine computes them.
 * - BM25: k1 = 1.2, b = 0.75, idf = ln((N - df + 0.5) / (df + 0.5) + 1), N and df over the
 *   whole index, dl = the chunk's tokens, avgdl = mean tokens per chunk (at least 1). Query
 *   tokens are NOT deduplicated: "pool pool" counts pool twice, in the score, the matched
 *   terms and the components. A chunk's score adds its terms in query order.
 * - find_related: the seed is the one chunk whose lines hold the line; every other chunk
 *   sharing a token is a candidate, scored (its tokens, with repeats, that are in the seed's
 *   set) / |union of the two sets|.
 * Texts are not kept (a chunk's text is the preamble plus its lines, so keeping them would
 * repeat every file's imports once per symbol): callers re-read the few files they show.
 * Removal leaves a tombstone and lowers df at once, so an incrementally refreshed index
 * scores exactly like a rebuilt one.
 */
import { BM25_B, BM25_K1, idf } from '../rank/bm25-score';
import { forEachToken, seedTerm } from '../rank/tokenize';
import { tokenSource, type SeedChunk, type SeedChunkType } from './chunks';

export interface SeedChunkRecord {
  path: string;
  startLine: number;
  endLine: number;
  symbolName?: string;
  chunkType: SeedChunkType;
  /** Tokens with repeats (BM25's dl). */
  length: number;
  /** Distinct term ids, ascending, and each one's count. */
  terms: Uint32Array;
  tfs: Uint32Array;
}

export interface SeedScoreComponent {
  term: string;
  termFrequency: number;
  documentFrequency: number;
  idf: number;
  bm25: number;
}

export interface SeedHit {
  chunk: SeedChunkRecord;
  score: number;
  matchedTerms: string[];
  scoreComponents: SeedScoreComponent[];
}

export interface SeedRelated {
  chunk: SeedChunkRecord;
  score: number;
}

export interface SeedFileMeta {
  size: number;
  mtimeMs: number;
}

/** Plain data for storage: per chunk its file, lines, name, type; its terms and counts as flat arrays. */
export interface SeedIndexState {
  files: Array<[path: string, size: number, mtimeMs: number]>;
  /** [file index, startLine, endLine, chunkType, symbolName ('' for none)] */
  chunks: Array<[number, number, number, SeedChunkType, string]>;
  terms: string[];
  /** chunk i's term ids are termIds[offsets[i] .. offsets[i + 1]) */
  offsets: Uint32Array;
  termIds: Uint32Array;
  tfs: Uint32Array;
}

/** The distinct terms of a text, ascending by id, with counts (ids from `idOf`). */
function countTerms(text: string, idOf: (term: string) => number): { terms: Uint32Array; tfs: Uint32Array; length: number } {
  const counts = new Map<number, number>();
  let length = 0;
  forEachToken(text, 0, text.length, (s, e) => {
    const id = idOf(seedTerm(text.slice(s, e)));
    counts.set(id, (counts.get(id) ?? 0) + 1);
    length++;
  });
  const ids = [...counts.keys()].sort((a, b) => a - b);
  return { terms: Uint32Array.from(ids), tfs: Uint32Array.from(ids, (id) => counts.get(id)!), length };
}

function tfOf(c: SeedChunkRecord, term: number): number {
  let lo = 0;
  let hi = c.terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.terms[mid] < term) lo = mid + 1;
    else hi = mid;
  }
  return lo < c.terms.length && c.terms[lo] === term ? c.tfs[lo] : 0;
}

const byScoreThenPlace = (a: { score: number; chunk: SeedChunkRecord }, b: { score: number; chunk: SeedChunkRecord }): number =>
  b.score - a.score || (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : a.chunk.startLine - b.chunk.startLine);

export class SeedIndex {
  private chunks: Array<SeedChunkRecord | null> = [];
  private termIndex = new Map<string, number>();
  private terms: string[] = [];
  /** live chunks holding each term */
  private df: number[] = [];
  /** per term: chunk ids (dead ones are skipped, and swept out by compact()) */
  private postings: number[][] = [];
  private files = new Map<string, SeedFileMeta & { ids: number[] }>();
  private live = 0;
  private dead = 0;
  private totalTokens = 0;

  get chunkCount(): number {
    return this.live;
  }
  get fileCount(): number {
    return this.files.size;
  }
  fileMeta(path: string): SeedFileMeta | undefined {
    const f = this.files.get(path);
    return f && { size: f.size, mtimeMs: f.mtimeMs };
  }
  paths(): string[] {
    return [...this.files.keys()];
  }
  chunksOf(path: string): SeedChunkRecord[] {
    return (this.files.get(path)?.ids ?? []).map((id) => this.chunks[id]!);
  }

  private idOf = (term: string): number => {
    let id = this.termIndex.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIndex.set(term, id);
      this.terms.push(term);
      this.df.push(0);
      this.postings.push([]);
    }
    return id;
  };

  /** Replace a file's chunks. */
  setFile(path: string, meta: SeedFileMeta, chunks: SeedChunk[]): void {
    this.removeFile(path);
    const ids = chunks.map((c) => {
      const { terms, tfs, length } = countTerms(tokenSource(c), this.idOf);
      return this.addRecord({ path, startLine: c.startLine, endLine: c.endLine, symbolName: c.symbolName, chunkType: c.chunkType, length, terms, tfs });
    });
    this.files.set(path, { size: meta.size, mtimeMs: meta.mtimeMs, ids });
  }

  private addRecord(rec: SeedChunkRecord): number {
    const id = this.chunks.length;
    this.chunks.push(rec);
    for (const t of rec.terms) {
      this.df[t]++;
      this.postings[t].push(id);
    }
    this.live++;
    this.totalTokens += rec.length;
    return id;
  }

  removeFile(path: string): void {
    const f = this.files.get(path);
    if (!f) return;
    for (const id of f.ids) {
      const rec = this.chunks[id]!;
      for (const t of rec.terms) this.df[t]--;
      this.totalTokens -= rec.length;
      this.chunks[id] = null;
      this.live--;
      this.dead++;
    }
    this.files.delete(path);
    if (this.dead > 1024 && this.dead > this.live) this.compact();
  }

  /** Drop dead ids from the postings (ids stay: the files' lists keep pointing at them). */
  private compact(): void {
    for (let t = 0; t < this.postings.length; t++) this.postings[t] = this.postings[t].filter((id) => this.chunks[id] !== null);
    this.dead = 0;
  }

  private avgdl(): number {
    return Math.max(this.live ? this.totalTokens / this.live : 0, 1);
  }

  /** Query tokens, with repeats, in order. */
  static queryTerms(query: string): string[] {
    const out: string[] = [];
    forEachToken(query, 0, query.length, (s, e) => void out.push(seedTerm(query.slice(s, e))));
    return out;
  }

  /** The best `limit` chunks that pass `filter` (N and df stay the whole index's). */
  search(query: string, limit: number, filter?: (c: SeedChunkRecord) => boolean): SeedHit[] {
    const tokens = SeedIndex.queryTerms(query);
    const N = this.live;
    const avgdl = this.avgdl();
    const scores = new Map<number, number>();
    const plan = tokens.map((term) => {
      const t = this.termIndex.get(term);
      return t === undefined || this.df[t] === 0 ? null : { term, t, idf: idf(N, this.df[t]) };
    });
    // idf * (tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))), in this order: the engine's floating-point result to the bit
    const part = (c: SeedChunkRecord, tf: number, idfValue: number) => idfValue * ((tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * c.length) / avgdl)));
    for (const p of plan) {
      if (!p) continue;
      for (const id of this.postings[p.t]) {
        const c = this.chunks[id];
        if (!c) continue;
        scores.set(id, (scores.get(id) ?? 0) + part(c, tfOf(c, p.t), p.idf));
      }
    }
    const hits: Array<{ chunk: SeedChunkRecord; score: number }> = [];
    for (const [id, score] of scores) {
      const chunk = this.chunks[id]!;
      if (!filter || filter(chunk)) hits.push({ chunk, score });
    }
    hits.sort(byScoreThenPlace);
    return hits.slice(0, limit).map(({ chunk, score }) => {
      const matchedTerms: string[] = [];
      const scoreComponents: SeedScoreComponent[] = [];
      for (const p of plan) {
        const tf = p ? tfOf(chunk, p.t) : 0;
        if (!p || !tf) continue;
        matchedTerms.push(p.term);
        scoreComponents.push({ term: p.term, termFrequency: tf, documentFrequency: this.df[p.t], idf: p.idf, bm25: part(chunk, tf, p.idf) });
      }
      return { chunk, score, matchedTerms, scoreComponents };
    });
  }

  /** The chunk whose lines hold `line` (chunks of a file never overlap), or null. */
  chunkAt(path: string, line: number): SeedChunkRecord | null {
    for (const c of this.chunksOf(path)) if (line >= c.startLine && line <= c.endLine) return c;
    return null;
  }

  /** Chunks sharing a token with `seed`, best first (score, then path), at most `limit`. */
  related(seed: SeedChunkRecord, limit: number): SeedRelated[] {
    const sum = new Map<number, number>();
    const shared = new Map<number, number>();
    for (const t of seed.terms) {
      for (const id of this.postings[t]) {
        const c = this.chunks[id];
        if (!c || c === seed) continue;
        sum.set(id, (sum.get(id) ?? 0) + tfOf(c, t));
        shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    const out: SeedRelated[] = [];
    for (const [id, n] of sum) {
      const c = this.chunks[id]!;
      out.push({ chunk: c, score: n / (seed.terms.length + c.terms.length - shared.get(id)!) });
    }
    out.sort(byScoreThenPlace);
    return out.slice(0, limit);
  }

  /** Whether `term` is one of the chunk's (for marking a candidate's shared tokens). */
  hasTerm(c: SeedChunkRecord, term: string): boolean {
    const t = this.termIndex.get(term);
    return t !== undefined && tfOf(c, t) > 0;
  }

  toState(): SeedIndexState {
    const files: SeedIndexState['files'] = [];
    const chunks: SeedIndexState['chunks'] = [];
    const offsets: number[] = [0];
    let total = 0;
    for (const f of this.files.values()) {
      for (const id of f.ids) total += this.chunks[id]!.terms.length;
    }
    const termIds = new Uint32Array(total);
    const tfs = new Uint32Array(total);
    let at = 0;
    for (const [path, f] of this.files) {
      const fi = files.length;
      files.push([path, f.size, f.mtimeMs]);
      for (const id of f.ids) {
        const c = this.chunks[id]!;
        chunks.push([fi, c.startLine, c.endLine, c.chunkType, c.symbolName ?? '']);
        termIds.set(c.terms, at);
        tfs.set(c.tfs, at);
        at += c.terms.length;
        offsets.push(at);
      }
    }
    return { files, chunks, terms: this.terms.slice(), offsets: Uint32Array.from(offsets), termIds, tfs };
  }

  static fromState(s: SeedIndexState): SeedIndex {
    const index = new SeedIndex();
    for (const term of s.terms) index.idOf(term);
    const byFile: number[][] = s.files.map(() => []);
    s.chunks.forEach(([fi, startLine, endLine, chunkType, name], i) => {
      const terms = s.termIds.slice(s.offsets[i], s.offsets[i + 1]);
      const tfs = s.tfs.slice(s.offsets[i], s.offsets[i + 1]);
      let length = 0;
      for (const n of tfs) length += n;
      const rec: SeedChunkRecord = { path: s.files[fi][0], startLine, endLine, chunkType, length, terms, tfs };
      if (name !== '') rec.symbolName = name;
      byFile[fi].push(index.addRecord(rec));
    });
    s.files.forEach(([path, size, mtimeMs], fi) => index.files.set(path, { size, mtimeMs, ids: byFile[fi] }));
    return index;
  }
}

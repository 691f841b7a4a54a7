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
 * Storage: postings in one compressed-row table (per term, ascending chunk ids and their
 * counts, in two Uint32Arrays). Chunks added since the last commit wait as their own (term,
 * count) lists; removal marks chunks dead; commit() folds both into a new table, so df, N and
 * avgdl are exact and an incrementally refreshed index scores exactly like a rebuilt one.
 * Every query commits first. Texts are not kept (a chunk's text repeats its file's preamble):
 * callers re-read the few files they show. A file's preamble is tokenized once, not once per
 * chunk (a bundle whose first symbol comes after 30,000 lines of preamble has thousands).
 */
import { BM25_B, BM25_K1, idf, insertBounded } from '../rank/bm25-score';
import { forEachToken, seedTerm, tokenize } from '../rank/tokenize';
import { labelOf, type CodebaseChunk, type SeedChunkType } from './chunks';

export interface SeedChunkRecord {
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  symbolName?: string;
  chunkType: SeedChunkType;
  /** Tokens with repeats (BM25's dl). */
  length: number;
  /** Distinct terms (find_related's set size). */
  uniq: number;
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
  /** Set for a minified file (then it has no chunks): why, as the skip's detail says it. */
  minified?: string;
}

/** Plain data for storage: the files, the chunks, the terms and the committed postings table. */
export interface SeedIndexState {
  files: Array<[path: string, size: number, mtimeMs: number, minified?: string]>;
  /** [file index, startLine, endLine, chunkType, symbolName ('' for none), length, uniq], in id order */
  chunks: Array<[number, number, number, SeedChunkType, string, number, number]>;
  terms: string[];
  /** term t's postings are ids[offsets[t] .. offsets[t + 1]) (chunk indexes into `chunks`) with their counts */
  offsets: Uint32Array;
  ids: Uint32Array;
  tfs: Uint32Array;
}

type Counts = Map<number, number>;

const byScoreThenPlace = (
  a: { score: number; chunk: SeedChunkRecord },
  b: { score: number; chunk: SeedChunkRecord },
): number =>
  b.score - a.score ||
  (a.chunk.path < b.chunk.path
    ? -1
    : a.chunk.path > b.chunk.path
      ? 1
      : a.chunk.startLine - b.chunk.startLine);

export class CodebaseIndex {
  private chunks: Array<SeedChunkRecord | null> = [];
  private termIndex = new Map<string, number>();
  private terms: string[] = [];
  private files = new Map<string, SeedFileMeta & { ids: number[] }>();
  private live = 0;
  private totalTokens = 0;
  // the committed table
  private offsets: Uint32Array = new Uint32Array(1);
  private postIds: Uint32Array = new Uint32Array(0);
  private postTfs: Uint32Array = new Uint32Array(0);
  private df: Uint32Array = new Uint32Array(0);
  /** chunks added since the commit, with their distinct terms (ascending) and counts */
  private pending: Array<{ id: number; terms: Uint32Array; tfs: Uint32Array }> = [];
  private dirty = false;
  private scores = new Float64Array(0);
  /** per chunk, k1 (1 - b + b dl / avgdl): BM25's length part, fixed between commits */
  private norms: Float64Array | null = null;

  get chunkCount(): number {
    return this.live;
  }
  fileMeta(path: string): SeedFileMeta | undefined {
    const f = this.files.get(path);
    return f && { size: f.size, mtimeMs: f.mtimeMs };
  }
  /** The files kept out as minified, with why. */
  minifiedFiles(): Array<[path: string, detail: string]> {
    const out: Array<[string, string]> = [];
    for (const [path, f] of this.files) if (f.minified !== undefined) out.push([path, f.minified]);
    return out;
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
    }
    return id;
  };

  private countInto(counts: Counts, text: string): number {
    let n = 0;
    forEachToken(text, 0, text.length, (s, e) => {
      const id = this.idOf(seedTerm(text.slice(s, e)));
      counts.set(id, (counts.get(id) ?? 0) + 1);
      n++;
    });
    return n;
  }

  /** Replace a file's chunks. */
  setFile(path: string, meta: SeedFileMeta, chunks: CodebaseChunk[]): void {
    this.removeFile(path);
    const heads = new Map<string, { counts: Counts; length: number }>();
    const ids = chunks.map((c) => {
      let head = heads.get(c.head);
      if (!head) {
        const counts: Counts = new Map();
        heads.set(c.head, (head = { counts, length: this.countInto(counts, c.head) }));
      }
      const own: Counts = new Map();
      const length = head.length + this.countInto(own, labelOf(c)) + this.countInto(own, c.body);
      for (const [t, n] of head.counts) own.set(t, (own.get(t) ?? 0) + n);
      const terms = Uint32Array.from(own.keys()).sort();
      const tfs = Uint32Array.from(terms, (t) => own.get(t)!);
      const id = this.chunks.length;
      const rec: SeedChunkRecord = {
        id,
        path,
        startLine: c.startLine,
        endLine: c.endLine,
        chunkType: c.chunkType,
        length,
        uniq: terms.length,
      };
      if (c.symbolName !== undefined) rec.symbolName = c.symbolName;
      this.chunks.push(rec);
      this.pending.push({ id, terms, tfs });
      this.live++;
      this.totalTokens += length;
      return id;
    });
    this.files.set(
      path,
      meta.minified === undefined
        ? { size: meta.size, mtimeMs: meta.mtimeMs, ids }
        : { size: meta.size, mtimeMs: meta.mtimeMs, minified: meta.minified, ids },
    );
    this.dirty = true;
  }

  removeFile(path: string): void {
    const f = this.files.get(path);
    if (!f) return;
    for (const id of f.ids) {
      this.totalTokens -= this.chunks[id]!.length;
      this.chunks[id] = null;
      this.live--;
    }
    this.files.delete(path);
    this.dirty = true;
  }

  /** Fold the pending chunks in and the dead ones out: a new table, df recounted. */
  commit(): void {
    if (!this.dirty) return;
    const nTerms = this.terms.length;
    const count = new Uint32Array(nTerms + 1);
    const oldTerms = this.offsets.length - 1;
    for (let t = 0; t < oldTerms; t++)
      for (let k = this.offsets[t]; k < this.offsets[t + 1]; k++)
        if (this.chunks[this.postIds[k]]) count[t]++;
    const pending = this.pending.filter((p) => this.chunks[p.id]);
    for (const p of pending) for (const t of p.terms) count[t]++;
    const offsets = new Uint32Array(nTerms + 1);
    for (let t = 0; t < nTerms; t++) offsets[t + 1] = offsets[t] + count[t];
    const ids = new Uint32Array(offsets[nTerms]);
    const tfs = new Uint32Array(offsets[nTerms]);
    const fill = offsets.slice(0, nTerms);
    for (let t = 0; t < oldTerms; t++) {
      for (let k = this.offsets[t]; k < this.offsets[t + 1]; k++) {
        if (!this.chunks[this.postIds[k]]) continue;
        ids[fill[t]] = this.postIds[k];
        tfs[fill[t]++] = this.postTfs[k];
      }
    }
    // pending ids are all above the table's, in ascending order: every row stays sorted
    for (const p of pending) {
      for (let i = 0; i < p.terms.length; i++) {
        const t = p.terms[i];
        ids[fill[t]] = p.id;
        tfs[fill[t]++] = p.tfs[i];
      }
    }
    this.offsets = offsets;
    this.postIds = ids;
    this.postTfs = tfs;
    this.df = count.subarray(0, nTerms);
    this.pending = [];
    this.dirty = false;
    this.norms = null;
  }

  private avgdl(): number {
    return Math.max(this.live ? this.totalTokens / this.live : 0, 1);
  }

  /** A term's count in a chunk (0 when absent): a binary search of the term's row. */
  private tfIn(t: number, id: number): number {
    let lo = this.offsets[t];
    let hi = this.offsets[t + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.postIds[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.offsets[t + 1] && this.postIds[lo] === id ? this.postTfs[lo] : 0;
  }

  /** The best `limit` chunks that pass `filter` (N and df stay the whole index's). */
  search(query: string, limit: number, filter?: (c: SeedChunkRecord) => boolean): SeedHit[] {
    this.commit();
    const N = this.live;
    const avgdl = this.avgdl();
    const plan = tokenize(query).map((term) => {
      const t = this.termIndex.get(term);
      return t === undefined || this.df[t] === 0 ? null : { term, t, idf: idf(N, this.df[t]) };
    });
    // idf * (tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))), in this order: the engine's floating-point result to the bit
    const norms = (this.norms ??= Float64Array.from(this.chunks, (c) =>
      c ? BM25_K1 * (1 - BM25_B + (BM25_B * c.length) / avgdl) : 0,
    ));
    const part = (id: number, tf: number, idfValue: number) =>
      idfValue * ((tf * (BM25_K1 + 1)) / (tf + norms[id]));
    if (this.scores.length < this.chunks.length) this.scores = new Float64Array(this.chunks.length);
    const scores = this.scores;
    const touched: number[] = [];
    for (const p of plan) {
      if (!p) continue;
      const { postIds, postTfs } = this;
      for (let k = this.offsets[p.t], end = this.offsets[p.t + 1]; k < end; k++) {
        const id = postIds[k];
        if (scores[id] === 0) touched.push(id);
        scores[id] += part(id, postTfs[k], p.idf);
      }
    }
    // the best `limit` in a bounded sorted buffer: most hits leave after one comparison
    const top: Array<{ chunk: SeedChunkRecord; score: number }> = [];
    for (const id of touched) {
      const score = scores[id];
      scores[id] = 0;
      if (limit <= 0 || (top.length === limit && score < top[limit - 1].score)) continue;
      const chunk = this.chunks[id]!;
      if (filter && !filter(chunk)) continue;
      insertBounded(top, { chunk, score }, limit, byScoreThenPlace);
    }
    return top.map(({ chunk, score }) => {
      const matchedTerms: string[] = [];
      const scoreComponents: SeedScoreComponent[] = [];
      for (const p of plan) {
        const tf = p ? this.tfIn(p.t, chunk.id) : 0;
        if (!p || !tf) continue;
        matchedTerms.push(p.term);
        scoreComponents.push({
          term: p.term,
          termFrequency: tf,
          documentFrequency: this.df[p.t],
          idf: p.idf,
          bm25: part(chunk.id, tf, p.idf),
        });
      }
      return { chunk, score, matchedTerms, scoreComponents };
    });
  }

  /** The chunk whose lines hold `line` (chunks of a file never overlap), or null. */
  chunkAt(path: string, line: number): SeedChunkRecord | null {
    for (const c of this.chunksOf(path)) if (line >= c.startLine && line <= c.endLine) return c;
    return null;
  }

  /**
   * Chunks sharing a token with `seed`, best first (score, then path), at most `limit`.
   * `seedTerms`: the seed's distinct terms (from its text: the index keeps no per-chunk lists).
   */
  related(seed: SeedChunkRecord, seedTerms: Iterable<string>, limit: number): SeedRelated[] {
    this.commit();
    const sum = new Map<number, number>();
    const shared = new Map<number, number>();
    for (const term of seedTerms) {
      const t = this.termIndex.get(term);
      if (t === undefined) continue;
      for (let k = this.offsets[t]; k < this.offsets[t + 1]; k++) {
        const id = this.postIds[k];
        if (id === seed.id) continue;
        sum.set(id, (sum.get(id) ?? 0) + this.postTfs[k]);
        shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    const out: SeedRelated[] = [];
    for (const [id, n] of sum) {
      const c = this.chunks[id]!;
      out.push({ chunk: c, score: n / (seed.uniq + c.uniq - shared.get(id)!) });
    }
    out.sort(byScoreThenPlace);
    return out.slice(0, limit);
  }

  toState(): SeedIndexState {
    this.commit();
    // renumber the live chunks 0..n-1 in id order (rows stay ascending)
    const files: SeedIndexState['files'] = [];
    const fileOf = new Map<string, number>();
    for (const [path, f] of this.files) {
      fileOf.set(path, files.length);
      files.push(
        f.minified === undefined ? [path, f.size, f.mtimeMs] : [path, f.size, f.mtimeMs, f.minified],
      );
    }
    const newId = new Int32Array(this.chunks.length).fill(-1);
    const chunks: SeedIndexState['chunks'] = [];
    this.chunks.forEach((c, id) => {
      if (!c) return;
      newId[id] = chunks.length;
      chunks.push([
        fileOf.get(c.path)!,
        c.startLine,
        c.endLine,
        c.chunkType,
        c.symbolName ?? '',
        c.length,
        c.uniq,
      ]);
    });
    const ids = this.postIds.map((id) => newId[id]);
    return {
      files,
      chunks,
      terms: this.terms.slice(),
      offsets: this.offsets.slice(),
      ids,
      tfs: this.postTfs.slice(),
    };
  }

  static fromState(s: SeedIndexState): CodebaseIndex {
    const index = new CodebaseIndex();
    for (const term of s.terms) index.idOf(term);
    const byFile: number[][] = s.files.map(() => []);
    s.chunks.forEach(([fi, startLine, endLine, chunkType, name, length, uniq], id) => {
      const rec: SeedChunkRecord = { id, path: s.files[fi][0], startLine, endLine, chunkType, length, uniq };
      if (name !== '') rec.symbolName = name;
      index.chunks.push(rec);
      byFile[fi].push(id);
      index.live++;
      index.totalTokens += length;
    });
    s.files.forEach(([path, size, mtimeMs, minified], fi) =>
      index.files.set(
        path,
        typeof minified === 'string'
          ? { size, mtimeMs, minified, ids: byFile[fi] }
          : { size, mtimeMs, ids: byFile[fi] },
      ),
    );
    if (
      s.offsets.length !== s.terms.length + 1 ||
      s.ids.length !== s.offsets[s.terms.length] ||
      s.tfs.length !== s.ids.length
    )
      throw new Error('inconsistent seed index');
    index.offsets = s.offsets;
    index.postIds = s.ids;
    index.postTfs = s.tfs;
    const df = new Uint32Array(s.terms.length);
    for (let t = 0; t < df.length; t++) df[t] = s.offsets[t + 1] - s.offsets[t];
    index.df = df;
    return index;
  }
}

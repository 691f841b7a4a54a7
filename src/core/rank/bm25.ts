/**
 * The chunk index: an inverted index (term -> postings of chunk id and term frequency) over
 * symbol chunks, scored with BM25 exactly as seed 004 gives it:
 *   k1 = 1.2, b = 0.75, idf = ln((N - df + 0.5) / (df + 0.5) + 1),
 *   N and df over the full index (filters never recompute them), dl = tokens in the chunk,
 *   avgdl = mean tokens per chunk. Query terms are the unique tokens of the query.
 * Removal leaves a tombstone (ids are never reused) and takes the ids out of the postings of
 * the file's own terms, so df/N/avgdl stay exact and an incrementally refreshed index scores
 * exactly like a rebuilt one.
 *
 * Tokens come from an injected Tokenizer (the `tokenizer` option, default seed 004's); the
 * stored state (toState/fromState) is the seed tokenizer's only. The parts live beside this
 * file: bm25-score.ts (the formula, hit types, top-k), postings.ts, term-table.ts,
 * line-terms.ts (a file's lines as term ids), compound-parts.ts (the people analyzer's
 * identifier parts), indexed-chunk.ts (chunk records and texts), index-state.ts (plain data).
 * Every name this module exported before the split is still exported here.
 */
import type { Chunk } from '../chunk/types';
import { QuarryError } from '../errors';
import {
  bm25Term,
  BM25_B,
  BM25_K1,
  compareHits,
  idf,
  topHits,
  type ChunkFilter,
  type RankedHit,
  type ScoreComponent,
} from './bm25-score';
import { CompoundParts } from './compound-parts';
import { contentsOf, stateOf, type ChunkIndexState } from './index-state';
import { ownString, snippetOf, type FileEntry, type FileMeta, type IndexedChunk } from './indexed-chunk';
import { LineTerms } from './line-terms';
import { PostingStore } from './postings';
import { TermTable } from './term-table';
import { seedTokenizer, tokenize, type Tokenizer } from './tokenize';

export {
  BM25_B,
  BM25_K1,
  bm25Term,
  idf,
  type ChunkFilter,
  type RankedHit,
  type ScoreComponent,
} from './bm25-score';
export type { ChunkIndexState } from './index-state';
export {
  chunkText,
  ownString,
  snippetOf,
  SNIPPET_CHARS,
  type FileMeta,
  type IndexedChunk,
} from './indexed-chunk';

export interface ChunkIndexOptions {
  /**
   * How chunk texts and queries become terms (default: seed 004's). An index with another
   * tokenizer cannot be stored: toState() refuses it.
   */
  tokenizer?: Tokenizer;
}

export class ChunkIndex {
  readonly tokenizer: Tokenizer;
  private chunks: Array<IndexedChunk | null> = [];
  private table = new TermTable();
  private get terms(): string[] {
    return this.table.terms;
  }
  private post = new PostingStore();
  private files = new Map<string, FileEntry>();
  private live = 0;
  private totalTokens = 0;
  private changes = 0;
  /** the people analyzer's identifier parts of compound terms */
  private compounds: CompoundParts;
  /** the lines of the file being added, as term ids */
  private lineTerms: LineTerms;
  /** scratch accumulators, grown with the chunk count */
  private scoreScratch = new Float64Array(0);
  private countScratch = new Uint32Array(0);
  private interScratch = new Uint32Array(0);
  private touchedScratch = new Uint32Array(0);

  constructor(options: ChunkIndexOptions = {}) {
    this.tokenizer = options.tokenizer ?? seedTokenizer;
    const tokenizer = this.tokenizer;
    this.compounds = new CompoundParts((raw) => tokenizer.term(raw));
    this.lineTerms = new LineTerms(tokenizer);
  }

  /** Counts changes to the chunks (files set or removed), so derived tables know when to rebuild. */
  get generation(): number {
    return this.changes;
  }

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

  /** Term ids whose identifier parts include `part` (for the people analyzer). */
  termsWithPart(part: string): number[] {
    return this.compounds.termsWithPart(part);
  }

  /** Every term and identifier part the index holds (for inflections.ts); may repeat a word. */
  *vocabulary(): IterableIterator<string> {
    yield* this.terms;
    for (const [, parts] of this.compounds.entries()) yield* parts;
  }

  termIdOf(term: string): number | undefined {
    const t = this.table.get(term);
    return t < 0 ? undefined : t;
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
  /**
   * For rankers outside this class (related-people.ts): term ids run 0..termCount-1 and chunk
   * ids 0..idSpan-1 (tombstones included; ids are never reused, so any change to the postings
   * changes idSpan or chunkCount); documentFrequency is a term's live chunk count (BM25's df).
   */
  get termCount(): number {
    return this.terms.length;
  }
  get idSpan(): number {
    return this.chunks.length;
  }
  documentFrequency(t: number): number {
    return this.post.df(t);
  }

  /** per term id: tf in the chunk being added, and the stamp of the last file that used it */
  private tfScratch = new Uint32Array(1024);
  private fileStamp = new Int32Array(1024);
  private stamp = 0;

  /** A new term (see LineTerms), first seen as the token `raw`, with its hash. */
  private readonly addTerm = (term: string, raw: string, h: number): number => {
    const t = this.table.add(term, h);
    this.post.addTerm();
    if (t >= this.tfScratch.length) {
      const n = this.tfScratch.length * 2;
      const tf = new Uint32Array(n);
      tf.set(this.tfScratch);
      this.tfScratch = tf;
      const st = new Int32Array(n);
      st.set(this.fileStamp);
      this.fileStamp = st;
    }
    this.compounds.note(t, raw);
    return t;
  };

  /**
   * Replace a file's chunks (lines are the file's lines without terminators). A chunk's text is
   * lines startLine..endLine joined by '\n' and tokens never span a '\n', so each line is
   * tokenized once, however many (nested) chunks contain it, and each chunk counts its lines'
   * term ids: the same tokens as tokenize(chunkText(...)).
   */
  setFile(path: string, meta: FileMeta, chunks: Chunk[], lines: string[]): void {
    this.removeFile(path);
    this.changes++;
    const ids: number[] = [];
    const fileTerms: number[] = [];
    const stamp = ++this.stamp;
    const chunkTerms: number[] = [];
    const lt = this.lineTerms;
    lt.reset(lines.length);
    for (const c of chunks) {
      let tokenCount = 0;
      chunkTerms.length = 0;
      const last = Math.min(c.endLine, lines.length);
      for (let l = Math.max(c.startLine, 1) - 1; l < last; l++) {
        if (lt.from[l] < 0) lt.line(l, lines[l], this.table, this.addTerm);
        const tokIds = lt.ids;
        const tf = this.tfScratch;
        for (let k = lt.from[l], end = lt.to[l]; k < end; k++) {
          const t = tokIds[k];
          if (tf[t]++ === 0) chunkTerms.push(t);
        }
        tokenCount += lt.to[l] - lt.from[l];
      }
      const id = this.chunks.length;
      this.chunks.push({
        path,
        startLine: c.startLine,
        endLine: c.endLine,
        symbolName: ownString(c.symbolName),
        chunkType: c.chunkType,
        tokenCount,
        uniqueCount: chunkTerms.length,
        snippet: snippetOf(lines, c.startLine, c.endLine),
      });
      const tf = this.tfScratch;
      const seen = this.fileStamp;
      for (let k = 0; k < chunkTerms.length; k++) {
        const t = chunkTerms[k];
        this.post.add(t, id, tf[t]);
        tf[t] = 0;
        if (seen[t] !== stamp) {
          seen[t] = stamp;
          fileTerms.push(t);
        }
      }
      this.live++;
      this.totalTokens += tokenCount;
      ids.push(id);
    }
    this.files.set(path, { size: meta.size, mtimeMs: meta.mtimeMs, chunkIds: ids, terms: fileTerms });
  }

  /** Forget a file: its chunks become tombstones and leave the postings of the file's own terms. */
  removeFile(path: string): void {
    this.changes++;
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
      this.touchedScratch = new Uint32Array(cap);
    }
  }

  /** tf of a term in one chunk (binary search: postings are ascending by id). */
  private tfIn(t: number, id: number): number {
    return this.post.tf(t, id);
  }

  /** Fold recent additions and removals into the compact postings (after a build, before saving). */
  compact(): void {
    this.post.compact(this.chunks);
    this.norms(this.avgdl()); // ready for the first query
  }

  /** BM25 over the whole index; `filter` runs before `limit`; N and df stay the full index's. */
  search(query: string, limit: number, filter?: ChunkFilter): RankedHit[] {
    const termList: Array<{ term: string; t: number; df: number; idf: number }> = [];
    const N = this.live;
    for (const term of new Set(tokenize(query, this.tokenizer))) {
      const t = this.table.get(term);
      if (t < 0) continue;
      const df = this.post.df(t);
      if (!df) continue;
      termList.push({ term, t, df, idf: idf(N, df) });
    }
    if (!termList.length || !N) return [];
    this.ensureScratch();
    const scores = this.scoreScratch;
    const avgdl = this.avgdl();
    const touched = this.touchedScratch;
    let count = 0;
    const norms = this.norms(avgdl);
    const chunks = this.chunks;
    for (const { t, idf: w } of termList)
      count = this.post.scoreInto(t, w, norms, chunks, scores, touched, count);
    return topHits(touched, count, scores, limit, chunks, filter).map(({ id, score }) => {
      const chunk = this.chunks[id]!;
      const scoreComponents: ScoreComponent[] = [];
      for (const { term, t, df, idf: w } of termList) {
        const tf = this.tfIn(t, id);
        if (!tf) continue;
        scoreComponents.push({
          term,
          termFrequency: tf,
          documentFrequency: df,
          idf: w,
          bm25: bm25Term(tf, w, chunk.tokenCount, avgdl),
        });
      }
      return { chunk, score, matchedTerms: scoreComponents.map((c) => c.term), scoreComponents };
    });
  }

  /** per chunk id: k1 * (1 - b + b * dl / avgdl), the BM25 length norm, for the current avgdl */
  private normCache = new Float64Array(0);
  private normAvgdl = NaN;
  private normCount = -1;

  private norms(avgdl: number): Float64Array {
    const n = this.chunks.length;
    if (avgdl !== this.normAvgdl || n !== this.normCount) {
      if (this.normCache.length < n)
        this.normCache = new Float64Array(Math.max(n, this.normCache.length * 2, 1024));
      const norms = this.normCache;
      for (let id = 0; id < n; id++) {
        const c = this.chunks[id];
        // same arithmetic as bm25Term()'s denominator: k1 * (1 - b + b * dl / avgdl)
        if (c) norms[id] = BM25_K1 * (1 - BM25_B + (BM25_B * c.tokenCount) / avgdl);
      }
      this.normAvgdl = avgdl;
      this.normCount = n;
    }
    return this.normCache;
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
  related(
    seed: IndexedChunk,
    seedText: string,
    limit: number,
  ): Array<{ chunk: IndexedChunk; score: number; sharedTerms: string[] }> {
    const seedTerms = [...new Set(tokenize(seedText, this.tokenizer))];
    this.ensureScratch();
    const shared = this.countScratch;
    const inter = this.interScratch;
    const touched: number[] = [];
    const termIdsUsed: number[] = [];
    for (const term of seedTerms) {
      const t = this.table.get(term);
      if (t < 0) continue;
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
      if (
        c.path === seed.path &&
        ((c.startLine <= seed.startLine && c.endLine >= seed.endLine) ||
          (c.startLine >= seed.startLine && c.endLine <= seed.endLine))
      )
        continue;
      out.push({ id, chunk: c, score: a / (seedTerms.length + c.uniqueCount - n) });
    }
    out.sort(compareHits);
    return out.slice(0, limit).map(({ id, chunk, score }) => ({
      chunk,
      score,
      sharedTerms: termIdsUsed
        .filter((t) => this.tfIn(t, id) > 0)
        .map((t) => this.terms[t])
        .sort(),
    }));
  }

  /**
   * Plain data for persistence (see persist.ts); tombstones are dropped and ids renumbered.
   * Only an index with the seed tokenizer has a stored form.
   */
  toState(): ChunkIndexState {
    if (this.tokenizer !== seedTokenizer) {
      throw new QuarryError(
        'InvalidArgument',
        'An index built with a custom tokenizer cannot be stored (the stored format holds seed 004 tokens)',
      );
    }
    const { chunks, files, table, post, compounds, totalTokens } = this;
    return stateOf({ chunks, files, table, post, compounds, totalTokens });
  }

  /** An index (with the seed tokenizer) from its plain data. */
  static fromState(state: Omit<ChunkIndexState, 'tfs'> & { tfs: ArrayLike<number> }): ChunkIndex {
    const index = new ChunkIndex();
    const c = contentsOf(state);
    index.chunks = c.chunks;
    index.files = c.files;
    index.table = c.table;
    index.post = c.post;
    index.compounds = c.compounds;
    index.totalTokens = c.totalTokens;
    index.live = c.chunks.length;
    index.tfScratch = new Uint32Array(Math.max(1024, state.terms.length));
    index.fileStamp = new Int32Array(index.tfScratch.length);
    index.norms(index.avgdl());
    return index;
  }
}

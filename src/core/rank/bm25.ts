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
  terms: number[];
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

/** The first SNIPPET_CHARS characters of chunkText(lines, startLine, endLine), as an own string. */
export function snippetOf(lines: string[], startLine: number, endLine: number): string {
  let out = '';
  const last = Math.min(endLine, lines.length);
  for (let l = Math.max(startLine, 1) - 1, first = true; l < last && out.length < SNIPPET_CHARS; l++, first = false) {
    if (!first) out += '\n';
    const line = lines[l];
    out += line.length > SNIPPET_CHARS - out.length ? line.slice(0, SNIPPET_CHARS - out.length) : line;
  }
  return ownString(out.slice(0, SNIPPET_CHARS));
}

/** Lines startLine..endLine (1-based, inclusive) of pre-split file lines, joined by '\n'. */
export function chunkText(lines: string[], startLine: number, endLine: number): string {
  return lines.slice(startLine - 1, endLine).join('\n');
}

interface Hit {
  id: number;
  score: number;
  order: number;
}

/**
 * The hits (touched[0..count), scores[id]; the scores are reset to 0) that pass `filter`,
 * first `limit` in the order of a stable sort by compareHits (ties keep touched order), with
 * no object per hit: a bounded sorted buffer that most hits leave after one comparison.
 */
function topHits(
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
    const h: Hit = { id, score, order };
    if (top.length === limit) {
      if (cmp(h, top[limit - 1]) >= 0) continue;
      top.pop();
    }
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(top[mid], h) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, h);
  }
  return top;
}

function compareHits(a: { score: number; chunk: Chunk }, b: { score: number; chunk: Chunk }): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.chunk.path !== b.chunk.path) return a.chunk.path < b.chunk.path ? -1 : 1;
  return a.chunk.startLine - b.chunk.startLine;
}

/**
 * Postings per term id: a compact base (CSR: one Uint32 id array and one Uint16 tf array,
 * term by term, ids ascending) built by compact(), plus a tail for chunks added since: per
 * term a chain of entries in shared typed arrays (id, tf, next), appended in id order, so a
 * build allocates no per-term arrays. A removed file's chunks die in place: the base keeps
 * their entries (skipped via `alive`) and counts them in `dead`, so df stays exact; tail
 * entries are unlinked.
 */
class PostingStore {
  start: Uint32Array = new Uint32Array(1);
  ids: Uint32Array = new Uint32Array(0);
  tfs: Uint16Array = new Uint16Array(0);
  dead: Int32Array = new Int32Array(0);
  baseTerms = 0;
  /** number of term ids */
  terms = 0;
  // tail chains, per term
  private head = new Int32Array(1024).fill(-1);
  private last = new Int32Array(1024).fill(-1);
  private count = new Int32Array(1024);
  // tail entries
  private eId = new Uint32Array(1 << 16);
  private eTf = new Uint16Array(1 << 16);
  private eNext = new Int32Array(1 << 16);
  private eLen = 0;

  addTerm(): void {
    if (this.terms === this.head.length) {
      const n = this.head.length * 2;
      const head = new Int32Array(n).fill(-1);
      head.set(this.head);
      const last = new Int32Array(n).fill(-1);
      last.set(this.last);
      const count = new Int32Array(n);
      count.set(this.count);
      this.head = head;
      this.last = last;
      this.count = count;
    }
    this.terms++;
  }

  /** Empty tails for `terms` term ids (after loading a base). */
  resetTail(terms: number): void {
    const cap = Math.max(1024, terms);
    this.head = new Int32Array(cap).fill(-1);
    this.last = new Int32Array(cap).fill(-1);
    this.count = new Int32Array(cap);
    this.eId = new Uint32Array(1 << 16);
    this.eTf = new Uint16Array(1 << 16);
    this.eNext = new Int32Array(1 << 16);
    this.eLen = 0;
    this.terms = terms;
  }

  df(t: number): number {
    const base = t < this.baseTerms ? this.start[t + 1] - this.start[t] - this.dead[t] : 0;
    return base + this.count[t];
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
    for (let e = this.head[t]; e >= 0; e = this.eNext[e]) fn(this.eId[e], this.eTf[e]);
  }

  /**
   * BM25 of term t into scores[id] for each live posting (w = idf, norms[id] = the length
   * norm): idf * (tf * (k1 + 1)) / (tf + norm), bm25Term()'s arithmetic; first touches are
   * appended to `touched`.
   */
  scoreInto(t: number, w: number, norms: Float64Array, alive: Array<unknown>, scores: Float64Array, touched: Uint32Array, count: number): number {
    const k1p1 = BM25_K1 + 1;
    if (t < this.baseTerms) {
      const ids = this.ids;
      const tfs = this.tfs;
      for (let i = this.start[t], end = this.start[t + 1]; i < end; i++) {
        const id = ids[i];
        if (alive[id] === null) continue;
        const tf = tfs[i];
        const s = (w * (tf * k1p1)) / (tf + norms[id]);
        if (scores[id] === 0) touched[count++] = id;
        scores[id] += s;
      }
    }
    for (let e = this.head[t]; e >= 0; e = this.eNext[e]) {
      const id = this.eId[e];
      const tf = this.eTf[e];
      const s = (w * (tf * k1p1)) / (tf + norms[id]);
      if (scores[id] === 0) touched[count++] = id;
      scores[id] += s;
    }
    return count;
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
    for (let e = this.head[t]; e >= 0; e = this.eNext[e]) {
      const v = this.eId[e];
      if (v === id) return this.eTf[e];
      if (v > id) break;
    }
    return 0;
  }

  add(t: number, id: number, tf: number): void {
    if (this.eLen === this.eId.length) this.growEntries();
    const e = this.eLen++;
    this.eId[e] = id;
    this.eTf[e] = tf > 65535 ? 65535 : tf;
    this.eNext[e] = -1;
    const prev = this.last[t];
    if (prev >= 0) this.eNext[prev] = e;
    else this.head[t] = e;
    this.last[t] = e;
    this.count[t]++;
  }

  private growEntries(): void {
    {
      const n = this.eLen * 4;
      const ids = new Uint32Array(n);
      ids.set(this.eId);
      const tfs = new Uint16Array(n);
      tfs.set(this.eTf);
      const next = new Int32Array(n);
      next.set(this.eNext);
      this.eId = ids;
      this.eTf = tfs;
      this.eNext = next;
    }
  }

  /** Chunk ids lo..hi (one file's, consecutive) leave term t. */
  removeRange(t: number, lo: number, hi: number): void {
    if (t < this.baseTerms) {
      const a = lowerBound(this.ids, this.start[t], this.start[t + 1], lo);
      const b = lowerBound(this.ids, this.start[t], this.start[t + 1], hi + 1);
      this.dead[t] += b - a;
    }
    let prev = -1;
    for (let e = this.head[t]; e >= 0; e = this.eNext[e]) {
      const id = this.eId[e];
      if (id >= lo && id <= hi) {
        if (prev >= 0) this.eNext[prev] = this.eNext[e];
        else this.head[t] = this.eNext[e];
        this.count[t]--;
      } else prev = e;
    }
    this.last[t] = prev;
  }

  /** Fold the tail and drop dead entries into a new base. */
  compact(alive: Array<unknown>): void {
    const terms = this.terms;
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
    this.resetTail(terms);
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

/**
 * A string that does not keep a larger one alive. V8 makes substrings of 13+ characters
 * "sliced" views of their parent (a whole file's text, via the chunker's symbol names or a
 * chunk's joined lines), so a stored slice would retain the parent; concatenation then slice
 * flattens into a fresh copy of just these characters.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** per ASCII code unit: its lowercase form when it is a token unit (letter, digit, '_'), else 0 */
const WORD_FOLD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95) WORD_FOLD[c] = c;
  else if (c >= 65 && c <= 90) WORD_FOLD[c] = c + 32;
}

/**
 * The term dictionary: an open-addressing hash table over lowercased terms, looked up
 * straight from a range of a line (no substring, no toLowerCase per token), so tokenizing
 * and counting a chunk allocates nothing for terms already known.
 */
class TermTable {
  terms: string[] = [];
  private slots = new Int32Array(1 << 16).fill(-1);
  private hashes = new Int32Array(1 << 16);
  private mask = (1 << 16) - 1;

  get size(): number {
    return this.terms.length;
  }

  private static hashString(s: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h;
  }

  /** Id of a lowercased term, or -1. */
  get(term: string): number {
    const h = TermTable.hashString(term);
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const t = this.slots[i];
      if (t < 0) return -1;
      if (this.hashes[i] === h && this.terms[t] === term) return t;
    }
  }

  /** Id of the lowercased text[start, end) (ASCII word units only), -1 when unknown; `h` is its hash. */
  find(text: string, start: number, end: number, h: number): number {
    const mask = this.mask;
    const len = end - start;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const t = this.slots[i];
      if (t < 0) return -1;
      if (this.hashes[i] !== h) continue;
      const term = this.terms[t];
      if (term.length !== len) continue;
      let k = 0;
      while (k < len) {
        const c = text.charCodeAt(start + k);
        if ((c >= 65 && c <= 90 ? c + 32 : c) !== term.charCodeAt(k)) break;
        k++;
      }
      if (k === len) return t;
    }
  }

  /** Add a new (absent) lowercased term with its hash; returns its id. */
  add(term: string, h: number): number {
    const t = this.terms.length;
    this.terms.push(term);
    if (this.terms.length * 2 > this.mask) this.grow();
    this.place(t, h);
    return t;
  }

  private place(t: number, h: number): void {
    const mask = this.mask;
    let i = h & mask;
    while (this.slots[i] >= 0) i = (i + 1) & mask;
    this.slots[i] = t;
    this.hashes[i] = h;
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    for (let t = 0; t < this.terms.length; t++) this.place(t, TermTable.hashString(this.terms[t]));
  }

  static from(terms: string[]): TermTable {
    const table = new TermTable();
    for (const term of terms) table.add(term, TermTable.hashString(term));
    return table;
  }
}

export class ChunkIndex {
  private chunks: Array<IndexedChunk | null> = [];
  private table = new TermTable();
  private get terms(): string[] {
    return this.table.terms;
  }
  private post = new PostingStore();
  private files = new Map<string, FileEntry>();
  private live = 0;
  private totalTokens = 0;
  /** scratch accumulators, grown with the chunk count */
  private scoreScratch = new Float64Array(0);
  private countScratch = new Uint32Array(0);
  private interScratch = new Uint32Array(0);
  private touchedScratch = new Uint32Array(0);

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

  /** per term id: tf in the chunk being added, and the stamp of the last file that used it */
  private tfScratch = new Uint32Array(1024);
  private fileStamp = new Int32Array(1024);
  private stamp = 0;

  private newTerm(text: string, start: number, end: number, h: number): number {
    const raw = ownString(text.slice(start, end));
    const t = this.table.add(ownString(raw.toLowerCase()), h);
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
    if (!this.partsSeen[t]) this.notePartsOf(t, raw);
    return t;
  }

  /** Term ids of the tokenized lines of the file being added: line l's are tokIds[lineFrom[l], lineTo[l]). */
  private tokIds = new Int32Array(1 << 16);
  private tokLen = 0;
  private lineFrom = new Int32Array(1024);
  private lineTo = new Int32Array(1024);

  /** Tokenize one line into tokIds (new terms enter the table); records where its ids are. */
  private tokenizeLine(l: number, text: string): void {
    const table = this.table;
    const n = text.length;
    this.lineFrom[l] = this.tokLen;
    let i = 0;
    while (i < n) {
      let c0 = text.charCodeAt(i);
      if (c0 >= 128 || WORD_FOLD[c0] === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5 | 0;
      for (;;) {
        h = Math.imul(h ^ WORD_FOLD[c0], 0x01000193);
        if (++i === n) break;
        c0 = text.charCodeAt(i);
        if (c0 >= 128 || WORD_FOLD[c0] === 0) break;
      }
      if (i - start > 1) {
        let t = table.find(text, start, i, h);
        if (t < 0) t = this.newTerm(text, start, i, h);
        if (this.tokLen === this.tokIds.length) {
          const grown = new Int32Array(this.tokIds.length * 2);
          grown.set(this.tokIds);
          this.tokIds = grown;
        }
        this.tokIds[this.tokLen++] = t;
      }
    }
    this.lineTo[l] = this.tokLen;
  }

  /**
   * Replace a file's chunks (lines are the file's lines without terminators). A chunk's text is
   * lines startLine..endLine joined by '\n' and tokens never span a '\n', so each line is
   * tokenized once, however many (nested) chunks contain it, and each chunk counts its lines'
   * term ids: the same tokens as tokenize(chunkText(...)).
   */
  setFile(path: string, meta: FileMeta, chunks: Chunk[], lines: string[]): void {
    this.removeFile(path);
    const ids: number[] = [];
    const fileTerms: number[] = [];
    const stamp = ++this.stamp;
    const chunkTerms: number[] = [];
    if (this.lineFrom.length < lines.length) {
      const n = Math.max(lines.length, this.lineFrom.length * 2);
      this.lineFrom = new Int32Array(n);
      this.lineTo = new Int32Array(n);
    }
    this.lineFrom.fill(-1, 0, lines.length);
    this.tokLen = 0;
    for (const c of chunks) {
      let tokenCount = 0;
      chunkTerms.length = 0;
      const last = Math.min(c.endLine, lines.length);
      for (let l = Math.max(c.startLine, 1) - 1; l < last; l++) {
        if (this.lineFrom[l] < 0) this.tokenizeLine(l, lines[l]);
        const tokIds = this.tokIds;
        const tf = this.tfScratch;
        for (let k = this.lineFrom[l], end = this.lineTo[l]; k < end; k++) {
          const t = tokIds[k];
          if (tf[t]++ === 0) chunkTerms.push(t);
        }
        tokenCount += this.lineTo[l] - this.lineFrom[l];
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
    for (const term of new Set(tokenize(query))) {
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
    for (const { t, idf: w } of termList) count = this.post.scoreInto(t, w, norms, chunks, scores, touched, count);
    return topHits(touched, count, scores, limit, chunks, filter).map(({ id, score }) => {
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

  /** per chunk id: k1 * (1 - b + b * dl / avgdl), the BM25 length norm, for the current avgdl */
  private normCache = new Float64Array(0);
  private normAvgdl = NaN;
  private normCount = -1;

  private norms(avgdl: number): Float64Array {
    const n = this.chunks.length;
    if (avgdl !== this.normAvgdl || n !== this.normCount) {
      if (this.normCache.length < n) this.normCache = new Float64Array(Math.max(n, this.normCache.length * 2, 1024));
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
  related(seed: IndexedChunk, seedText: string, limit: number): Array<{ chunk: IndexedChunk; score: number; sharedTerms: string[] }> {
    const seedTerms = [...new Set(tokenize(seedText))];
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

  static fromState(state: Omit<ChunkIndexState, 'tfs'> & { tfs: ArrayLike<number> }): ChunkIndex {
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
    index.table = TermTable.from(state.terms);
    // only the loaded terms are "seen": ids added later (an incremental refresh) still get their parts noted
    index.partsSeen = new Uint8Array(Math.max(1024, state.terms.length)).fill(1, 0, state.terms.length);
    for (const [t, ps] of state.compounds ?? []) index.parts.set(t, ps);
    index.tfScratch = new Uint32Array(Math.max(1024, state.terms.length));
    index.fileStamp = new Int32Array(index.tfScratch.length);
    for (const [path, size, mtimeMs, chunkIds, terms] of state.files) index.files.set(path, { size, mtimeMs, chunkIds, terms });
    const post = index.post;
    const termCount = state.terms.length;
    post.start = new Uint32Array(termCount + 1);
    let k = 0;
    for (let t = 0; t < termCount; t++) {
      post.start[t] = k;
      k += state.lengths[t];
    }
    post.start[termCount] = k;
    post.ids = new Uint32Array(state.ids); // a copy: the state may view a loaded buffer
    post.tfs = new Uint16Array(state.tfs);
    post.dead = new Int32Array(termCount);
    post.baseTerms = termCount;
    post.resetTail(termCount);
    index.norms(index.avgdl());
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

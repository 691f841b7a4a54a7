/**
 * The chunk index's postings per term id (see PostingStore), with BM25's inner loop.
 */
import { BM25_K1 } from './bm25-score';

/**
 * Postings per term id: a compact base (CSR: one Uint32 id array and one Uint16 tf array,
 * term by term, ids ascending) built by compact(), plus a tail for chunks added since: per
 * term a chain of entries in shared typed arrays (id, tf, next), appended in id order, so a
 * build allocates no per-term arrays. A removed file's chunks die in place: the base keeps
 * their entries (skipped via `alive`) and counts them in `dead`, so df stays exact; tail
 * entries are unlinked.
 */
export class PostingStore {
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
  scoreInto(
    t: number,
    w: number,
    norms: Float64Array,
    alive: Array<unknown>,
    scores: Float64Array,
    touched: Uint32Array,
    count: number,
  ): number {
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

/**
 * The term dictionary of the chunk index (see TermTable).
 */
import { fnv1a } from '../hash';
import { TOKEN_FOLD } from './tokenize';

/**
 * The term dictionary: an open-addressing hash table over terms. With the seed tokenizer a
 * term is looked up straight from a range of a line (find: no substring, no toLowerCase per
 * token), so tokenizing and counting a chunk allocates nothing for terms already known.
 */
export class TermTable {
  terms: string[] = [];
  private slots = new Int32Array(1 << 16).fill(-1);
  private hashes = new Int32Array(1 << 16);
  private mask = (1 << 16) - 1;

  get size(): number {
    return this.terms.length;
  }

  /** FNV-1a over the code units (what the fast path computes over a token's TOKEN_FOLD units). */
  static hashString(s: string): number {
    return fnv1a(s) | 0;
  }

  /** Id of a term, or -1. */
  get(term: string): number {
    const h = TermTable.hashString(term);
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const t = this.slots[i];
      if (t < 0) return -1;
      if (this.hashes[i] === h && this.terms[t] === term) return t;
    }
  }

  /**
   * Id of the term of the seed token text[start, end) (its units folded by TOKEN_FOLD), -1 when
   * unknown; `h` is the term's hash.
   */
  find(text: string, start: number, end: number, h: number): number {
    const mask = this.mask;
    const fold = TOKEN_FOLD;
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
        if (fold[c] !== term.charCodeAt(k)) break;
        k++;
      }
      if (k === len) return t;
    }
  }

  /** Add a new (absent) term with its hash; returns its id. */
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

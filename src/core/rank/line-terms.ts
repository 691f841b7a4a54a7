/**
 * A file's lines as term ids, for the chunk index's build: a chunk's text is its lines joined
 * by '\n' and tokens never span a '\n', so each line is tokenized once, however many (nested)
 * chunks contain it, and a chunk counts its lines' ids.
 *
 * With the seed tokenizer a line's tokens are found and hashed straight from the line (the
 * class and the length from tokenize.ts: TOKEN_FOLD, MIN_TOKEN_CHARS), so a known term costs
 * no substring and no toLowerCase; tests check this yields exactly tokenize()'s tokens. Any
 * other tokenizer goes through its forEachToken and term().
 */
import { fnv1aStep, FNV_OFFSET } from '../hash';
import { ownString } from './indexed-chunk';
import { TermTable } from './term-table';
import { MIN_TOKEN_CHARS, seedTerm, seedTokenizer, TOKEN_FOLD, type Tokenizer } from './tokenize';

/** Adds a new term (absent from the table) with the token it was first seen as and its hash; returns its id. */
export type AddTerm = (term: string, raw: string, hash: number) => number;

export class LineTerms {
  /** term ids of the tokenized lines: line l's are ids[from[l], to[l]) */
  ids = new Int32Array(1 << 16);
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  private len = 0;

  constructor(private readonly tokenizer: Tokenizer = seedTokenizer) {}

  /** Start a file of `lineCount` lines: none tokenized yet. */
  reset(lineCount: number): void {
    if (this.from.length < lineCount) {
      const n = Math.max(lineCount, this.from.length * 2);
      this.from = new Int32Array(n);
      this.to = new Int32Array(n);
    }
    this.from.fill(-1, 0, lineCount);
    this.len = 0;
  }

  /** Tokenize line l (its text), once per reset(); new terms enter the table through addTerm. */
  line(l: number, text: string, table: TermTable, addTerm: AddTerm): void {
    if (this.from[l] >= 0) return;
    this.from[l] = this.len;
    if (this.tokenizer === seedTokenizer) this.seedLine(text, table, addTerm);
    else this.anyLine(text, table, addTerm);
    this.to[l] = this.len;
  }

  /** Any tokenizer: its forEachToken and term(). */
  private anyLine(text: string, table: TermTable, addTerm: AddTerm): void {
    const tokenizer = this.tokenizer;
    tokenizer.forEachToken(text, 0, text.length, (start, end) => {
      const raw = text.slice(start, end);
      const term = tokenizer.term(raw);
      let t = table.get(term);
      if (t < 0) t = addTerm(ownString(term), ownString(raw), TermTable.hashString(term));
      this.push(t);
    });
  }

  /** The seed tokenizer's fast path: forEachToken and seedTerm, hashing from the line. */
  private seedLine(text: string, table: TermTable, addTerm: AddTerm): void {
    const fold = TOKEN_FOLD;
    const minChars = MIN_TOKEN_CHARS;
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c0 = text.charCodeAt(i);
      if (c0 >= 128 || fold[c0] === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV_OFFSET | 0; // TermTable.hashString of the folded units
      for (;;) {
        h = fnv1aStep(h, fold[c0]);
        if (++i === n) break;
        c0 = text.charCodeAt(i);
        if (c0 >= 128 || fold[c0] === 0) break;
      }
      if (i - start >= minChars) {
        let t = table.find(text, start, i, h);
        if (t < 0) {
          const raw = ownString(text.slice(start, i));
          t = addTerm(ownString(seedTerm(raw)), raw, h);
        }
        this.push(t);
      }
    }
  }

  private push(t: number): void {
    if (this.len === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.len++] = t;
  }
}

/**
 * The identifier parts of the chunk index's compound terms, for the people ranker: a term
 * first seen as getUserById has the parts get, user, by, id (each a term of the index's
 * tokenizer), so the word "user" finds it (termsWithPart).
 */
import { isCompound, splitIdentifier } from './identifier-parts';

export class CompoundParts {
  /** compound term id -> its identifier parts (from the first cased spelling seen) */
  private parts = new Map<number, string[]>();
  /** part -> compound term ids containing it; rebuilt lazily */
  private byPart: Map<string, number[]> | null = null;
  /** term ids whose spelling was already looked at */
  private seen: Uint8Array = new Uint8Array(1024);

  /** `term` is the index tokenizer's term(): what a part counts as. */
  constructor(private readonly term: (raw: string) => string) {}

  /** Parts of a stored index: its first `termCount` term ids count as seen. */
  static loaded(
    term: (raw: string) => string,
    termCount: number,
    compounds: Iterable<[number, string[]]>,
  ): CompoundParts {
    const c = new CompoundParts(term);
    c.seen = new Uint8Array(Math.max(1024, termCount)).fill(1, 0, termCount);
    for (const [t, ps] of compounds) c.parts.set(t, ps);
    return c;
  }

  /** A new term id and the token it was first seen as (case kept): note its parts once. */
  note(t: number, raw: string): void {
    if (t < this.seen.length && this.seen[t]) return;
    if (t >= this.seen.length) {
      const grown = new Uint8Array(Math.max(t + 1, this.seen.length * 2));
      grown.set(this.seen);
      this.seen = grown;
    }
    this.seen[t] = 1;
    if (!isCompound(raw)) return;
    const parts = splitIdentifier(raw).map((p) => this.term(p));
    if (parts.length > 1) {
      this.parts.set(t, parts);
      this.byPart = null;
    }
  }

  /** Term ids whose identifier parts include `part`. */
  termsWithPart(part: string): number[] {
    if (!this.byPart) {
      const m = new Map<string, number[]>();
      for (const [t, ps] of this.parts) {
        for (const p of new Set(ps)) {
          let l = m.get(p);
          if (!l) m.set(p, (l = []));
          l.push(t);
        }
      }
      this.byPart = m;
    }
    return this.byPart.get(part) ?? [];
  }

  /** (term id, parts) of every compound, in the order they were noted. */
  entries(): IterableIterator<[number, string[]]> {
    return this.parts.entries();
  }
}

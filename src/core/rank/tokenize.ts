/**
 * The tokenizer, written once. Seed 004's rule: tokens are runs of ASCII letters, digits and
 * `_`, longer than one character, lowercased. Everything that counts or marks tokens goes
 * through this module:
 * - BM25 and find_related (bm25.ts): queries and seed texts through tokenize(); a file's lines
 *   through line-terms.ts, whose fast path hashes straight from the line with TOKEN_FOLD and
 *   MIN_TOKEN_CHARS (any other tokenizer goes through its forEachToken);
 * - the people ranker (people.ts), through the index's tokenizer;
 * - the snippet marker (mark-terms.ts).
 *
 * A Tokenizer is injected where it is used, MiniSearch-style (ChunkIndex's `tokenizer`
 * option, default seedTokenizer): forEachToken finds the tokens (ranges of the text, so they
 * can be marked), term() gives the term each one counts as.
 */

/** Tokens are at least this many UTF-16 code units long (seed 004: "longer than one character"). */
export const MIN_TOKEN_CHARS = 2;

/**
 * Whether a UTF-16 code unit can be part of a token: an ASCII letter, digit or `_`. False for
 * every unit from 128 on (TOKEN_FOLD covers the whole class).
 */
export function isTokenCode(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z
    (c >= 48 && c <= 57) || // 0-9
    c === 95 // _
  );
}

/**
 * Per ASCII code unit: its lowercase form when it is a token unit (isTokenCode), else 0. A
 * token's term is its units folded through this table (so a term can be hashed and compared
 * straight from the text, without a substring).
 */
export const TOKEN_FOLD: Uint8Array = (() => {
  const fold = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if (isTokenCode(c)) fold[c] = c >= 65 && c <= 90 ? c + 32 : c;
  return fold;
})();

/**
 * Calls onToken(start, end) for each of seed 004's tokens in text[from, to) (its ends count as
 * boundaries), in order: the maximal runs of isTokenCode units at least MIN_TOKEN_CHARS long.
 */
export function forEachToken(
  text: string,
  from: number,
  to: number,
  onToken: (start: number, end: number) => void,
): void {
  let start = -1;
  for (let i = from; i <= to; i++) {
    if (i < to && isTokenCode(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= MIN_TOKEN_CHARS) onToken(start, i);
      start = -1;
    }
  }
}

/** Seed 004's term of a token: its lowercase form (only ASCII letters change). */
export function seedTerm(raw: string): string {
  return raw.toLowerCase();
}

/**
 * How text becomes terms. Tokens are ranges of the text (so a marker can highlight them)
 * and never contain a '\n' (an index tokenizes a chunk line by line).
 */
export interface Tokenizer {
  /** Calls onToken(start, end) for each token of text[from, to), in order. */
  forEachToken(text: string, from: number, to: number, onToken: (start: number, end: number) => void): void;
  /** The term a token (text.slice(start, end), case kept) counts as. */
  term(raw: string): string;
}

/** Seed 004's tokenizer, the default everywhere (and the only one a stored index is valid for). */
export const seedTokenizer: Tokenizer = Object.freeze({ forEachToken, term: seedTerm });

/** The terms of `text`, with repeats, in order. */
export function tokenize(text: string, tokenizer: Tokenizer = seedTokenizer): string[] {
  const out: string[] = [];
  tokenizer.forEachToken(text, 0, text.length, (s, e) => void out.push(tokenizer.term(text.slice(s, e))));
  return out;
}

/** The same tokens with their case kept (the people analyzer splits them at case changes). */
export function tokenizeRaw(text: string, tokenizer: Tokenizer = seedTokenizer): string[] {
  const out: string[] = [];
  tokenizer.forEachToken(text, 0, text.length, (s, e) => void out.push(text.slice(s, e)));
  return out;
}

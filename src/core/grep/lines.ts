/**
 * Literal-anchored line search over raw UTF-8 bytes (a scan's, and the indexed path's verifier). Every hit
 * lies within one line and contains one of the matcher's required literals, so only the
 * lines holding a literal occurrence need decoding and matching: the occurrences are found
 * in the bytes (anchored on the literal's rarest byte with the native TypedArray.indexOf),
 * line numbers come from counting '\n' bytes, and each candidate line is decoded alone.
 * Decoding a line alone gives exactly that line of the whole file's decoding: UTF-8 decoders
 * restart at every ASCII byte, so a '\n' ends any incomplete sequence in both cases.
 */

import { byteRank, simdCount, simdCursors } from './simd-find';

/** The offset of a needle's rarest byte in source code (the anchor). */
function rarestIndex(needle: Uint8Array, caseless: boolean): number {
  let best = 0;
  const rank = (b: number) => byteRank(b, caseless);
  for (let i = 1; i < needle.length; i++) if (rank(needle[i]) < rank(needle[best])) best = i;
  return best;
}

/** Finds the next occurrence of one needle (case-sensitive bytes, or ASCII-caseless for a lowercase ASCII needle). */
export interface ByteFinder {
  /** the needle's length in bytes */
  readonly length: number;
  /** The first occurrence at or after `from` in `hay`, or -1. */
  next(hay: Uint8Array, from: number): number;
  /**
   * A stateful next() over one haystack for ascending `from`: each anchor byte is searched for
   * once however often it is asked (next() starts both of a caseless needle's anchor searches
   * afresh every call, so a case of the anchor that occurs only far ahead, or never, would be
   * searched for again and again up to the end of the haystack). Cursors given the same
   * `scope` object search the same bytes (see simd-find.ts: one copy serves them all).
   */
  cursor(hay: Uint8Array, scope?: object): (from: number) => number;
}

/**
 * From which needle length a skip search (Horspool) finds occurrences faster than the anchor
 * byte's native indexOf (measured over the bench corpus in V8: TypedArray.indexOf runs at
 * ~1.7 GB/s whatever the byte, while a skip search steps over most of a long needle's length
 * at a time; `createSourceFile` 83 -> 59 ms, a 35-byte needle 71 -> 20 ms; a 6-byte needle 61 ->
 * 109 ms). A caseless anchor is two indexOf searches (both cases), so a caseless needle gains
 * from a shorter length (`error` 317 -> 127 ms; `type` 132 -> 171 ms).
 */
export const SKIP_SEARCH = { minLength: 8, minCaselessLength: 5 };

/**
 * A finder for `needle`: the SIMD filter of simd-find.ts where WebAssembly SIMD runs and the
 * haystack is not tiny, else a search in JavaScript (jsByteFinder).
 */
export function byteFinder(needle: Uint8Array, caseless: boolean): ByteFinder {
  const js = jsByteFinder(needle, caseless);
  const simd = simdCursors(needle, caseless);
  if (!simd) return js;
  return {
    length: js.length,
    // (one search from `from`: a copy of the rest of the haystack per call would cost more)
    next: (hay, from) => js.next(hay, from),
    cursor: (hay, scope) => simd(hay, scope) ?? js.cursor(hay),
  };
}

/** A finder in JavaScript: Horspool's skip search for a long needle, else the anchor byte's native indexOf. */
export function jsByteFinder(needle: Uint8Array, caseless: boolean): ByteFinder {
  const n = needle.length;
  if (n >= (caseless ? SKIP_SEARCH.minCaselessLength : SKIP_SEARCH.minLength))
    return skipFinder(needle, caseless);
  const r = rarestIndex(needle, caseless);
  const lo = needle[r];
  const up = caseless && lo >= 97 && lo <= 122 ? lo - 32 : lo;
  const matchesAt = (hay: Uint8Array, start: number): boolean => {
    let k = 0;
    if (caseless) {
      while (k < n) {
        const b = hay[start + k];
        if ((b >= 65 && b <= 90 ? b + 32 : b) !== needle[k]) return false;
        k++;
      }
    } else {
      while (k < n && hay[start + k] === needle[k]) k++;
    }
    return k === n;
  };
  return {
    length: n,
    next(hay: Uint8Array, from: number): number {
      return this.cursor(hay)(from);
    },
    cursor(hay: Uint8Array): (from: number) => number {
      const lastStart = hay.length - n;
      // the next anchor of each case at or after the last position asked for (-1: none left)
      let a = -2;
      let b = up === lo ? -1 : -2;
      return (from: number): number => {
        if (from > lastStart) return -1;
        const at = from + r;
        if (a !== -1 && a < at) a = hay.indexOf(lo, at);
        if (b !== -1 && b < at) b = hay.indexOf(up, at);
        while (a !== -1 || b !== -1) {
          const i = a === -1 ? b : b === -1 ? a : a < b ? a : b;
          const start = i - r;
          if (start > lastStart) return -1;
          if (matchesAt(hay, start)) return start;
          if (i === a) a = hay.indexOf(lo, i + 1);
          else b = hay.indexOf(up, i + 1);
        }
        return -1;
      };
    },
  };
}

/**
 * Horspool's search: the needle's last byte is compared with the haystack's, and the haystack
 * byte there says how far the needle may move on (its distance from the needle's end, or the
 * whole length when it is not in the needle). Caseless: both cases of a letter share a shift.
 */
function skipFinder(needle: Uint8Array, caseless: boolean): ByteFinder {
  const n = needle.length;
  const last = n - 1;
  const shift = new Int32Array(256).fill(n);
  const fold = (b: number) => (caseless && b >= 97 && b <= 122 ? b - 32 : b);
  for (let i = 0; i < last; i++) {
    shift[needle[i]] = last - i;
    shift[fold(needle[i])] = last - i;
  }
  const lo = needle[last];
  const up = fold(lo);
  const find = (hay: Uint8Array, from: number): number => {
    const end = hay.length - n;
    let i = from < 0 ? 0 : from;
    while (i <= end) {
      const c = hay[i + last];
      if (c === lo || c === up) {
        let k = last - 1;
        if (caseless) {
          for (; k >= 0; k--) {
            const b = hay[i + k];
            if ((b >= 65 && b <= 90 ? b + 32 : b) !== needle[k]) break;
          }
        } else {
          while (k >= 0 && hay[i + k] === needle[k]) k--;
        }
        if (k < 0) return i;
      }
      i += shift[c];
    }
    return -1;
  };
  return {
    length: n,
    next: find,
    cursor: (hay) => (from) => find(hay, from),
  };
}

/**
 * The lines of hay[from, hay.length) holding an occurrence of any needle, in order: next()
 * gives a line's start (or -1 when there are no more) and sets `end` to the line's end (its
 * '\n', or hay.length). Needles hold no '\n', so an occurrence lies inside one line.
 */
export class CandidateLines {
  /** the end of the line next() gave last */
  end = 0;
  private readonly cursors: Array<(from: number) => number>;
  /** per needle: its next occurrence at or after the current position, or -1 */
  private readonly at: number[];
  /** the scope of the cursors (one copy of the haystack serves them all, and cursors over its lines; see simd-find.ts) */
  readonly scope = {};
  /** the next '\n' at or after a position (ascending) */
  private readonly newline: (from: number) => number;

  constructor(
    private readonly hay: Uint8Array,
    private readonly from: number,
    finders: readonly ByteFinder[],
  ) {
    this.cursors = finders.map((f) => f.cursor(hay, this.scope));
    this.newline = NEWLINE.cursor(hay, this.scope);
    this.at = this.cursors.map((c) => c(from));
  }

  /** countNewlines(hay, a, b), from the cursors' copy of the haystack when it holds those bytes. */
  countNewlines(a: number, b: number): number {
    return simdCount(this.scope, a, b, 10) ?? countNewlines(this.hay, a, b);
  }

  next(): number {
    const at = this.at;
    let i = -1;
    for (let k = 0; k < at.length; k++) if (at[k] !== -1 && (i === -1 || at[k] < i)) i = at[k];
    if (i === -1) return -1;
    const hay = this.hay;
    const ls = Math.max(this.from, lineStart(hay, i));
    const nl = this.newline(i);
    this.end = nl === -1 ? hay.length : nl;
    for (let k = 0; k < at.length; k++)
      if (at[k] !== -1 && at[k] <= this.end) at[k] = nl === -1 ? -1 : this.cursors[k](nl + 1);
    return ls;
  }
}

/** A finder of '\n'. */
const NEWLINE = byteFinder(new Uint8Array([10]), false);

/**
 * The start of the line holding hay[i]: a few bytes back by hand (most lines are short), then
 * the native search (a call costs as much as stepping over some 30 bytes).
 */
export function lineStart(hay: Uint8Array, i: number): number {
  for (let j = i, stop = Math.max(0, i - 32); j > stop; j--) if (hay[j - 1] === 10) return j;
  return i <= 32 ? 0 : hay.lastIndexOf(10, i - 33) + 1;
}

/** Start offsets of the lines (after `from`) holding an occurrence of any needle, ascending, distinct. */
export function candidateLineStarts(bytes: Uint8Array, from: number, finders: ByteFinder[]): number[] {
  const lines = new CandidateLines(bytes, from, finders);
  const out: number[] = [];
  for (let ls = lines.next(); ls !== -1; ls = lines.next()) out.push(ls);
  return out;
}

/** The last buffer countNewlines() counted in, and a word view of it (a view per call costs more than short counts). */
let wordsOf: ArrayBufferLike | null = null;
let wordView: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

/** Number of '\n' bytes in bytes[start, end) (four bytes at a time). */
export function countNewlines(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  let i = start;
  if (end - start < 32) {
    // a plain loop costs less than setting up the words
    for (; i < end; i++) if (bytes[i] === 10) n++;
    return n;
  }
  const base = bytes.byteOffset;
  while (i < end && (base + i) & 3) if (bytes[i++] === 10) n++;
  const words = (end - i) >> 2;
  if (words > 0) {
    if (wordsOf !== bytes.buffer || wordView.length < (base + i) / 4 + words) {
      wordsOf = bytes.buffer;
      wordView = new Uint32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
    }
    const w = wordView;
    // flags of up to 255 words are summed per byte lane before they are added up
    let acc = 0;
    for (let k = (base + i) >> 2, last = k + words; k < last;) {
      const stop = Math.min(last, k + 255);
      for (; k < stop; k++) {
        // a byte of v is zero exactly where the word had '\n'; t gets that byte's high bit set
        const v = w[k] ^ 0x0a0a0a0a;
        const t = ~(((v & 0x7f7f7f7f) + 0x7f7f7f7f) | v | 0x7f7f7f7f);
        acc = (acc + (t >>> 7)) | 0;
      }
      n += (acc & 0xff) + ((acc >>> 8) & 0xff) + ((acc >>> 16) & 0xff) + (acc >>> 24);
      acc = 0;
    }
    i += words * 4;
  }
  while (i < end) if (bytes[i++] === 10) n++;
  return n;
}

/**
 * Literal-anchored line search over raw UTF-8 bytes (the indexed path's verifier). Every hit
 * lies within one line and contains one of the matcher's required literals, so only the
 * lines holding a literal occurrence need decoding and matching: the occurrences are found
 * in the bytes (anchored on the literal's rarest byte with the native TypedArray.indexOf),
 * line numbers come from counting '\n' bytes, and each candidate line is decoded alone.
 * Decoding a line alone gives exactly that line of the whole file's decoding: UTF-8 decoders
 * restart at every ASCII byte, so a '\n' ends any incomplete sequence in both cases.
 */

/** Rough frequency rank of bytes in source code (higher = more common); the anchor is the rarest. */
const COMMON = ' etaoinsrlcdupmhfgybw.,;()=\'"_/\n\t{}:-xvkEPTSCRAIONLD0123456789';
const RANK = new Uint8Array(256);
for (let i = 0; i < COMMON.length; i++) RANK[COMMON.charCodeAt(i)] = COMMON.length - i;

function rarestIndex(needle: Uint8Array, caseless: boolean): number {
  let best = 0;
  const rank = (b: number) => (caseless && b >= 97 && b <= 122 ? Math.max(RANK[b], RANK[b - 32]) : RANK[b]);
  for (let i = 1; i < needle.length; i++) if (rank(needle[i]) < rank(needle[best])) best = i;
  return best;
}

/** Finds the next occurrence of one needle (case-sensitive bytes, or ASCII-caseless for a lowercase ASCII needle). */
export interface ByteFinder {
  next(hay: Uint8Array, from: number): number;
}

export function byteFinder(needle: Uint8Array, caseless: boolean): ByteFinder {
  const n = needle.length;
  const r = rarestIndex(needle, caseless);
  const lo = needle[r];
  const up = caseless && lo >= 97 && lo <= 122 ? lo - 32 : lo;
  const fold = (b: number) => (b >= 65 && b <= 90 ? b + 32 : b);
  return {
    next(hay: Uint8Array, from: number): number {
      const lastStart = hay.length - n;
      if (from > lastStart) return -1;
      let a = hay.indexOf(lo, from + r);
      let b = up === lo ? -1 : hay.indexOf(up, from + r);
      while (a !== -1 || b !== -1) {
        const i = a === -1 ? b : b === -1 ? a : Math.min(a, b);
        const start = i - r;
        if (start > lastStart) return -1;
        let k = 0;
        if (caseless) while (k < n && fold(hay[start + k]) === needle[k]) k++;
        else while (k < n && hay[start + k] === needle[k]) k++;
        if (k === n) return start;
        if (i === a) a = hay.indexOf(lo, i + 1);
        else b = hay.indexOf(up, i + 1);
      }
      return -1;
    },
  };
}

/** Start offsets of the lines (after `from`) holding an occurrence of any needle, ascending, distinct. */
export function candidateLineStarts(bytes: Uint8Array, from: number, finders: ByteFinder[]): number[] {
  const perNeedle: number[][] = [];
  for (const f of finders) {
    const starts: number[] = [];
    let i = f.next(bytes, from);
    while (i !== -1) {
      const ls = Math.max(from, bytes.lastIndexOf(10, i) + 1);
      starts.push(ls);
      const nl = bytes.indexOf(10, i);
      if (nl === -1) break;
      i = f.next(bytes, nl + 1);
    }
    perNeedle.push(starts);
  }
  if (perNeedle.length === 1) return perNeedle[0];
  const all = perNeedle.flat().sort((a, b) => a - b);
  let w = 0;
  for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[w++] = all[k];
  all.length = w;
  return all;
}

/** Number of '\n' bytes in bytes[start, end) (four bytes at a time). */
export function countNewlines(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  let i = start;
  while (i < end && (bytes.byteOffset + i) & 3) if (bytes[i++] === 10) n++;
  const words = (end - i) >> 2;
  if (words > 0) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      // a byte of v is zero exactly where the word had '\n'; t gets that byte's high bit set
      const v = w[k] ^ 0x0a0a0a0a;
      const t = ~(((v & 0x7f7f7f7f) + 0x7f7f7f7f) | v | 0x7f7f7f7f);
      // the four flag bits moved to the bytes' low bits, summed into the top byte
      n += Math.imul((t >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  while (i < end) if (bytes[i++] === 10) n++;
  return n;
}

/**
 * Bytes -> text, the way git and ripgrep decide: a byte-order mark picks UTF-8 or UTF-16;
 * otherwise a NUL byte in the first 8 KiB means binary; everything else is UTF-8 with
 * invalid sequences replaced by U+FFFD (never an exception).
 */
export const BINARY_SNIFF_BYTES = 8192;

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

export type Decoded = { binary: false; text: string; encoding: TextEncodingName } | { binary: true };

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
let utf16le: TextDecoder | null = null;

function decodeUtf16(bytes: Uint8Array, bigEndian: boolean): string {
  let data = bytes;
  if (bigEndian) {
    // Swap to little-endian ourselves: not every runtime ships a utf-16be decoder.
    data = new Uint8Array(bytes.length - (bytes.length % 2));
    for (let i = 0; i + 1 < bytes.length; i += 2) {
      data[i] = bytes[i + 1];
      data[i + 1] = bytes[i];
    }
  }
  utf16le ??= new TextDecoder('utf-16le', { fatal: false, ignoreBOM: true });
  return utf16le.decode(data);
}

export function hasNulByte(bytes: Uint8Array, limit = BINARY_SNIFF_BYTES): boolean {
  const end = Math.min(bytes.length, limit);
  // indexOf on a subarray is a native memchr.
  return bytes.subarray(0, end).indexOf(0) !== -1;
}

export function decodeBytes(bytes: Uint8Array): Decoded {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { binary: false, text: utf8.decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { binary: false, text: decodeUtf16(bytes.subarray(2), false), encoding: 'utf-16le' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { binary: false, text: decodeUtf16(bytes.subarray(2), true), encoding: 'utf-16be' };
  }
  if (hasNulByte(bytes)) return { binary: true };
  return { binary: false, text: utf8.decode(bytes), encoding: 'utf-8' };
}

/**
 * Rough frequency rank of bytes in source code (higher = more common), used to anchor a byte
 * search on the needle's rarest byte: TypedArray.indexOf then runs natively over long
 * stretches instead of stopping at every 'e' or space.
 */
const COMMON = ' etaoinsrlcdupmhfgybw.,;()=\'"_/\n\t{}:-xvkEPTSCRAIONLD0123456789';
const RANK = new Uint8Array(256);
for (let i = 0; i < COMMON.length; i++) RANK[COMMON.charCodeAt(i)] = COMMON.length - i;

function rarestIndex(needle: Uint8Array): number {
  let best = 0;
  for (let i = 1; i < needle.length; i++) if (RANK[needle[i]] < RANK[needle[best]]) best = i;
  return best;
}

/** Whether `haystack` contains `needle` (anchored on the needle's rarest byte, found natively). */
export function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  const n = needle.length;
  if (n === 0) return true;
  const r = rarestIndex(needle);
  const anchor = needle[r];
  const lastStart = haystack.length - n;
  let i = haystack.indexOf(anchor, r);
  while (i !== -1) {
    const start = i - r;
    if (start > lastStart) return false;
    let k = 0;
    while (k < n && haystack[start + k] === needle[k]) k++;
    if (k === n) return true;
    i = haystack.indexOf(anchor, i + 1);
  }
  return false;
}

const lowerAscii = (b: number) => (b >= 65 && b <= 90 ? b + 32 : b);

/**
 * ASCII case-insensitive containment for a lowercase ASCII needle. Callers must still treat
 * files holding U+212A (E2 84 AA) or U+017F (C5 BF) as candidates when the needle has k or s.
 */
export function containsBytesCaseless(haystack: Uint8Array, lowerNeedle: Uint8Array): boolean {
  const n = lowerNeedle.length;
  if (n === 0) return true;
  const r = rarestIndex(lowerNeedle);
  const lo = lowerNeedle[r];
  const up = lo >= 97 && lo <= 122 ? lo - 32 : lo;
  const lastStart = haystack.length - n;
  let a = haystack.indexOf(lo, r);
  let b = up === lo ? -1 : haystack.indexOf(up, r);
  while (a !== -1 || b !== -1) {
    const i = a === -1 ? b : b === -1 ? a : Math.min(a, b);
    const start = i - r;
    if (start > lastStart) return false;
    let k = 0;
    while (k < n && lowerAscii(haystack[start + k]) === lowerNeedle[k]) k++;
    if (k === n) return true;
    if (i === a) a = haystack.indexOf(lo, i + 1);
    else b = haystack.indexOf(up, i + 1);
  }
  return false;
}

export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  );
}

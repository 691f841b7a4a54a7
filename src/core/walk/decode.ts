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

/** Whether `haystack` contains `needle` (TypedArray.indexOf finds candidates natively). */
export function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  const n = needle.length;
  if (n === 0) return true;
  const first = needle[0];
  const last = haystack.length - n;
  let i = haystack.indexOf(first);
  while (i !== -1 && i <= last) {
    let k = 1;
    while (k < n && haystack[i + k] === needle[k]) k++;
    if (k === n) return true;
    i = haystack.indexOf(first, i + 1);
  }
  return false;
}

export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

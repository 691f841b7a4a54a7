/**
 * Decoding one line's bytes (or an ASCII run of them) as text, without TextDecoder's per-call
 * cost for short ASCII runs.
 */
import { hasNulByte } from '../walk/decode';
import type { Workspace } from '../source/workspace';

/** Whether every code unit of `s` is ASCII (below 128). */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return false;
  return true;
}

export const lineDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** ASCII bytes[a, b) as text (TextDecoder's answer, without its per-call cost for short runs). */
export function asciiText(bytes: Uint8Array, a: number, b: number): string {
  if (b - a > 64) return lineDecoder.decode(bytes.subarray(a, b));
  let s = '';
  for (let i = a; i < b; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/**
 * bytes[start, end) as text (UTF-8, U+FFFD for invalid sequences, a U+FEFF kept): the source's
 * own decoder when it has one (no per-call cost to speak of), else decodeLine's choice.
 */
export function decodeRange(
  source: Workspace['roots'][number],
  bytes: Uint8Array,
  start: number,
  end: number,
): string {
  if (source.decodeUtf8) return source.decodeUtf8(bytes, start, end);
  return decodeLine(source, bytes.subarray(start, end));
}

/**
 * One line's bytes as text (UTF-8, U+FFFD for invalid sequences, a U+FEFF kept): for a long
 * line the source's faster decoder when its answer is sure to be plain UTF-8 for this slice
 * (no BOM-like start, no NUL for its binary sniffing), else TextDecoder.
 */
export function decodeLine(source: Workspace['roots'][number], line: Uint8Array): string {
  if (line.length <= 64) {
    let ascii = true;
    for (let i = 0; i < line.length; i++) {
      if (line[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return asciiText(line, 0, line.length);
  }
  if (source.decode && line.length >= 1024) {
    const b0 = line[0];
    const b1 = line[1];
    const bomLike =
      (b0 === 0xef && b1 === 0xbb) || (b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff);
    if (!bomLike && !hasNulByte(line)) {
      const d = source.decode(line);
      if (!d.binary && d.encoding === 'utf-8') return d.text;
    }
  }
  return lineDecoder.decode(line);
}

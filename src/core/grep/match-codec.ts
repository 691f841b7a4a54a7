/**
 * Matches as they cross a thread boundary: one string (every line text and context line, end
 * to end) and one Int32Array (line numbers, preview starts, hit ranges, lengths). Cloning
 * thousands of small objects costs far more than these two: a lane encodes what it hands back,
 * and the coordinator decodes only the matches it delivers.
 */
import type { GrepMatch, HitRange } from './types';

export interface PackedMatches {
  /** Per match: line, textStart (-1: none), ranges count, ranges..., before count, after count, then each string's length (text, before..., after...). */
  meta: Int32Array;
  text: string;
  /** Where each match starts in `meta`, and in `text`. */
  at: Int32Array;
}

export function packMatches(matches: readonly Omit<GrepMatch, 'path'>[]): PackedMatches {
  const meta: number[] = [];
  const at = new Int32Array(2 * matches.length);
  const parts: string[] = [];
  let textLen = 0;
  matches.forEach((m, i) => {
    at[2 * i] = meta.length;
    at[2 * i + 1] = textLen;
    meta.push(m.line, m.textStart ?? -1, m.ranges.length);
    for (const [s, e] of m.ranges) meta.push(s, e);
    meta.push(m.contextBefore.length, m.contextAfter.length);
    for (const s of [m.text, ...m.contextBefore, ...m.contextAfter]) {
      meta.push(s.length);
      parts.push(s);
      textLen += s.length;
    }
  });
  return { meta: Int32Array.from(meta), text: parts.join(''), at };
}

export function matchCount(p: PackedMatches): number {
  return p.at.length / 2;
}

/** The i-th match, under `path`. */
export function unpackMatch(p: PackedMatches, i: number, path: string): GrepMatch {
  const { meta, text } = p;
  let k = p.at[2 * i];
  let t = p.at[2 * i + 1];
  const line = meta[k++];
  const textStart = meta[k++];
  const nRanges = meta[k++];
  const ranges: HitRange[] = [];
  for (let r = 0; r < nRanges; r++, k += 2) ranges.push([meta[k], meta[k + 1]]);
  const nBefore = meta[k++];
  const nAfter = meta[k++];
  const take = () => {
    const len = meta[k++];
    const s = text.slice(t, t + len);
    t += len;
    return s;
  };
  const lineText = take();
  const contextBefore: string[] = [];
  for (let b = 0; b < nBefore; b++) contextBefore.push(take());
  const contextAfter: string[] = [];
  for (let a = 0; a < nAfter; a++) contextAfter.push(take());
  return {
    path,
    line,
    text: lineText,
    ranges,
    ...(textStart >= 0 ? { textStart } : {}),
    contextBefore,
    contextAfter,
  };
}

/**
 * A file's matches as blocks of lines for the results list: core's mergeBlocks (its own
 * module, so the main bundle does not pull in the search engine).
 */
import { mergeBlocks } from '../core/grep/blocks';
import type { GrepMatch, HitRange } from '../core/grep/types';

export interface BlockLine {
  line: number;
  text: string;
  ranges: HitRange[] | null;
  /** where a long hit line's preview window starts in the line (GrepMatch.textStart) */
  textStart?: number;
}

export function toBlocks(matches: GrepMatch[]): BlockLine[][] {
  return mergeBlocks(matches).map((b) => b.lines);
}

/** A hit row starts this many characters before its first hit when that hit lies further on than HIT_LEAD_MAX. */
export const HIT_LEAD = 24;
export const HIT_LEAD_MAX = 40;

/**
 * Where a result row starts showing a hit line: HIT_LEAD characters before the first hit when
 * that hit starts past HIT_LEAD_MAX (as VS Code's search view does), so the hit is in view in
 * a narrow pane; else 0. Never inside a surrogate pair.
 */
export function hitShift(text: string, ranges: readonly HitRange[]): number {
  let shift = ranges.length && ranges[0][0] > HIT_LEAD_MAX ? ranges[0][0] - HIT_LEAD : 0;
  const c = text.charCodeAt(shift);
  if (shift > 0 && c >= 0xdc00 && c <= 0xdfff) shift--;
  return shift;
}

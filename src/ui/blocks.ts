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

/**
 * Characters of a line a results row renders from where it starts showing it: more than the
 * widest pane holds (the rest is cut by the row's ellipsis anyway), far less than a long line's
 * 1,000-character preview, which the browser would shape whole in the frame that shows a batch.
 */
export const ROW_CHARS = 400;

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

/** `column` moved back off the second half of a surrogate pair (a cut never splits a character), at most the text's length. */
export function cutColumn(text: string, column: number): number {
  if (column >= text.length) return text.length;
  const c = text.charCodeAt(column);
  return column > 0 && c >= 0xdc00 && c <= 0xdfff ? column - 1 : column;
}

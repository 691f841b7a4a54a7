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

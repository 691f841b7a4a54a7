/**
 * How search results are cut into the messages the page receives. The page reads a message
 * (structured-clone copy included) in one task, so a message is bounded by what it holds, not
 * only by how many matches: a match on a minified line carries up to 1,000 characters of line
 * and as many per context line, and 200 such matches made one ~20 ms task in the real-tree check.
 */
import type { GrepFileResult, GrepMatch } from '../core/grep/types';
import { BATCH_MAX_ITEMS } from './protocol';

/** Characters of line and context text that weigh as much as one more match. */
export const BATCH_CHARS_PER_ITEM = 1000;

/** What a match weighs in a batch: one, plus its characters (line and context lines) per BATCH_CHARS_PER_ITEM. */
export function matchWeight(m: GrepMatch): number {
  let chars = m.text.length;
  for (const l of m.contextBefore) chars += l.length;
  for (const l of m.contextAfter) chars += l.length;
  return 1 + chars / BATCH_CHARS_PER_ITEM;
}

export function fileWeight(file: GrepFileResult): number {
  let w = 0;
  for (const m of file.matches) w += matchWeight(m);
  return w;
}

/**
 * A file's matches in order, in slices that weigh at most `max` each (a slice holds at least
 * one match); a file within `max` is handed back as it is. The page joins consecutive slices of
 * one path into one file (ui/result-stream.ts).
 */
export function fileSlices(file: GrepFileResult, max = BATCH_MAX_ITEMS): GrepFileResult[] {
  if (fileWeight(file) <= max) return [file];
  const out: GrepFileResult[] = [];
  let start = 0;
  let weight = 0;
  for (let i = 0; i < file.matches.length; i++) {
    const w = matchWeight(file.matches[i]);
    if (i > start && weight + w > max) {
      out.push({ path: file.path, matches: file.matches.slice(start, i) });
      start = i;
      weight = 0;
    }
    weight += w;
  }
  out.push({ path: file.path, matches: file.matches.slice(start) });
  return out;
}

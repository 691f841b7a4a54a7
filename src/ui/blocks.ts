/**
 * Group a file's matches with their context into blocks, joining windows that overlap or
 * touch (as ripgrep prints them). Same rule as core's mergeBlocks; kept here so the main
 * bundle does not pull the search engine's module (and its regex engine) out of the worker.
 */
import type { GrepMatch, HitRange } from '../core/grep/types';

export interface BlockLine {
  line: number;
  text: string;
  ranges: HitRange[] | null;
}

export function toBlocks(matches: GrepMatch[]): BlockLine[][] {
  const blocks: BlockLine[][] = [];
  let cur: BlockLine[] | null = null;
  for (const m of matches) {
    const first = m.line - m.contextBefore.length;
    const rows: BlockLine[] = [
      ...m.contextBefore.map((text, i) => ({ line: first + i, text, ranges: null })),
      { line: m.line, text: m.text, ranges: m.ranges },
      ...m.contextAfter.map((text, i) => ({ line: m.line + 1 + i, text, ranges: null })),
    ];
    const last = cur ? cur[cur.length - 1].line : -Infinity;
    if (cur && first <= last + 1) {
      for (const row of rows) {
        if (row.line <= last) {
          const existing = cur.find((l) => l.line === row.line);
          if (existing && row.ranges) existing.ranges = row.ranges;
        } else cur.push(row);
      }
    } else {
      cur = rows;
      blocks.push(cur);
    }
  }
  return blocks;
}

/**
 * Merge each file's matches with their context into blocks: windows that overlap or touch
 * join (as ripgrep prints them). Its own module, with no engine imports, so the UI's main
 * bundle can use it without pulling in the search engine.
 */
import type { GrepMatch, HitRange } from './types';

export interface Block {
  path: string;
  startLine: number;
  /** textStart: where a hit line's preview window starts in the line (see GrepMatch) */
  lines: { line: number; text: string; ranges: HitRange[] | null; textStart?: number }[];
}

export function mergeBlocks(matches: GrepMatch[]): Block[] {
  const blocks: Block[] = [];
  let cur: Block | null = null;
  for (const m of matches) {
    const first = m.line - m.contextBefore.length;
    const rows: Block['lines'] = [
      ...m.contextBefore.map((text, i) => ({ line: first + i, text, ranges: null as HitRange[] | null })),
      {
        line: m.line,
        text: m.text,
        ranges: m.ranges as HitRange[] | null,
        ...(m.textStart ? { textStart: m.textStart } : {}),
      },
      ...m.contextAfter.map((text, i) => ({ line: m.line + 1 + i, text, ranges: null as HitRange[] | null })),
    ];
    const lastLine: number = cur ? cur.lines[cur.lines.length - 1].line : -Infinity;
    if (cur && cur.path === m.path && first <= lastLine + 1) {
      for (const row of rows) {
        if (row.line <= lastLine) {
          // overlap: a context row may be a match row of this match (a block's lines are
          // consecutive, so its row is found by position: a file with a thousand hits in one
          // block made a search of the whole block per row, ~0.5 s on the UI's thread)
          const existing = cur.lines[row.line - cur.lines[0].line];
          if (existing?.line === row.line && row.ranges) Object.assign(existing, row); // its text may be a preview window
          continue;
        }
        cur.lines.push(row);
      }
    } else {
      cur = { path: m.path, startLine: first, lines: rows };
      blocks.push(cur);
    }
  }
  return blocks;
}

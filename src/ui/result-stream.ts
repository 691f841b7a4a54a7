/**
 * The text/regex results list's rows, built as results stream in, a bounded amount at a time:
 * a file with thousands of hits (a generated `index.d.ts`) is taken a few hundred matches at a
 * time, so the main thread gives way in between (one such file was a 100-600 ms task on a real
 * tree). The blocks of one part join those of the part before when their lines touch, so the
 * rows are the same as from the whole file at once. A result for the same path as the one
 * before it (a file sent in pieces) continues that file. Plain TS, tested in Node.
 */
import type { GrepFileResult, GrepMatch, HitRange } from '../core/grep/types';
import { hitShift, toBlocks, type BlockLine } from './blocks';

export type Row =
  | { kind: 'file'; path: string; count: number }
  /**
   * shift: where the row starts showing `text` (a hit row may start near its first hit); from:
   * that column in the whole line (`text` itself may be a window of a long line)
   */
  | { kind: 'line'; path: string; line: number; text: string; ranges: HitRange[] | null; hit: number; shift: number; from: number }
  | { kind: 'gap'; path: string };

/** Matches of one file turned into rows in one step. */
export const MATCHES_PER_STEP = 256;

export class ResultRows {
  readonly rows: Row[] = [];
  /** Indexes in `rows` of the hit rows, in order. */
  readonly hits: number[] = [];
  /** The file whose rows end the list: its header row, and its last line and that line's row. */
  private tail: { path: string; header: number; line: number; row: number } | null = null;
  private queue: { file: GrepFileResult; from: number }[] = [];

  /** Queue a batch (nothing is built yet: see step()). */
  push(files: readonly GrepFileResult[]): void {
    for (const file of files) this.queue.push({ file, from: 0 });
  }

  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Build the rows of up to MATCHES_PER_STEP matches of the queue's first file; false when nothing was queued. */
  step(): boolean {
    const next = this.queue[0];
    if (!next) return false;
    const { file, from } = next;
    const to = Math.min(file.matches.length, from + MATCHES_PER_STEP);
    this.add(file.path, file.matches.length, file.matches.slice(from, to), from === 0);
    if (to >= file.matches.length) this.queue.shift();
    else next.from = to;
    return true;
  }

  private add(path: string, fileMatches: number, matches: GrepMatch[], firstPart: boolean): void {
    const tail = this.tail?.path === path ? this.tail : null;
    if (!tail) {
      this.rows.push({ kind: 'file', path, count: fileMatches });
      this.tail = { path, header: this.rows.length - 1, line: -Infinity, row: -1 };
    } else if (firstPart) {
      // the same file sent again in pieces: one header, counting both
      const header = this.rows[tail.header] as Extract<Row, { kind: 'file' }>;
      this.rows[tail.header] = { ...header, count: header.count + fileMatches };
    }
    const t = this.tail!;
    toBlocks(matches).forEach((block, b) => {
      let lines: BlockLine[] = block;
      if (b === 0 && t.row >= 0 && block[0].line <= t.line + 1) {
        // joins the block before: a line already shown as context may be a hit of this part
        for (const l of block) {
          if (l.line > t.line) break;
          const at = t.row - (t.line - l.line);
          const row = this.rows[at];
          if (l.ranges && row?.kind === 'line' && row.line === l.line && !row.ranges) {
            this.rows[at] = this.lineRow(path, l, at);
          }
        }
        lines = block.filter((l) => l.line > t.line);
      } else if (t.row >= 0) this.rows.push({ kind: 'gap', path });
      for (const l of lines) {
        this.rows.push(this.lineRow(path, l, this.rows.length));
        t.line = l.line;
        t.row = this.rows.length - 1;
      }
    });
  }

  private lineRow(path: string, l: BlockLine, at: number): Row {
    const hit = l.ranges ? this.hits.length : -1;
    if (l.ranges) this.hits.push(at);
    const shift = l.ranges ? hitShift(l.text, l.ranges) : 0;
    return { kind: 'line', path, line: l.line, text: l.text, ranges: l.ranges, hit, shift, from: (l.textStart ?? 0) + shift };
  }
}

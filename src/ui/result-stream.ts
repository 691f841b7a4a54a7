/**
 * The text/regex results list's rows, built as results stream in, a bounded amount at a time:
 * a file with thousands of hits (a generated `index.d.ts`) is taken a few hundred matches at a
 * time, so the main thread gives way in between (one such file was a 100-600 ms task on a real
 * tree). The blocks of one part join those of the part before when their lines touch, so the
 * rows are the same as from the whole file at once. A result for a path already seen (a file
 * sent in pieces) continues that file. Rows are kept per file, with each file's relevance facts,
 * so the list can show files in relevance or path order. Plain TS, tested in Node.
 */
import type { GrepFileResult, GrepMatch, HitRange } from '../core/grep/types';
import { addMatches, pathRank, type TextFileRank } from '../core/grep/text-relevance';
import { hitShift, toBlocks, type BlockLine } from './blocks';

export type Row =
  | { kind: 'file'; path: string; count: number }
  /**
   * shift: where the row starts showing `text` (a hit row may start near its first hit); from:
   * that column in the whole line (`text` itself may be a window of a long line)
   */
  | {
      kind: 'line';
      path: string;
      line: number;
      text: string;
      ranges: HitRange[] | null;
      hit: number;
      shift: number;
      from: number;
    }
  | { kind: 'gap'; path: string };

/** Matches of one file turned into rows in one step. */
export const MATCHES_PER_STEP = 256;

/** One file's rows (its header first) and what orders it among the others. */
export interface FileRows {
  readonly path: string;
  readonly rows: Row[];
  /** Relevance facts, updated as its matches are added. */
  readonly rank: TextFileRank;
  /** Its last line shown so far, and that line's index in `rows`. */
  line: number;
  row: number;
  /**
   * Every part of it queued so far is built (its rows stop growing): the list shows a file from
   * then on, so a file above the rows a person reads never grows under them. A part that comes
   * later still (its parts arrive in one burst of messages, so seldom) is added to it.
   */
  settled: boolean;
}

/**
 * The rows of one search, kept per file so the list can show the files in any order
 * (result-order.ts): `files` in arrival order, `rowsIn(order)` the list's rows.
 */
export class ResultRows {
  /** Files in the order their first results arrived. */
  readonly files: FileRows[] = [];
  private byPath = new Map<string, FileRows>();
  /** Hit rows built so far (a hit row's `hit` is its place among them, in arrival order). */
  hitCount = 0;
  private queue: { file: GrepFileResult; from: number }[] = [];

  /** `words`: the query's words (text-relevance.ts queryWords), for the files' ranks. */
  constructor(private readonly words: readonly string[] = []) {}

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
    if (to >= file.matches.length) {
      this.queue.shift();
      if (this.queue[0]?.file.path !== file.path) this.byPath.get(file.path)!.settled = true;
    } else next.from = to;
    return true;
  }

  /** The file at `path` once its first rows are built. */
  file(path: string): FileRows | undefined {
    return this.byPath.get(path);
  }

  /** Every row, file after file in `order` (paths of `files`). */
  rowsIn(order: readonly string[]): Row[] {
    const out: Row[] = [];
    for (const path of order) {
      const f = this.byPath.get(path);
      if (f) for (const row of f.rows) out.push(row);
    }
    return out;
  }

  /** Every row in arrival order (walk order: the engine's). */
  get rows(): Row[] {
    return this.rowsIn(this.files.map((f) => f.path));
  }

  private add(path: string, fileMatches: number, matches: GrepMatch[], firstPart: boolean): void {
    let t = this.byPath.get(path);
    if (!t) {
      t = {
        path,
        rows: [{ kind: 'file', path, count: fileMatches }],
        rank: pathRank(path, this.words),
        line: -Infinity,
        row: -1,
        settled: false,
      };
      this.files.push(t);
      this.byPath.set(path, t);
    } else if (firstPart) {
      // the same file sent again in pieces: one header, counting both
      const header = t.rows[0] as Extract<Row, { kind: 'file' }>;
      t.rows[0] = { ...header, count: header.count + fileMatches };
    }
    addMatches(t.rank, matches);
    const rows = t.rows;
    toBlocks(matches).forEach((block, b) => {
      let lines: BlockLine[] = block;
      if (b === 0 && t.row >= 0 && block[0].line <= t.line + 1) {
        // joins the block before: a line already shown as context may be a hit of this part
        for (const l of block) {
          if (l.line > t.line) break;
          const at = t.row - (t.line - l.line);
          const row = rows[at];
          if (l.ranges && row?.kind === 'line' && row.line === l.line && !row.ranges)
            rows[at] = this.lineRow(path, l);
        }
        lines = block.filter((l) => l.line > t.line);
      } else if (t.row >= 0) rows.push({ kind: 'gap', path });
      for (const l of lines) {
        rows.push(this.lineRow(path, l));
        t.line = l.line;
        t.row = rows.length - 1;
      }
    });
  }

  private lineRow(path: string, l: BlockLine): Row {
    const hit = l.ranges ? this.hitCount++ : -1;
    const shift = l.ranges ? hitShift(l.text, l.ranges) : 0;
    return {
      kind: 'line',
      path,
      line: l.line,
      text: l.text,
      ranges: l.ranges,
      hit,
      shift,
      from: (l.textStart ?? 0) + shift,
    };
  }
}

/**
 * Rows for the two diff layouts, built from an edit script: side by side (a deleted line and
 * the inserted line paired with it share a row) and inline (deletions, then insertions).
 * Unchanged regions further than `context` lines from a change collapse into a gap row that
 * carries the next hunk's `@@ -a,n +b,m @@` header and can be expanded (by its id). Rows
 * refer to lines by index; the view looks the text up, so a 50,000-line diff builds in a few
 * milliseconds and only the rows on screen are drawn.
 */
import type { DiffOp } from './ops';
import type { WordPair, WordRange } from './words';

export type DiffLayout = 'split' | 'inline';

export interface RowSide {
  /** 0-based line index in A (left) or B (right). */
  line: number;
  kind: 'context' | 'delete' | 'insert';
  /** Changed words in the line (paired lines only). */
  words?: readonly WordRange[];
}

export type DiffRow =
  /** Hidden unchanged lines A[a, a+count) = B[b, b+count); `id` (= a) expands it. */
  | { kind: 'gap'; id: number; a: number; b: number; count: number; header: string }
  /** Inline: a context row has both sides, a deletion only left, an insertion only right. */
  | {
      kind: 'line';
      left: RowSide | null;
      right: RowSide | null;
      /** the change's index, -1 for context */ block: number;
    };

export interface DiffRows {
  rows: DiffRow[];
  /** Row index of each change's first row (next/previous change). */
  blockStarts: number[];
}

export interface RowOptions {
  /** Unchanged lines kept around a change (default 3). */
  context?: number;
  /** Hidden runs shorter than this are shown instead (default 4: a gap row for 2 lines saves nothing). */
  minHidden?: number;
  /** Gap ids the reader expanded. */
  expanded?: ReadonlySet<number>;
}

export const DEFAULT_CONTEXT = 3;

export function buildRows(
  ops: readonly DiffOp[],
  words: readonly WordPair[],
  layout: DiffLayout,
  options: RowOptions = {},
): DiffRows {
  const context = options.context ?? DEFAULT_CONTEXT;
  const minHidden = options.minHidden ?? 4;
  const expanded = options.expanded ?? new Set<number>();
  const wa = new Map<number, WordRange[]>();
  const wb = new Map<number, WordRange[]>();
  for (const w of words) {
    wa.set(w.a, w.aRanges);
    wb.set(w.b, w.bRanges);
  }
  const side = (line: number, kind: RowSide['kind'], map?: Map<number, WordRange[]>): RowSide => {
    const ranges = map?.get(line);
    return ranges ? { line, kind, words: ranges } : { line, kind };
  };
  const rows: DiffRow[] = [];
  const blockStarts: number[] = [];
  const hasChange = ops.some((o) => o.op !== 'equal');
  const context1 = (a: number, b: number) =>
    rows.push({ kind: 'line', left: side(a, 'context'), right: side(b, 'context'), block: -1 });

  let block = -1;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if (op.op === 'equal') {
      const head = k === 0 ? 0 : context;
      const tail = k === ops.length - 1 ? 0 : context;
      const hidden = op.n - head - tail;
      if (!hasChange || hidden < minHidden || expanded.has(op.a + head)) {
        for (let i = 0; i < op.n; i++) context1(op.a + i, op.b + i);
        continue;
      }
      for (let i = 0; i < head; i++) context1(op.a + i, op.b + i);
      rows.push({ kind: 'gap', id: op.a + head, a: op.a + head, b: op.b + head, count: hidden, header: '' });
      for (let i = op.n - tail; i < op.n; i++) context1(op.a + i, op.b + i);
      continue;
    }
    // a change: its deletions (and the insertions that follow them)
    block++;
    blockStarts.push(rows.length);
    const del = op.op === 'delete' ? op : null;
    const ins = op.op === 'insert' ? op : ops[k + 1]?.op === 'insert' ? ops[k + 1] : null;
    if (del && ins) k++;
    const nd = del?.n ?? 0;
    const ni = ins?.n ?? 0;
    if (layout === 'split') {
      for (let i = 0; i < Math.max(nd, ni); i++) {
        rows.push({
          kind: 'line',
          left: i < nd ? side(del!.a + i, 'delete', wa) : null,
          right: i < ni ? side(ins!.b + i, 'insert', wb) : null,
          block,
        });
      }
    } else {
      for (let i = 0; i < nd; i++)
        rows.push({ kind: 'line', left: side(del!.a + i, 'delete', wa), right: null, block });
      for (let i = 0; i < ni; i++)
        rows.push({ kind: 'line', left: null, right: side(ins!.b + i, 'insert', wb), block });
    }
  }
  headers(rows);
  return { rows, blockStarts };
}

/** Each gap row names the hunk after it (unified diff's @@ header; '' after the last hunk). */
function headers(rows: DiffRow[]): void {
  for (let g = 0; g < rows.length; g++) {
    const gap = rows[g];
    if (gap.kind !== 'gap') continue;
    let aCount = 0;
    let bCount = 0;
    let r = g + 1;
    for (; r < rows.length && rows[r].kind === 'line'; r++) {
      const row = rows[r] as Extract<DiffRow, { kind: 'line' }>;
      if (row.left) aCount++;
      if (row.right) bCount++;
    }
    if (r === g + 1) continue;
    const aPos = gap.a + gap.count;
    const bPos = gap.b + gap.count;
    const range = (pos: number, n: number) => (n === 1 ? `${pos + 1}` : `${n ? pos + 1 : pos},${n}`);
    gap.header = `@@ -${range(aPos, aCount)} +${range(bPos, bCount)} @@`;
  }
}

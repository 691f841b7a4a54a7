/**
 * The edit script: runs of equal, deleted and inserted lines (plain data, crosses the worker
 * boundary as is). Within a change, deletions come before insertions, as in a unified diff.
 */
import { compactChanges, indentOfText } from './compact';
import { LineInterner, type SplitText } from './lines';
import { diffIds, type MyersOptions } from './myers';

export type DiffOpKind = 'equal' | 'delete' | 'insert';

export interface DiffOp {
  op: DiffOpKind;
  /** 0-based index of the run's first line in A (for an insert: where it goes in A). */
  a: number;
  /** 0-based index of the run's first line in B (for a delete: where it was in B). */
  b: number;
  /** Lines in the run (> 0). */
  n: number;
}

export interface LineDiff {
  ops: DiffOp[];
  /** Lines deleted from A / inserted into B. */
  removed: number;
  added: number;
  /** The work budget ran out: some region is shown replaced without being aligned. */
  approximate: boolean;
}

/** Change marks (1 = deleted from A / inserted into B) as runs. */
export function opsFromMarks(ma: Uint8Array, mb: Uint8Array): DiffOp[] {
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  const push = (op: DiffOpKind, a: number, b: number, n: number) => {
    const last = ops[ops.length - 1];
    if (last && last.op === op) last.n += n;
    else ops.push({ op, a, b, n });
  };
  while (i < ma.length || j < mb.length) {
    if (i < ma.length && j < mb.length && !ma[i] && !mb[j]) {
      const a0 = i;
      const b0 = j;
      while (i < ma.length && j < mb.length && !ma[i] && !mb[j]) {
        i++;
        j++;
      }
      push('equal', a0, b0, i - a0);
      continue;
    }
    const a0 = i;
    while (i < ma.length && ma[i]) i++;
    if (i > a0) push('delete', a0, j, i - a0);
    const b0 = j;
    while (j < mb.length && mb[j]) j++;
    if (j > b0) push('insert', i, b0, j - b0);
    if (i === a0 && j === b0) throw new Error('diff marks out of step'); // unchanged lines must pair up
  }
  return ops;
}

export interface LineDiffOptions extends MyersOptions {
  /** Slide ambiguous changes by indentation (git's indent heuristic; default true). */
  indentHeuristic?: boolean;
  /** Reuse ids across calls (blame diffs many versions of one file). */
  interner?: LineInterner;
}

/** Line diff of two split texts: Myers + git's compaction. */
export function diffSplit(a: SplitText, b: SplitText, options: LineDiffOptions = {}): LineDiff {
  const interner = options.interner ?? new LineInterner();
  const indent =
    options.indentHeuristic === false
      ? null
      : { a: (i: number) => indentOfText(a.lines[i]), b: (i: number) => indentOfText(b.lines[i]) };
  return diffLineIds(interner.ids32(a), interner.ids32(b), indent, options);
}

/** Line diff of lines given as ids; `indent` (each side's get_indent of a line) enables the indent heuristic. */
export function diffLineIds(
  ia: Int32Array,
  ib: Int32Array,
  indent: { a: (i: number) => number; b: (i: number) => number } | null,
  options: MyersOptions = {},
): LineDiff {
  const marks = diffIds(ia, ib, options);
  compactChanges(
    { ids: ia, rchg: marks.a, indentOf: indent?.a },
    { ids: ib, rchg: marks.b, indentOf: indent?.b },
  );
  let removed = 0;
  let added = 0;
  for (const m of marks.a) removed += m;
  for (const m of marks.b) added += m;
  return { ops: opsFromMarks(marks.a, marks.b), removed, added, approximate: marks.approximate };
}

/** Replay an edit script on A's lines (B's lines supply the inserted text): yields B. */
export function applyOps<T>(a: readonly T[], b: readonly T[], ops: readonly DiffOp[]): T[] {
  const out: T[] = [];
  let i = 0;
  for (const op of ops) {
    if (op.a !== i) throw new Error(`edit script skips A lines ${i}..${op.a}`);
    if (op.op === 'equal') {
      for (let k = 0; k < op.n; k++) out.push(a[op.a + k]);
      i += op.n;
    } else if (op.op === 'delete') {
      i += op.n;
    } else {
      for (let k = 0; k < op.n; k++) out.push(b[op.b + k]);
    }
  }
  if (i !== a.length) throw new Error(`edit script ends at A line ${i} of ${a.length}`);
  return out;
}

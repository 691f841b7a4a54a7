/**
 * Word-level changes inside a changed line pair: both lines split into tokens (identifier-like
 * words, whitespace runs, single other characters), the tokens diffed with the same Myers, and
 * the changed tokens returned as character ranges on each side. A pair that shares too little
 * (a rewritten line) gets no word ranges: highlighting nearly every word says less than the
 * line's own colour. Within a change, the i-th deleted line is paired with the i-th inserted
 * line (as GitHub and VS Code's inline view do).
 *
 * All the pairs of one file diff share one work budget (characters split plus Myers steps):
 * a file of thousands of long, unlike changed lines would otherwise cost thousands of full
 * searches. Once it is spent, the remaining pairs get no word ranges (their lines are still
 * shown as changed).
 */
import { displayLine } from './lines';
import { diffIds } from './myers';
import type { DiffOp } from './ops';

/** [start, end) UTF-16 offsets in the displayed line. */
export type WordRange = [start: number, end: number];

export interface WordPair {
  /** 0-based line in A and in B. */
  a: number;
  b: number;
  aRanges: WordRange[];
  bRanges: WordRange[];
}

/** Lines longer than this get no word diff (minified code: the line diff says enough). */
export const MAX_WORD_DIFF_LINE_CHARS = 2000;
/** Word diffs per file at most. */
export const MAX_WORD_DIFF_PAIRS = 10_000;
/** Below this share of unchanged (non-space) characters, a pair is a rewrite: no word ranges. */
export const MIN_WORD_SIMILARITY = 0.35;
/** Work for all the word diffs of one file diff: characters tokenized plus Myers steps (0.3 s at worst). */
export const MAX_WORD_DIFF_WORK = 10_000_000;

/** What is left of a file diff's word-diff work; each pair spends from it. */
export interface WordBudget {
  left: number;
}

export function wordBudget(work = MAX_WORD_DIFF_WORK): WordBudget {
  return { left: work };
}

const TOKEN = /[\p{L}\p{N}_$]+|\s+|[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/gu;

export function tokenize(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

const isSpace = (t: string) => /^\s+$/.test(t);

/**
 * The changed ranges of a line pair, or null when they share too little to be worth showing
 * or when `budget` runs out (then it is left at zero or below).
 */
export function wordDiff(
  before: string,
  after: string,
  budget: WordBudget = wordBudget(),
): { aRanges: WordRange[]; bRanges: WordRange[] } | null {
  if (before.length > MAX_WORD_DIFF_LINE_CHARS || after.length > MAX_WORD_DIFF_LINE_CHARS) return null;
  budget.left -= before.length + after.length;
  if (budget.left <= 0) return null;
  const ta = tokenize(before);
  const tb = tokenize(after);
  const ids = new Map<string, number>();
  const idOf = (t: string) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  };
  const ia = Int32Array.from(ta, idOf);
  const ib = Int32Array.from(tb, idOf);
  const marks = diffIds(ia, ib, { minimal: true, maxWork: budget.left });
  budget.left -= marks.work;
  if (marks.approximate) return null; // the budget ran out inside this pair
  let same = 0;
  let totalA = 0;
  let totalB = 0;
  for (let i = 0; i < ta.length; i++) {
    if (isSpace(ta[i])) continue;
    totalA += ta[i].length;
    if (!marks.a[i]) same += ta[i].length;
  }
  for (const t of tb) if (!isSpace(t)) totalB += t.length;
  const longer = Math.max(totalA, totalB);
  if (longer === 0 || same / longer < MIN_WORD_SIMILARITY) return null;
  return { aRanges: rangesOf(ta, marks.a), bRanges: rangesOf(tb, marks.b) };
}

/** Changed tokens as merged character ranges; a whitespace-only range between two changes joins them. */
function rangesOf(tokens: string[], marks: Uint8Array): WordRange[] {
  const out: WordRange[] = [];
  let pos = 0;
  for (let i = 0; i < tokens.length; i++) {
    const start = pos;
    pos += tokens[i].length;
    if (!marks[i]) continue;
    const last = out[out.length - 1];
    if (last && last[1] === start) last[1] = pos;
    else out.push([start, pos]);
  }
  // "a b" changed to "x y": one range, not two with the unchanged space between
  const text = tokens.join('');
  for (let i = out.length - 1; i > 0; i--) {
    const gap = text.slice(out[i - 1][1], out[i][0]);
    if (gap.length <= 1 && isSpace(gap)) {
      out[i - 1][1] = out[i][1];
      out.splice(i, 1);
    }
  }
  return out;
}

/** Word ranges for the paired lines of every change (deleted line i with inserted line i), within one budget. */
export function wordPairs(
  aLines: readonly string[],
  bLines: readonly string[],
  ops: readonly DiffOp[],
  budget: WordBudget = wordBudget(),
): WordPair[] {
  const pairs: WordPair[] = [];
  for (let k = 0; k < ops.length && pairs.length < MAX_WORD_DIFF_PAIRS && budget.left > 0; k++) {
    const del = ops[k];
    const ins = ops[k + 1];
    if (del.op !== 'delete' || !ins || ins.op !== 'insert') continue;
    const n = Math.min(del.n, ins.n);
    for (let i = 0; i < n && pairs.length < MAX_WORD_DIFF_PAIRS && budget.left > 0; i++) {
      const a = del.a + i;
      const b = ins.b + i;
      const w = wordDiff(displayLine(aLines[a]), displayLine(bLines[b]), budget);
      if (w && (w.aRanges.length || w.bRanges.length)) pairs.push({ a, b, ...w });
    }
  }
  return pairs;
}

/**
 * Sliding change groups into place, after git's xdl_change_compact (xdiffi.c). A group of
 * changed lines whose first line equals the line after it can slide down (and up the other
 * way) without changing the edit script's size; Myers picks one position arbitrarily. This
 * slides each group as far down as it goes, aligns it with a change on the other side when
 * it can, and otherwise puts it where the indentation says a block starts and ends (git's
 * indent heuristic, on by default in `git diff` and `git blame` since git 2.14):
 *
 *   function a() {        function a() {
 *     one();                one();
 *   }                     }
 * + function b() {       +
 * +   two();             +function b() {     <- chosen: the added block is the function
 * + }                    +  two();
 * +                      +}
 *   function c() {        function c() {
 */

/** One side's lines (as ids), their change marks, and their indentation for the indent heuristic. */
export interface CompactSide {
  ids: Int32Array;
  rchg: Uint8Array;
  /** git's get_indent of line i (indentOfText); without it the indent heuristic is off. */
  indentOf?: (i: number) => number;
}

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** git's get_indent: columns of leading whitespace (a tab to the next multiple of 8), -1 for a blank line. */
export function indentOfText(line: string): number {
  let col = 0;
  for (let c = 0; c < line.length; c++) {
    const ch = line.charCodeAt(c);
    // xdiff's XDL_ISSPACE: space, \t, \n, \v, \f, \r
    if (ch !== 32 && (ch < 9 || ch > 13)) return col;
    if (ch === 32) col += 1;
    else if (ch === 9) col += 8 - (col % 8);
    if (col >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Group {
  start: number;
  end: number;
}

class Side {
  readonly n: number;
  private indents: Int16Array | null = null;
  constructor(readonly s: CompactSide) {
    this.n = s.ids.length;
  }
  chg(i: number): number {
    return i >= 0 && i < this.n ? this.s.rchg[i] : 0;
  }
  init(g: Group): void {
    g.start = g.end = 0;
    while (this.chg(g.end)) g.end++;
  }
  next(g: Group): boolean {
    if (g.end === this.n) return false;
    g.start = g.end + 1;
    g.end = g.start;
    while (this.chg(g.end)) g.end++;
    return true;
  }
  previous(g: Group): boolean {
    if (g.start === 0) return false;
    g.end = g.start - 1;
    g.start = g.end;
    while (this.chg(g.start - 1)) g.start--;
    return true;
  }
  slideDown(g: Group): boolean {
    const { ids, rchg } = this.s;
    if (g.end < this.n && ids[g.start] === ids[g.end]) {
      rchg[g.start++] = 0;
      rchg[g.end++] = 1;
      while (this.chg(g.end)) g.end++;
      return true;
    }
    return false;
  }
  slideUp(g: Group): boolean {
    const { ids, rchg } = this.s;
    if (g.start > 0 && ids[g.start - 1] === ids[g.end - 1]) {
      rchg[--g.start] = 1;
      rchg[--g.end] = 0;
      while (this.chg(g.start - 1)) g.start--;
      return true;
    }
    return false;
  }
  indent(i: number): number {
    this.indents ??= new Int16Array(this.n).fill(-2);
    const cached = this.indents[i];
    if (cached !== -2) return cached;
    return (this.indents[i] = this.s.indentOf!(i));
  }
}

interface Measurement {
  endOfFile: boolean;
  indent: number;
  preBlank: number;
  preIndent: number;
  postBlank: number;
  postIndent: number;
}

function measureSplit(side: Side, split: number): Measurement {
  const m: Measurement = {
    endOfFile: false,
    indent: -1,
    preBlank: 0,
    preIndent: -1,
    postBlank: 0,
    postIndent: -1,
  };
  if (split >= side.n) m.endOfFile = true;
  else m.indent = side.indent(split);
  for (let i = split - 1; i >= 0; i--) {
    m.preIndent = side.indent(i);
    if (m.preIndent !== -1) break;
    m.preBlank += 1;
    if (m.preBlank === MAX_BLANKS) {
      m.preIndent = 0;
      break;
    }
  }
  for (let i = split + 1; i < side.n; i++) {
    m.postIndent = side.indent(i);
    if (m.postIndent !== -1) break;
    m.postBlank += 1;
    if (m.postBlank === MAX_BLANKS) {
      m.postIndent = 0;
      break;
    }
  }
  return m;
}

interface Score {
  effectiveIndent: number;
  penalty: number;
}

function scoreAddSplit(m: Measurement, s: Score): void {
  if (m.preIndent === -1 && m.preBlank === 0) s.penalty += START_OF_FILE_PENALTY;
  if (m.endOfFile) s.penalty += END_OF_FILE_PENALTY;
  const postBlank = m.indent === -1 ? 1 + m.postBlank : 0;
  const totalBlank = m.preBlank + postBlank;
  s.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  s.penalty += POST_BLANK_WEIGHT * postBlank;
  const indent = m.indent !== -1 ? m.indent : m.postIndent;
  const anyBlanks = totalBlank !== 0;
  s.effectiveIndent += indent;
  if (indent === -1 || m.preIndent === -1) {
    // nothing more
  } else if (indent > m.preIndent) {
    s.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (indent === m.preIndent) {
    // nothing more
  } else if (m.postIndent !== -1 && m.postIndent > indent) {
    s.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  } else {
    s.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

function scoreCmp(s1: Score, s2: Score): number {
  const cmpIndents =
    Number(s1.effectiveIndent > s2.effectiveIndent) - Number(s1.effectiveIndent < s2.effectiveIndent);
  return INDENT_WEIGHT * cmpIndents + (s1.penalty - s2.penalty);
}

function syncBroken(what: string): never {
  throw new Error(`diff compaction: group sync broken ${what}`);
}

/** Slide the groups of `target` (marks changed in place); `other` is the opposite side. */
function compactSide(t: Side, o: Side): void {
  const g: Group = { start: 0, end: 0 };
  const go: Group = { start: 0, end: 0 };
  t.init(g);
  o.init(go);
  const heuristic = !!t.s.indentOf;
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (t.slideUp(g)) if (!o.previous(go)) syncBroken('sliding up');
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!t.slideDown(g)) break;
          if (!o.next(go)) syncBroken('sliding down');
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);

      if (g.end === earliestEnd) {
        // no shifting was possible
      } else if (endMatchingOther !== -1) {
        // line the group up with a change on the other side
        while (go.end === go.start) {
          if (!t.slideUp(g)) syncBroken('(match disappeared)');
          if (!o.previous(go)) syncBroken('sliding to match');
        }
      } else if (heuristic) {
        let shift = earliestEnd;
        if (g.end - groupsize - 1 > shift) shift = g.end - groupsize - 1;
        if (g.end - INDENT_HEURISTIC_MAX_SLIDING > shift) shift = g.end - INDENT_HEURISTIC_MAX_SLIDING;
        let bestShift = -1;
        let best: Score = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: Score = { effectiveIndent: 0, penalty: 0 };
          scoreAddSplit(measureSplit(t, shift), score);
          scoreAddSplit(measureSplit(t, shift - groupsize), score);
          if (bestShift === -1 || scoreCmp(score, best) <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!t.slideUp(g)) syncBroken('(best shift unreached)');
          if (!o.previous(go)) syncBroken('sliding to blank line');
        }
      }
    }
    if (!t.next(g)) break;
    if (!o.next(go)) syncBroken('moving to next group');
  }
}

/** Compact both sides, A then B, as xdiff does after the search. */
export function compactChanges(a: CompactSide, b: CompactSide): void {
  const sa = new Side(a);
  const sb = new Side(b);
  compactSide(sa, sb);
  compactSide(sb, sa);
}

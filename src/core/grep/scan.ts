/**
 * The whole-text path: a decoded text's matching lines (scanLines), and how a delivered line
 * is shaped (the preview window of a long line, the cut to maxLineChars, context lines).
 */
import type { Matcher } from './regex';
import type { HitRange } from './types';

export interface LineHits {
  line: number;
  start: number; // offset of the line start in the text
  end: number; // offset of the line end (before '\r\n' / '\n')
  ranges: HitRange[];
  /** set when text[start, end) is already a long line's preview window: its first column in the line */
  windowStart?: number;
}

/**
 * Scan one text. Calls `onLine` for each matching line in order; onLine returns false to stop.
 * Hit offsets are turned into line numbers incrementally, so the cost stays linear in the text.
 */
export function scanLines(text: string, matcher: Matcher, onLine: (hits: LineHits) => boolean): void {
  const len = text.length;
  const trailingNewline = len === 0 || text.charCodeAt(len - 1) === 10;
  let lineNo = 1;
  let lineStart = 0;
  let nl = text.indexOf('\n');
  let lineEnd = nl === -1 ? len : nl; // position of '\n' (or end)
  let current: LineHits | null = null;
  let stopped = false;

  const flush = () => {
    if (current && !onLine(current)) stopped = true;
    current = null;
  };

  matcher.scan(text, (s, e) => {
    if (s === len && trailingNewline) return true; // no line after the final terminator
    if (s > lineEnd) {
      flush();
      if (stopped) return false;
      // advance to the line containing s
      while (lineEnd < s) {
        lineStart = lineEnd + 1;
        lineNo++;
        nl = text.indexOf('\n', lineStart);
        lineEnd = nl === -1 ? len : nl;
      }
    }
    if (!current) {
      const end = lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
      current = { line: lineNo, start: lineStart, end, ranges: [] };
    }
    current.ranges.push([s - lineStart, Math.min(e, current.end) - lineStart]);
    return true;
  });
  if (!stopped) flush();
}

/**
 * Where the preview of a line longer than `cap` starts: 0 (its first `cap` characters) unless
 * its first hit ends past them; then a window that opens min(24, cap/4) characters before that hit
 * (never past the line's last `cap`, never inside a surrogate pair), as GitHub previews a
 * long line around its match.
 */
export function previewStart(line: string, ranges: readonly HitRange[], cap: number): number {
  if (cap === 0 || !ranges.length || ranges[0][1] <= cap) return 0;
  let start = windowStart(ranges[0][0], line.length, cap);
  const c = line.charCodeAt(start);
  if (start > 0 && c >= 0xdc00 && c <= 0xdfff) start--;
  return start;
}

/** The preview window's first column for a first hit at `first` in a line of `lineLen` columns. */
export function windowStart(first: number, lineLen: number, cap: number): number {
  return Math.max(0, Math.min(first - Math.min(24, Math.floor(cap / 4)), lineLen - cap));
}

/** Hit ranges (line columns) that meet the window [start, start + cap), as columns of the window. */
export function clipToWindow(ranges: readonly HitRange[], start: number, cap: number): HitRange[] {
  const end = start + cap;
  return ranges
    .filter(([s, e]) => s < end && (e > start || s >= start))
    .map(([s, e]) => [Math.max(s, start) - start, Math.min(e, end) - start] as HitRange);
}

/** A delivered line cut to maxLineChars (`cap`). */
export function cutLine(s: string, cap: number | undefined): string {
  return cap !== undefined && s.length > cap ? s.slice(0, cap) : s;
}

export function lineTextAt(text: string, start: number, end: number): string {
  return text.slice(start, end);
}

/** Lines before `start` (the offset of a line start), nearest last. */
export function linesBefore(text: string, start: number, count: number): string[] {
  const out: string[] = [];
  let end = start - 1; // the '\n' ending the previous line
  while (out.length < count && end >= 0) {
    const s = text.lastIndexOf('\n', end - 1) + 1;
    let e = end;
    if (e > s && text.charCodeAt(e - 1) === 13) e--;
    out.unshift(text.slice(s, e));
    end = s - 1;
  }
  return out;
}

export function linesAfter(text: string, lineEndOffset: number, count: number): string[] {
  const out: string[] = [];
  let nl = text.indexOf('\n', lineEndOffset);
  while (out.length < count && nl !== -1 && nl + 1 < text.length) {
    const s = nl + 1;
    const next = text.indexOf('\n', s);
    let e = next === -1 ? text.length : next;
    if (e > s && text.charCodeAt(e - 1) === 13) e--;
    out.push(text.slice(s, e));
    nl = next;
  }
  return out;
}

/**
 * One file searched by literal-anchored lines (searchLines): the file's bytes (whole, or only
 * the ranges a content index names), the lines that hold a required literal, each decoded and
 * matched alone (through line-windows.ts when long), context lines from the bytes around.
 */
import type { Workspace } from '../source/workspace';
import { containsBytes, hasNulByte, hasUtf16Bom } from '../walk/decode';
import type { Skipped } from '../walk/policy';
import { decodeLine } from './decode-line';
import { asciiPreview, byteWindowsVerdict, LINE_WINDOWS, windowedRanges, type LineFinders } from './line-windows';
import { candidateLineStarts, countNewlines } from './lines';
import { KELVIN, LONG_S } from './prefilter';
import type { Matcher } from './regex';
import { cutLine, scanLines, type LineHits } from './scan';
import type { SegmentRange } from './types';

/** Context lines around one delivered match (already cut to maxLineChars). */
export interface LineContext {
  before: string[];
  after: string[];
}

/** What is delivered of each matching line: context line counts, and maxLineChars. */
export interface LineShape {
  before: number;
  after: number;
  cap: number | undefined;
}

/**
 * Bytes read on each side of a candidate range, so that context lines near its edges need
 * no second read (when a context line reaches past them, the file is read whole).
 */
export const RANGE_MARGIN = 1024;

/**
 * One file by literal-anchored lines (see lines.ts): 'searched'; 'absent' when no literal
 * occurs (and the byte prefilter would have said so); a skip (unreadable, binary); or 'whole'
 * when the file must be decoded whole (UTF-16, or a case orbit character present).
 *
 * With `segments` (the trigram index's candidate ranges of a long file, and the file's
 * indexed size), only lines inside the ranges are verified, numbered from each range's first
 * line, and a source with readRanges reads only those ranges (widened by RANGE_MARGIN). A
 * file whose size or modified time changed, or whose ranges no longer start and end at line
 * boundaries, is searched whole.
 *
 * With maxLineChars, a long line whose hit the byte windows confirm is decoded only up to
 * its cut (through the alphabet run straddling it, plus one neighbour): hits starting before
 * the cut lie in windows wholly inside that head, and the delivered text is the head's first
 * `cap` characters. Context lines are decoded from the bytes around the match, cut alike.
 */
export async function searchLines(
  source: Workspace['roots'][number],
  path: string,
  lf: LineFinders,
  matcher: Matcher,
  shape: LineShape,
  onLine: (text: string, hits: LineHits, lineNo: number, context?: () => LineContext) => boolean,
  absentWhenNone: boolean,
  segments: { ranges: readonly SegmentRange[]; size: number; mtimeMs?: number } | null = null,
  margin = RANGE_MARGIN,
): Promise<'searched' | 'absent' | 'whole' | Skipped> {
  let bytes: Uint8Array;
  /** the parts of the file to verify (null: all of it) */
  let ranges: SegmentRange[] | null = null;
  /** the byte windows of `bytes` that hold the file's bytes (null: all of it) */
  let filled: Array<[number, number]> | null = null;
  const readWhole = () => (source.readTransient ? source.readTransient(path) : source.read(path));
  try {
    if (segments) {
      const size = segments.size;
      ranges = segments.ranges.map((r) => ({ start: r.start, end: Math.min(r.end, size), line: r.line })).filter((r) => r.start < r.end);
      if (!ranges.length) ranges = null;
    }
    if (ranges && source.readRanges) {
      // at least one byte before each range: its '\n' shows the range still starts a line
      filled = widen(ranges, segments!.size, Math.max(1, margin));
      const got = await source.readRanges(path, filled, segments!.size, segments!.mtimeMs);
      if (got) bytes = got;
      else {
        ranges = null; // changed since it was indexed: search it whole
        filled = null;
        bytes = await readWhole();
      }
    } else {
      bytes = await readWhole();
      if (ranges && bytes.length !== segments!.size) ranges = null;
    }
    // ranges of a file edited since it was indexed (same size and time) may no longer be whole
    // lines: search such a file whole
    if (ranges && !ranges.every((r) => (r.start === 0 || bytes[r.start - 1] === 10) && (r.end === bytes.length || bytes[r.end - 1] === 10))) {
      ranges = null;
      if (filled) {
        filled = null;
        bytes = await readWhole();
      }
    }
    if (ranges && !filled) {
      // the whole file is at hand: number the ranges' lines afresh rather than trust the index's
      let line = 1;
      let at = 0;
      ranges = ranges.map((r) => {
        line += countNewlines(bytes, at, r.start);
        at = r.start;
        return { ...r, line };
      });
    }
  } catch (err) {
    return { path, reason: 'unreadable', detail: err instanceof Error ? err.message : String(err) };
  }
  const windows = filled ?? [[0, bytes.length]];
  const startsAtZero = windows[0][0] === 0;
  if (startsAtZero && hasUtf16Bom(bytes)) return 'whole';
  // the binary sniff looks at a file's first 8 KiB (ranged reads: a file the index took as text)
  if (startsAtZero && hasNulByte(bytes.subarray(0, windows[0][1]))) return { path, reason: 'binary' };
  if (lf.orbit && windows.some(([s, e]) => containsBytes(bytes.subarray(s, e), KELVIN) || containsBytes(bytes.subarray(s, e), LONG_S))) return 'whole';
  const from = startsAtZero && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const parts = (ranges ?? [{ start: from, end: bytes.length, line: 1 }]).map((r) => ({
    range: r,
    starts: candidateLineStarts(r.end < bytes.length ? bytes.subarray(0, r.end) : bytes, Math.max(from, r.start), lf.finders),
  }));
  if (parts.every((p) => !p.starts.length) && absentWhenNone) return 'absent';
  const { cap } = shape;
  // a UTF-16 code unit takes at most 3 bytes and an incomplete final sequence at most 3 more,
  // so the first `headBytes` bytes of a line decode to more than `cap` units, as in the whole line
  const headBytes = cap === undefined ? Infinity : 3 * cap + 8;
  /** One line bytes[s, e) without its '\r', cut to maxLineChars. */
  const lineAt = (s: number, e: number): string => {
    if (e - s > headBytes) return decodeLine(source, bytes.subarray(s, s + headBytes)).slice(0, cap);
    if (e > s && bytes[e - 1] === 13) e--;
    return cutLine(decodeLine(source, bytes.subarray(s, e)), cap);
  };
  /** The context of the line bytes[ls, le), as the whole-file path's linesBefore/linesAfter give it. */
  const contextOf = (ls: number, le: number) => (): LineContext => {
    const before: string[] = [];
    let end = ls - 1; // the '\n' ending the previous line
    while (before.length < shape.before && end >= from) {
      const s = end > from ? Math.max(from, bytes.lastIndexOf(10, end - 1) + 1) : from;
      before.unshift(lineAt(s, end));
      end = s - 1;
    }
    const after: string[] = [];
    let nl = le < bytes.length ? le : -1;
    while (after.length < shape.after && nl !== -1 && nl + 1 < bytes.length) {
      const next = bytes.indexOf(10, nl + 1);
      after.push(lineAt(nl + 1, next === -1 ? bytes.length : next));
      nl = next;
    }
    return { before, after };
  };
  /**
   * With a partly read buffer: whether every context line of bytes[ls, le) lies in the window
   * holding that line (the walk contextOf makes, trusting only bytes inside the window).
   */
  const contextFits = (ls: number, le: number): boolean => {
    const w = filled!.find(([s, e]) => ls >= s && le <= e);
    if (!w) return false;
    const [a, b] = w;
    let end = ls - 1;
    for (let k = 0; k < shape.before && end >= from; k++) {
      if (end < a) return false;
      let s = from;
      if (end > from) {
        const nl = bytes.lastIndexOf(10, end - 1);
        if (nl < a && a > 0) return false; // the line starts before the window
        s = Math.max(from, nl + 1);
      }
      end = s - 1;
    }
    let nl = le < bytes.length ? le : -1;
    for (let k = 0; k < shape.after && nl !== -1 && nl + 1 < bytes.length; k++) {
      const next = bytes.indexOf(10, nl + 1);
      if (next === -1 ? b !== bytes.length : next >= b) return false; // the line ends past the window
      nl = next;
    }
    return true;
  };
  /** With a partly read buffer: whether the line bytes[ls, le) and its '\n' were read. */
  const lineRead = (ls: number, le: number): boolean => filled!.some(([s, e]) => ls >= s && (le < e || (le === e && e === bytes.length)));
  const wantContext = shape.before > 0 || shape.after > 0;
  for (const { range, starts } of parts) {
    let cursor = range.start;
    let lineNo = range.line;
    for (const ls of starts) {
      lineNo += countNewlines(bytes, cursor, ls);
      cursor = ls;
      let le = bytes.indexOf(10, ls);
      if (le === -1) le = bytes.length;
      if (filled && (!lineRead(ls, le) || (wantContext && !contextFits(ls, le)))) {
        // the line or a context line reaches past what was read: read the file whole (the same offsets)
        let whole: Uint8Array;
        try {
          whole = await readWhole();
        } catch (err) {
          return { path, reason: 'unreadable', detail: err instanceof Error ? err.message : String(err) };
        }
        if (whole.length !== bytes.length) return 'searched'; // it changed under us: keep what was delivered
        bytes = whole;
        filled = null;
      }
      const context = wantContext ? contextOf(ls, le) : undefined;
      const verdict = lf.alphabet && le - ls >= LINE_WINDOWS.byteMinLine ? byteWindowsVerdict(bytes, ls, le, matcher, lf) : 'unknown';
      if (verdict === 'none') continue;
      if (verdict === 'hit' && le - ls > headBytes) {
        const { ascii, nonAscii } = lf.alphabet!;
        let he = ls + headBytes;
        while (he < le && (bytes[he] < 128 ? ascii[bytes[he]] === 1 : nonAscii)) he++;
        he = Math.min(le, he + 4); // the run's right neighbour, whole (a UTF-8 sequence has at most 4 bytes)
        const head = decodeLine(source, bytes.subarray(ls, he));
        const hitRanges = windowedRanges(head, head.length, matcher, lf);
        // the head alone serves when the line's preview is its first `cap` characters (its first
        // hit ends by then); otherwise the preview is a window around that hit, which an ASCII
        // line gives from the bytes around it (any other line is decoded whole)
        if (hitRanges && (cap === 0 || (hitRanges.length > 0 && hitRanges[0][1] <= cap!))) {
          if (!onLine(head, { line: lineNo, start: 0, end: head.length, ranges: hitRanges }, lineNo, context)) return 'searched';
          continue;
        }
        const w = hitRanges ? asciiPreview(bytes, ls, le, cap!, matcher, lf) : null;
        if (w) {
          if (!onLine(w.text, { line: lineNo, start: 0, end: w.text.length, ranges: w.ranges, windowStart: w.textStart }, lineNo, context)) return 'searched';
          continue;
        }
      }
      const text = decodeLine(source, bytes.subarray(ls, le));
      if (lf.alphabet && text.length >= LINE_WINDOWS.minLine) {
        const end = text.length > 0 && text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length;
        const hitRanges = windowedRanges(text, end, matcher, lf);
        if (hitRanges) {
          if (hitRanges.length && !onLine(text, { line: lineNo, start: 0, end, ranges: hitRanges }, lineNo, context)) return 'searched';
          continue;
        }
      }
      let stopped = false;
      scanLines(text, matcher, (hits) => {
        if (!onLine(text, hits, lineNo, context)) stopped = true;
        return !stopped;
      });
      if (stopped) return 'searched';
    }
  }
  return 'searched';
}

/** The byte windows to read for `ranges`: each widened by `margin` within [0, size), overlapping ones merged. */
function widen(ranges: readonly SegmentRange[], size: number, margin: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const r of ranges) {
    const s = Math.max(0, r.start - margin);
    const e = Math.min(size, r.end + margin);
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

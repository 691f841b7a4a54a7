/**
 * One file searched by literal-anchored lines (searchLines): the file's bytes (whole, or only
 * the ranges a content index names), the lines that hold a required literal, each decoded and
 * matched alone (through line-windows.ts when long), context lines from the bytes around.
 */
import type { Workspace } from '../source/workspace';
import { containsBytes, hasNulByte, hasUtf16Bom } from '../walk/decode';
import type { Skipped } from '../walk/policy';
import { ByteLines, type LineShape } from './byte-lines';
import { readSkip, type OnLine } from './chunk-scan';
import {
  asciiPreview,
  byteWindowsVerdict,
  LINE_WINDOWS,
  windowedRanges,
  type LineFinders,
} from './line-windows';
import { CandidateLines } from './lines';
import { KELVIN, LONG_S } from './prefilter';
import type { Matcher } from './regex';
import type { LineHits } from './scan';
import type { HitRange, SegmentRange } from './types';

export type { LineContext, LineShape } from './byte-lines';

/**
 * Bytes read on each side of a candidate range, so that context lines near its edges need
 * no second read (when a context line reaches past them, the file is read whole).
 */
export const RANGE_MARGIN = 1024;

/**
 * A file's candidate ranges are read alone (a read per window) only while their windows hold
 * at most this share of the file; past it the file is read whole in one read and only the
 * ranges are verified (tests change it).
 */
export const RANGED_READS = { maxShare: 0.5 };

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
  onLine: OnLine,
  absentWhenNone: boolean,
  segments: { ranges: readonly SegmentRange[]; size: number; mtimeMs?: number } | null = null,
  margin = RANGE_MARGIN,
): Promise<'searched' | 'absent' | 'whole' | Skipped> {
  const readWhole = () => (source.readTransient ? source.readTransient(path) : source.read(path));
  const countOnly = countsWithoutText(matcher, lf) ? onLine.countOnly : undefined;
  let read: LinesRead;
  try {
    read = await readForLines(source, path, segments, margin, readWhole);
  } catch (err) {
    return readSkip(path, err);
  }
  let { bytes, filled } = read;
  const { ranges } = read;
  const sniffed = sniff(bytes, filled, lf, absentWhenNone, path);
  if (typeof sniffed !== 'number') return sniffed;
  const from = sniffed;
  const parts = ranges ?? [{ start: from, end: bytes.length, line: 1 }];
  const { cap } = shape;
  const lines = new ByteLines(source, bytes, from, shape);
  const headBytes = lines.headBytes;
  /** With a partly read buffer: whether the line bytes[ls, le) and its '\n' were read. */
  const lineRead = (ls: number, le: number): boolean =>
    filled!.some(([s, e]) => ls >= s && (le < e || (le === e && e === bytes.length)));
  const wantContext = shape.before > 0 || shape.after > 0;
  let hits: LineHitCollector | null = null;
  const collector = () => (hits ??= new LineHitCollector(matcher));
  let found = false;
  // the last line numbered in the file (a range with no known line counts on from here)
  let filePos = 0;
  let fileLine = 1;
  for (const range of parts) {
    const begin = Math.max(from, range.start);
    let candidates = new CandidateLines(
      range.end < bytes.length ? bytes.subarray(0, range.end) : bytes,
      begin,
      lf.finders,
    );
    // a known (position, line number) in this range: lines are counted only up to a delivered
    // line, so a candidate that holds no hit costs no counting (NaN: not known yet)
    let cursor = range.start;
    let cursorLine = range.line;
    const lineAt = (ls: number): number => {
      if (Number.isNaN(cursorLine)) cursorLine = fileLine + candidates.countNewlines(filePos, cursor);
      cursorLine += candidates.countNewlines(cursor, ls);
      cursor = ls;
      // (the file-wide count, for the next range with no known line: the whole file is at hand then)
      filePos = cursor;
      fileLine = cursorLine;
      return cursorLine;
    };
    const cutOf = (ls: number, le: number) => longLineCut(lines, ls, le, cap, matcher, lf, candidates.scope);
    for (let ls = candidates.next(); ls !== -1; ls = candidates.next()) {
      found = true;
      let le = candidates.end;
      if (
        filled &&
        (!lineRead(ls, le) || (wantContext && !contextFits(filled, bytes, from, shape, ls, le)))
      ) {
        // the line or a context line reaches past what was read: read the file whole (the same offsets)
        let whole: Uint8Array;
        try {
          whole = await readWhole();
        } catch (err) {
          return readSkip(path, err);
        }
        if (whole.length !== bytes.length) return 'searched'; // it changed under us: keep what was delivered
        bytes = lines.bytes = whole;
        filled = null;
        // go on from this line in the new buffer (its end too: past what was read, it was not known)
        candidates = new CandidateLines(
          range.end < bytes.length ? bytes.subarray(0, range.end) : bytes,
          ls,
          lf.finders,
        );
        if (candidates.next() !== ls) return 'searched'; // cannot happen: the same bytes
        le = candidates.end;
      }
      // (a plain literal's line holds a hit by its bytes alone: once lines are only counted, it is not decoded)
      const verdict = countOnly?.() ? 'hit' : windowsVerdict(bytes, ls, le, matcher, lf, candidates.scope);
      if (verdict === 'none') continue;
      if (onLine.countOnly?.()) {
        // past the cap a line is only counted: whether it holds a hit, with no number, no cut, no context
        const hit = verdict === 'hit' || lineHits(lines.text(ls, le), matcher, lf, collector()).ranges.length;
        if (hit && !onLine('', { line: 0, start: 0, end: 0, ranges: [] }, 0)) return 'searched';
        continue;
      }
      const context = wantContext ? () => lines.contextOf(ls, le) : undefined;
      const cut = verdict === 'hit' && le - ls > headBytes ? cutOf(ls, le) : null;
      if (cut) {
        const lineNo = lineAt(ls);
        if (!onLine(cut.text, { line: lineNo, start: 0, end: cut.text.length, ...cut.hits }, lineNo, context))
          return 'searched';
        continue;
      }
      const text = lines.text(ls, le);
      const { end, ranges: hitRanges } = lineHits(text, matcher, lf, collector());
      if (!hitRanges.length) continue;
      const lineNo = lineAt(ls);
      if (!onLine(text, { line: lineNo, start: 0, end, ranges: hitRanges }, lineNo, context))
        return 'searched';
    }
  }
  if (!found && absentWhenNone) return 'absent';
  return 'searched';
}

/**
 * A long line's verdict from its byte windows ('unknown' for a short line, or a matcher with no
 * alphabet); `scope`: the candidate lines' (bytes is their haystack; see simd-find.ts).
 */
function windowsVerdict(
  bytes: Uint8Array,
  ls: number,
  le: number,
  matcher: Matcher,
  lf: LineFinders,
  scope: object,
) {
  return lf.alphabet && le - ls >= LINE_WINDOWS.byteMinLine
    ? byteWindowsVerdict(bytes, ls, le, matcher, lf, scope)
    : 'unknown';
}

/** A decoded line's hits, and where its text ends (before a '\r'). */
function lineHits(text: string, matcher: Matcher, lf: LineFinders, hits: LineHitCollector) {
  const end = text.length > 0 && text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length;
  // (a plain literal's scan of the whole line is one indexOf per hit already: no windows)
  const windowed =
    lf.alphabet && text.length >= LINE_WINDOWS.minLine && matcher.strategy !== 'literal'
      ? windowedRanges(text, end, matcher, lf)
      : null;
  // (the whole line's hits otherwise: scanLines over one line without its '\n')
  return { end, ranges: windowed ?? hits.of(text, end) };
}

/** A line found by a plain literal's own bytes holds a hit: when it is only counted, it is not decoded. */
function countsWithoutText(matcher: Matcher, lf: LineFinders): boolean {
  const plain = matcher.plainBytesLiteral;
  return !!plain && lf.literals.length === 1 && lf.literals[0] === plain;
}

interface LinesRead {
  bytes: Uint8Array;
  /** the parts of the file to verify (null: all of it) */
  ranges: SegmentRange[] | null;
  /** the byte windows of `bytes` that hold the file's bytes (null: all of it) */
  filled: Array<[number, number]> | null;
}

/**
 * The file's bytes for searchLines: only the windows around `segments` (widened by `margin`)
 * when the source reads ranges and they are at most RANGED_READS.maxShare of the file, else
 * the whole file; ranges dropped (the file searched whole) when it changed since it was indexed.
 */
async function readForLines(
  source: Workspace['roots'][number],
  path: string,
  segments: { ranges: readonly SegmentRange[]; size: number; mtimeMs?: number } | null,
  margin: number,
  readWhole: () => Promise<Uint8Array>,
): Promise<LinesRead> {
  let bytes: Uint8Array;
  /** the parts of the file to verify (null: all of it) */
  let ranges: SegmentRange[] | null = null;
  /** the byte windows of `bytes` that hold the file's bytes (null: all of it) */
  let filled: Array<[number, number]> | null = null;
  if (segments) {
    const size = segments.size;
    ranges = segments.ranges
      .map((r) => ({ start: r.start, end: Math.min(r.end, size), line: r.line }))
      .filter((r) => r.start < r.end);
    if (!ranges.length) ranges = null;
  }
  // at least one byte before each range: its '\n' shows the range still starts a line
  const windows = ranges && source.readRanges ? widen(ranges, segments!.size, Math.max(1, margin)) : null;
  // ranges that cover most of the file: one read of all of it costs less than a read per window
  if (windows && windows.reduce((n, [s, e]) => n + e - s, 0) <= RANGED_READS.maxShare * segments!.size) {
    filled = windows;
    const got = await source.readRanges!(path, filled, segments!.size, segments!.mtimeMs);
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
  if (
    ranges &&
    !ranges.every(
      (r) =>
        (r.start === 0 || bytes[r.start - 1] === 10) && (r.end === bytes.length || bytes[r.end - 1] === 10),
    )
  ) {
    ranges = null;
    if (filled) {
      filled = null;
      bytes = await readWhole();
    }
  }
  // the whole file is at hand: number the ranges' lines afresh rather than trust the index's
  // (NaN: counted from the file's start when a line is delivered)
  if (ranges && !filled) ranges = ranges.map((r) => ({ ...r, line: NaN }));
  return { bytes, ranges, filled };
}

/**
 * What the first bytes say: the length of a UTF-8 byte-order mark to skip; 'whole' when the
 * file must be decoded whole (UTF-16, or a case orbit character present); a skip when binary.
 */
function sniff(
  bytes: Uint8Array,
  filled: Array<[number, number]> | null,
  lf: LineFinders,
  absentWhenNone: boolean,
  path: string,
): number | 'whole' | Skipped {
  const windows = filled ?? [[0, bytes.length]];
  const startsAtZero = windows[0][0] === 0;
  if (startsAtZero && hasUtf16Bom(bytes)) return 'whole';
  const from =
    startsAtZero && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  // the binary sniff looks at a file's first 8 KiB (ranged reads: a file the index took as text);
  // as the whole-file path answers, a UTF-8 byte-order mark means text unless the byte prefilter is on
  if (startsAtZero && (absentWhenNone || from === 0) && hasNulByte(bytes.subarray(0, windows[0][1])))
    return { path, reason: 'binary' };
  if (
    lf.orbit &&
    windows.some(
      ([s, e]) => containsBytes(bytes.subarray(s, e), KELVIN) || containsBytes(bytes.subarray(s, e), LONG_S),
    )
  )
    return 'whole';
  return from;
}

/**
 * With a partly read buffer: whether every context line of bytes[ls, le) lies in the window
 * holding that line (the walk contextOf makes, trusting only bytes inside the window).
 */
function contextFits(
  filled: Array<[number, number]> | null,
  bytes: Uint8Array,
  from: number,
  shape: LineShape,
  ls: number,
  le: number,
): boolean {
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
}

/**
 * A long line whose hit the byte windows confirmed, delivered without decoding it whole: its
 * head, or (an ASCII line) a window around its first hit; null when it must be decoded whole.
 */
function longLineCut(
  lines: ByteLines,
  ls: number,
  le: number,
  cap: LineShape['cap'],
  matcher: Matcher,
  lf: LineFinders,
  scope: object,
): { text: string; hits: Pick<LineHits, 'ranges' | 'windowStart'> } | null {
  const bytes = lines.bytes;
  const { ascii, nonAscii } = lf.alphabet!;
  let he = ls + lines.headBytes;
  while (he < le && (bytes[he] < 128 ? ascii[bytes[he]] === 1 : nonAscii)) he++;
  he = Math.min(le, he + 4); // the run's right neighbour, whole (a UTF-8 sequence has at most 4 bytes)
  const head = lines.text(ls, he);
  const hitRanges = windowedRanges(head, head.length, matcher, lf);
  // the head alone serves when the line's preview is its first `cap` characters (its first
  // hit ends by then); otherwise the preview is a window around that hit, which an ASCII
  // line gives from the bytes around it (any other line is decoded whole)
  if (hitRanges && (cap === 0 || (hitRanges.length > 0 && hitRanges[0][1] <= cap!)))
    return { text: head, hits: { ranges: hitRanges } };
  const w = hitRanges ? asciiPreview(bytes, ls, le, cap!, matcher, lf, scope) : null;
  return w ? { text: w.text, hits: { ranges: w.ranges, windowStart: w.textStart } } : null;
}

/** The hits of one line of text (no '\n' in it), clipped to `end` (the line without its '\r'), as scanLines gives them. */
class LineHitCollector {
  private ranges: HitRange[] = [];
  private end = 0;
  private readonly onHit = (s: number, e: number): void => {
    this.ranges.push([s, e < this.end ? e : this.end]);
  };

  constructor(private readonly matcher: Matcher) {}

  of(text: string, end: number): HitRange[] {
    const ranges: HitRange[] = (this.ranges = []);
    this.end = end;
    this.matcher.scan(text, this.onHit);
    return ranges;
  }
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

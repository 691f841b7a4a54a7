/**
 * The text-search engine: walk every root under the walk policy, run one compiled Matcher
 * over each file's text, turn hits into line matches with column ranges and context, and
 * push each file's matches into a sink that may stop the search. One global cap on
 * delivered matches; counting goes on to `countLimit`, after which `total` is a lower bound.
 */
import { QuarryError, toQuarryError } from '../errors';
import { createYielder, elapsedSince, NEVER_YIELD, now, type Yielder } from '../jobs/yielder';
import { Workspace } from '../source/workspace';
import { compilePathFilter } from '../walk/glob';
import type { Skipped } from '../walk/policy';
import { readTextIfMayMatch, walkFiles, type BytePrefilter, type WalkedFile } from '../walk/walk';
import { containsBytes, containsBytesCaseless, hasNulByte, hasUtf16Bom } from '../walk/decode';
import { byteFinder, candidateLineStarts, countNewlines, type ByteFinder } from './lines';
import { DEFAULT_MAX_FILE_BYTES } from '../walk/policy';
import { compileMatcher, type Matcher } from './regex';
import type { HitAlphabet } from './regex/analyze';
import type { GrepFileResult, GrepMatch, GrepRequest, GrepSink, GrepSummary, HitRange, SegmentRange } from './types';

/** A content index that can narrow the files to search (the trigram index). */
export interface SearchPrefilter {
  /**
   * Workspace paths that may contain a hit, each with the byte ranges of it that may (null:
   * the whole file), or null when the index cannot narrow the query. Ranges are ascending
   * and hold whole lines; they are offsets into the file as `sizeOf` gives its size.
   */
  candidates(plan: { requiredLiterals: string[] | null }): ReadonlyMap<string, readonly SegmentRange[] | null> | null;
  /** Whether the index covers this path (uncovered files are always scanned). */
  has(path: string): boolean;
  /**
   * Present when the index is complete and fresh for the workspace (every file the walk policy
   * admits, up to `maxIndexedBytes`): the search then reads candidates directly, with no walk.
   */
  sizeOf?(path: string): number | undefined;
  /** The modified time the index saw (ranged reads check it with the size). */
  mtimeOf?(path: string): number | undefined;
  maxIndexedBytes?: number;
}

/** ripgrep's and our walk order: paths compared segment by segment, by code unit. */
export function compareWalkOrder(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  return sa.length - sb.length;
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Narrow the files to read; results stay identical to a scan (candidates are verified). */
  prefilter?: SearchPrefilter;
  /** Skip decoding UTF-8 files whose bytes hold no required literal (default true). */
  bytePrefilter?: boolean;
  /** Defaults to a 12 ms budget; pass NEVER_YIELD in the CLI and benchmarks. */
  yielder?: Yielder;
  /**
   * Decode and match only the lines that hold a required literal (found in the raw bytes),
   * when the matcher has literals; context lines are decoded from the bytes around each
   * delivered match. Results are identical. Defaults to on with a prefilter (the indexed
   * path), off otherwise.
   */
  literalLines?: boolean;
  /** Bytes read on each side of an index candidate range (default RANGE_MARGIN; tests shrink it). */
  rangeMargin?: number;
}

export const DEFAULT_MAX_RESULTS = 10_000;

function nonNegativeInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new QuarryError('InvalidArgument', `${field} must be a non-negative integer`, { field, value });
  }
  return value;
}

/** Compile everything that can fail before any file is read. */
export function compileRequest(req: GrepRequest) {
  if (typeof req.pattern !== 'string') throw new QuarryError('InvalidArgument', 'pattern must be a string', { field: 'pattern' });
  const matcher = compileMatcher(req.pattern, {
    mode: req.mode,
    caseMode: req.caseMode ?? 'sensitive',
    wholeWord: req.wholeWord,
  });
  const filter = compilePathFilter({
    include: req.include,
    exclude: req.exclude,
    extensions: req.extensions,
    pathContains: req.pathContains,
  });
  const contextBefore = nonNegativeInt(req.contextBefore, 'contextBefore', 0);
  const contextAfter = nonNegativeInt(req.contextAfter, 'contextAfter', 0);
  const maxResults = nonNegativeInt(req.maxResults, 'maxResults', DEFAULT_MAX_RESULTS);
  const countLimit = req.countLimit === undefined ? Infinity : nonNegativeInt(req.countLimit, 'countLimit', 0);
  const cap = req.maxLineChars === undefined ? undefined : nonNegativeInt(req.maxLineChars, 'maxLineChars', 0);
  return { matcher, filter, contextBefore, contextAfter, maxResults, countLimit, cap };
}

interface LineHits {
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
function windowStart(first: number, lineLen: number, cap: number): number {
  return Math.max(0, Math.min(first - Math.min(24, Math.floor(cap / 4)), lineLen - cap));
}

/** Hit ranges (line columns) that meet the window [start, start + cap), as columns of the window. */
function clipToWindow(ranges: readonly HitRange[], start: number, cap: number): HitRange[] {
  const end = start + cap;
  return ranges.filter(([s, e]) => s < end && (e > start || s >= start)).map(([s, e]) => [Math.max(s, start) - start, Math.min(e, end) - start] as HitRange);
}

/** A delivered line cut to maxLineChars (`cap`). */
function cutLine(s: string, cap: number | undefined): string {
  return cap !== undefined && s.length > cap ? s.slice(0, cap) : s;
}

function lineTextAt(text: string, start: number, end: number): string {
  return text.slice(start, end);
}

/** Lines before `start` (the offset of a line start), nearest last. */
function linesBefore(text: string, start: number, count: number): string[] {
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

function linesAfter(text: string, lineEndOffset: number, count: number): string[] {
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

export async function searchWorkspace(
  workspace: Workspace,
  req: GrepRequest,
  sink: GrepSink,
  options: SearchOptions = {},
): Promise<GrepSummary> {
  const t0 = now();
  const compiled = compileRequest(req);
  const { matcher, filter, contextBefore, contextAfter, maxResults, countLimit, cap } = compiled;
  const yielder = options.yielder ?? createYielder();
  const signal = options.signal;
  const skipped: Skipped[] = [];
  let total = 0;
  let delivered = 0;
  let filesSearched = 0;
  let filesMatched = 0;
  let totalIsExact = true;
  let limitHit = false;
  let ending: GrepSummary['ending'] = 'complete';
  let done = false;

  const summary = (): GrepSummary => ({
    total,
    totalIsExact,
    limitHit,
    delivered,
    filesSearched,
    filesMatched,
    skipped,
    elapsedMs: elapsedSince(t0),
    ending,
    strategy: matcher.strategy + (candidates ? '+trigram' : ''),
  });

  const mayMatch = options.bytePrefilter === false ? null : bytePrefilter(matcher);
  const lineFinders = options.literalLines ?? !!options.prefilter ? literalLineFinders(matcher) : null;
  const prefilter = options.prefilter;
  const candidates = prefilter ? prefilter.candidates(matcher) : null;
  const directory = req.directory ?? '';
  const starts = directory ? workspace.resolveAll(directory, 'directory') : workspace.roots.map((_, i) => ({ rootIndex: i, rel: '' }));

  try {
    for (const { rootIndex, rel: start } of starts) {
      if (done) break;
      const source = workspace.roots[rootIndex];
      const prefix = workspace.multiRoot ? workspace.names[rootIndex] + '/' : '';
      const maxBytes = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
      const direct =
        candidates && prefilter?.sizeOf && prefilter.maxIndexedBytes !== undefined && req.useIgnoreFiles !== false && maxBytes <= prefilter.maxIndexedBytes;
      const walker = direct
        ? directFiles(candidates, prefilter, prefix, start, filter, maxBytes)
        : walkFiles(source, {
        start,
        maxFileBytes: req.maxFileBytes,
        useIgnoreFiles: req.useIgnoreFiles,
        signal,
        acceptFile:
          candidates && prefilter
            ? (p) => (!filter || filter(p)) && (candidates.has(prefix + p) || !prefilter.has(prefix + p))
            : (filter ?? undefined),
        onSkip: (s) => skipped.push(prefix ? { ...s, path: prefix + s.path } : s),
      });
      for await (const file of walker) {
        if (signal?.aborted) {
          ending = 'cancelled';
          totalIsExact = false;
          done = true;
          break;
        }
        const path = prefix + file.path;
        const matches: GrepMatch[] = [];
        let fileHadMatch = false;
        const onLine = (text: string, hits: LineHits, lineNo: number, context?: () => LineContext): boolean => {
          if (delivered >= maxResults) limitHit = true;
          if (total >= countLimit && delivered >= maxResults) {
            // one more match than we are allowed to count: total is only a lower bound
            totalIsExact = false;
            done = true;
            return false;
          }
          total++;
          fileHadMatch = true;
          if (delivered < maxResults) {
            delivered++;
            let lineText = lineTextAt(text, hits.start, hits.end);
            let ranges = hits.ranges;
            let textStart = hits.windowStart ?? 0;
            if (cap !== undefined && lineText.length > cap && hits.windowStart === undefined) {
              textStart = previewStart(lineText, ranges, cap);
              lineText = lineText.slice(textStart, textStart + cap);
              ranges = clipToWindow(ranges, textStart, cap);
            }
            const around = context ? context() : null;
            matches.push({
              path,
              line: lineNo,
              text: lineText,
              ranges,
              ...(textStart > 0 ? { textStart } : {}),
              contextBefore: around ? around.before : contextBefore ? linesBefore(text, hits.start, Math.min(contextBefore, hits.line - 1)).map((l) => cutLine(l, cap)) : [],
              contextAfter: around ? around.after : contextAfter ? linesAfter(text, hits.end, contextAfter).map((l) => cutLine(l, cap)) : [],
            });
          }
          return true;
        };
        /** Count and deliver this file's matches; true when the search must stop here. */
        const finishFile = (filePath: string): boolean => {
          if (fileHadMatch) filesMatched++;
          if (matches.length && sink({ path: filePath, matches }) === false) {
            ending = 'stopped';
            totalIsExact = false;
            done = true;
          }
          if (done) return true;
          if (delivered >= maxResults && countLimit <= total) {
            // cap reached and nothing more may be counted: peek no further
            if (countLimit === total) totalIsExact = false; // there may be more; we did not look
            done = true;
            return true;
          }
          return false;
        };
        if (lineFinders) {
          const ranges = candidates?.get(path);
          const size = ranges ? prefilter!.sizeOf?.(path) : undefined;
          const segments = ranges && size !== undefined ? { ranges, size, mtimeMs: prefilter!.mtimeOf?.(path) } : null;
          const r = await searchLines(source, file.path, lineFinders, matcher, { before: contextBefore, after: contextAfter, cap }, onLine, mayMatch !== null, segments, options.rangeMargin ?? RANGE_MARGIN);
          if (r === 'absent') {
            // as the byte prefilter answers in the whole-file path
            filesSearched++;
            continue;
          }
          if (typeof r === 'object') {
            skipped.push(prefix ? { ...r, path: prefix + r.path } : r);
            continue;
          }
          if (r === 'searched') {
            filesSearched++;
            if (finishFile(path)) break;
            const y = yielder.maybeYield();
            if (y) await y;
            continue;
          }
        }
        const loaded = await readTextIfMayMatch(source, file.path, mayMatch);
        if (loaded.ok === 'absent') {
          filesSearched++;
          continue;
        }
        if (!loaded.ok) {
          skipped.push(prefix ? { ...loaded.skipped, path: prefix + loaded.skipped.path } : loaded.skipped);
          continue;
        }
        filesSearched++;
        const text = loaded.text;
        scanLines(text, matcher, (hits) => onLine(text, hits, hits.line));
        if (finishFile(path)) break;
        const y = yielder.maybeYield();
        if (y) await y;
      }
    }
  } catch (err) {
    const qe = toQuarryError(err);
    if (qe.code === 'Cancelled') {
      ending = 'cancelled';
      totalIsExact = false;
    } else {
      throw qe;
    }
  }
  return summary();
}

/** The indexed fast path: candidate files of one root, filtered like the walk would, in walk order. */
async function* directFiles(
  candidates: ReadonlyMap<string, unknown>,
  prefilter: SearchPrefilter,
  prefix: string,
  start: string,
  filter: ((p: string) => boolean) | null,
  maxBytes: number,
): AsyncGenerator<WalkedFile> {
  const under = start ? prefix + start + '/' : prefix;
  const picked: Array<{ path: string; size: number }> = [];
  for (const full of candidates.keys()) {
    if (!full.startsWith(under) && full !== prefix + start) continue;
    const rel = full.slice(prefix.length);
    if (filter && !filter(rel)) continue;
    const size = prefilter.sizeOf!(full);
    if (size === undefined || size > maxBytes) continue;
    picked.push({ path: rel, size });
  }
  picked.sort((a, b) => compareWalkOrder(a.path, b.path));
  for (const f of picked) yield { path: f.path, size: f.size, mtimeMs: 0 };
}

/**
 * The byte prefilter: a test over raw UTF-8 bytes built from the matcher's required literals
 * (a disjunction). Case-sensitive literals are searched as bytes; case-insensitive ones only
 * when they are ASCII, folding ASCII letters (and a file holding U+212A or U+017F stays a
 * candidate when the literal has k or s, their RE2 case orbits). null: decode every file.
 */
export function bytePrefilter(matcher: Matcher): BytePrefilter | null {
  const lits = matcher.requiredLiterals;
  if (!lits || !lits.length) return null;
  if (lits.some((l) => l.length === 0 || l.includes('\uFFFD'))) return null;
  const enc = new TextEncoder();
  if (!matcher.caseInsensitive) {
    const needles = lits.map((l) => enc.encode(l));
    return (bytes) => needles.some((n) => containsBytes(bytes, n));
  }
  if (lits.some((l) => !/^[\x00-\x7f]*$/.test(l))) return null;
  const needles = lits.map((l) => enc.encode(l.toLowerCase()));
  const orbit = lits.some((l) => /[ks]/i.test(l));
  const KELVIN = new Uint8Array([0xe2, 0x84, 0xaa]);
  const LONG_S = new Uint8Array([0xc5, 0xbf]);
  return (bytes) =>
    needles.some((n) => containsBytesCaseless(bytes, n)) || (orbit && (containsBytes(bytes, KELVIN) || containsBytes(bytes, LONG_S)));
}

/** Collect every match (for tools and tests). */
export async function searchAll(workspace: Workspace, req: GrepRequest, options: SearchOptions = {}) {
  const files: GrepFileResult[] = [];
  const summary = await searchWorkspace(workspace, req, (r) => void files.push(r), { yielder: NEVER_YIELD, ...options });
  return { files, matches: files.flatMap((f) => f.matches), summary };
}

export { mergeBlocks, type Block } from './blocks';

/** Byte finders for literal-anchored line search, or null when the matcher's literals cannot anchor it. */
export function literalLineFinders(matcher: Matcher): LineFinders | null {
  const lits = matcher.requiredLiterals;
  if (!lits || !lits.length) return null;
  if (lits.some((l) => l.length === 0 || l.includes('\uFFFD') || l.includes('\n'))) return null;
  const enc = new TextEncoder();
  const alphabet = matcher.hitAlphabet ?? null;
  const escaped = lits.map((l) => l.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&'));
  if (!matcher.caseInsensitive) {
    const re = lits.length > 1 ? new RegExp(escaped.join('|'), 'g') : null;
    const find = re ? regexFind(re) : (text: string, from: number) => text.indexOf(lits[0], from);
    return { finders: lits.map((l) => byteFinder(enc.encode(l), false)), orbit: false, alphabet, find };
  }
  if (lits.some((l) => !/^[\x00-\x7f]*$/.test(l))) return null;
  // ASCII-only folding (a file holding U+212A or U+017F is searched whole)
  const find = regexFind(new RegExp(escaped.join('|'), 'gi'));
  return { finders: lits.map((l) => byteFinder(enc.encode(l.toLowerCase()), true)), orbit: lits.some((l) => /[ks]/i.test(l)), alphabet, find };
}

function regexFind(re: RegExp): (text: string, from: number) => number {
  return (text, from) => {
    re.lastIndex = from;
    const m = re.exec(text);
    return m ? m.index : -1;
  };
}

export interface LineFinders {
  finders: ByteFinder[];
  /** case-insensitive with k or s: a file holding U+212A or U+017F is searched whole */
  orbit: boolean;
  /** the matcher's hit alphabet: long lines are matched only in the runs around literals */
  alphabet: HitAlphabet | null;
  /** next occurrence of any literal in a decoded line */
  find: (text: string, from: number) => number;
}

/**
 * With a hit alphabet, lines at least `byteMinLine` bytes long are first checked in their
 * literal-anchored windows on the bytes (most candidate lines are then never decoded), and
 * decoded lines at least `minLine` long are matched in windows only. Tests change these.
 */
export const LINE_WINDOWS = { minLine: 512, byteMinLine: 512 };

/**
 * Whether a long line (bytes[ls, le)) holds a hit, without decoding it: windowedRanges()'s
 * runs found in the bytes. A run starts and ends next to an ASCII byte (or the line's ends),
 * so its bytes decode alone exactly as within the line; a neighbour outside the run is put in
 * as itself when ASCII, else as U+FFFD (like any non-ASCII character: not in an ASCII-only
 * alphabet, not a word character for `\b` and whole-word checks).
 */
function byteWindowsVerdict(bytes: Uint8Array, ls: number, le: number, matcher: Matcher, lf: LineFinders): 'hit' | 'none' | 'unknown' {
  const { ascii, nonAscii } = lf.alphabet!;
  const inA = (i: number) => {
    const c = bytes[i];
    return c < 128 ? ascii[c] === 1 : nonAscii;
  };
  const side = (i: number) => (i < ls || i >= le ? '' : bytes[i] < 128 ? String.fromCharCode(bytes[i]) : '\uFFFD');
  let hit = false;
  for (const f of lf.finders) {
    let x = f.next(bytes, ls);
    while (x !== -1 && x < le) {
      if (!inA(x)) return 'unknown'; // not what windows can decide: decode and look
      let a = x;
      while (a > ls && inA(a - 1)) a--;
      let b = x + 1;
      while (b < le && inA(b)) b++;
      const window = side(a - 1) + (nonAscii ? lineDecoder.decode(bytes.subarray(a, b)) : asciiText(bytes, a, b)) + side(b);
      matcher.scan(window, () => {
        hit = true;
        return false;
      });
      if (hit) return 'hit';
      x = b < le ? f.next(bytes, b) : -1;
    }
  }
  return 'none';
}

/** Whether bytes[a, b) are all ASCII. */
function asciiBytes(bytes: Uint8Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/**
 * The preview of a long line bytes[ls, le) whose first hit ends past `cap`, as the delivery of
 * the whole decoded line would cut it (previewStart, the window's hits), taken from the bytes:
 * the first hit is in the earliest alphabet run around a literal occurrence whose window holds
 * one, and the window's hits come from windowedRanges over the runs that meet it (with a real
 * neighbour on each side). Needs an ASCII-only hit alphabet and ASCII from the line's start
 * through the window (so byte offsets are columns); null otherwise, and when an occurrence
 * lies outside the alphabet (the caller decodes the line whole).
 */
function asciiPreview(bytes: Uint8Array, ls: number, le: number, cap: number, matcher: Matcher, lf: LineFinders): { text: string; ranges: HitRange[]; textStart: number } | null {
  const { ascii, nonAscii } = lf.alphabet!;
  if (nonAscii) return null;
  const end = le > ls && bytes[le - 1] === 13 ? le - 1 : le; // the line without its '\r'
  const inA = (i: number) => bytes[i] < 128 && ascii[bytes[i]] === 1;
  let first = -1; // the first hit's start byte
  for (const f of lf.finders) {
    let x = f.next(bytes, ls);
    while (x !== -1 && x < le && (first === -1 || x < first)) {
      if (!inA(x)) return null;
      let a = x;
      while (a > ls && inA(a - 1)) a--;
      let b = x + 1;
      while (b < le && inA(b)) b++;
      const ws = a > ls ? a - 1 : ls;
      const we = b < le ? b + 1 : le;
      if (bytes[ws] >= 128 || bytes[we - 1] >= 128) return null; // a neighbour that is not ASCII
      let at = -1;
      matcher.scan(asciiText(bytes, ws, we), (s) => {
        at = ws + s;
        return false;
      });
      if (at !== -1) {
        if (first === -1 || at < first) first = at;
        break;
      }
      x = b < le ? f.next(bytes, b) : -1;
    }
  }
  if (first === -1) return null;
  const textStart = windowStart(first - ls, end - ls, cap);
  const w0 = ls + textStart;
  const w1 = Math.min(end, w0 + cap);
  // the runs that meet the window, whole, with one neighbour each side (or the line's ends)
  let r0 = w0;
  while (r0 > ls && inA(r0 - 1)) r0--;
  if (r0 > ls) r0--;
  let r1 = w1;
  while (r1 < le && inA(r1)) r1++;
  if (r1 < le) r1++;
  // byte offsets are columns up to the region's end; past it the line need not be ASCII when
  // it is long enough that the window cannot reach its end (a UTF-16 unit takes at most 3 bytes)
  if (!asciiBytes(bytes, ls, r1) || (end - w0 < 3 * cap && !asciiBytes(bytes, r1, end))) return null;
  const found = windowedRanges(asciiText(bytes, r0, r1), Math.min(r1, end) - r0, matcher, lf);
  if (!found) return null;
  const inLine = found.map(([s, e]) => [s + r0 - ls, e + r0 - ls] as HitRange);
  return { text: asciiText(bytes, w0, w1), ranges: clipToWindow(inLine, textStart, cap), textStart };
}

/**
 * Hits of one line, matched only in the windows that can hold one: every hit contains a
 * literal occurrence and only alphabet characters, so it lies in the maximal run of alphabet
 * characters around an occurrence. Each run is matched with one real neighbour on each side
 * (what `\b` and whole-word checks look at). null when an occurrence is outside the alphabet.
 */
function windowedRanges(text: string, end: number, matcher: Matcher, lf: LineFinders): HitRange[] | null {
  const { ascii, nonAscii } = lf.alphabet!;
  const n = text.length;
  const inA = (i: number) => {
    const c = text.charCodeAt(i);
    return c < 128 ? ascii[c] === 1 : nonAscii;
  };
  const ranges: HitRange[] = [];
  let x = lf.find(text, 0);
  while (x !== -1) {
    if (!inA(x)) return null;
    let a = x;
    while (a > 0 && inA(a - 1)) a--;
    let b = x + 1;
    while (b < n && inA(b)) b++;
    const ws = a > 0 ? a - 1 : 0;
    const we = b < n ? b + 1 : n;
    matcher.scan(text.slice(ws, we), (s, e) => {
      ranges.push([s + ws, Math.min(e + ws, end)]);
      return true;
    });
    x = b < n ? lf.find(text, b) : -1;
  }
  return ranges;
}

const lineDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** ASCII bytes[a, b) as text (TextDecoder's answer, without its per-call cost for short runs). */
function asciiText(bytes: Uint8Array, a: number, b: number): string {
  if (b - a > 64) return lineDecoder.decode(bytes.subarray(a, b));
  let s = '';
  for (let i = a; i < b; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/**
 * One line's bytes as text (UTF-8, U+FFFD for invalid sequences, a U+FEFF kept): for a long
 * line the source's faster decoder when its answer is sure to be plain UTF-8 for this slice
 * (no BOM-like start, no NUL for its binary sniffing), else TextDecoder.
 */
function decodeLine(source: Workspace['roots'][number], line: Uint8Array): string {
  if (line.length <= 64) {
    let ascii = true;
    for (let i = 0; i < line.length; i++) {
      if (line[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return asciiText(line, 0, line.length);
  }
  if (source.decode && line.length >= 1024) {
    const b0 = line[0];
    const b1 = line[1];
    const bomLike = (b0 === 0xef && b1 === 0xbb) || (b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff);
    if (!bomLike && !hasNulByte(line)) {
      const d = source.decode(line);
      if (!d.binary && d.encoding === 'utf-8') return d.text;
    }
  }
  return lineDecoder.decode(line);
}

/** Context lines around one delivered match (already cut to maxLineChars). */
export interface LineContext {
  before: string[];
  after: string[];
}

/** What is delivered of each matching line: context line counts, and maxLineChars. */
interface LineShape {
  before: number;
  after: number;
  cap: number | undefined;
}
const KELVIN = new Uint8Array([0xe2, 0x84, 0xaa]);
const LONG_S = new Uint8Array([0xc5, 0xbf]);

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
async function searchLines(
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

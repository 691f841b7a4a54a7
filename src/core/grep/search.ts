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
import { containsBytes, containsBytesCaseless } from '../walk/decode';
import { DEFAULT_MAX_FILE_BYTES } from '../walk/policy';
import { compileMatcher, type Matcher } from './regex';
import type { GrepFileResult, GrepMatch, GrepRequest, GrepSink, GrepSummary, HitRange } from './types';

/** A content index that can narrow the files to search (the trigram index). */
export interface SearchPrefilter {
  /** Workspace paths that may contain a hit, or null when the index cannot narrow the query. */
  candidates(plan: { requiredLiterals: string[] | null }): Set<string> | null;
  /** Whether the index covers this path (uncovered files are always scanned). */
  has(path: string): boolean;
  /**
   * Present when the index is complete and fresh for the workspace (every file the walk policy
   * admits, up to `maxIndexedBytes`): the search then reads candidates directly, with no walk.
   */
  sizeOf?(path: string): number | undefined;
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
  return { matcher, filter, contextBefore, contextAfter, maxResults, countLimit };
}

interface LineHits {
  line: number;
  start: number; // offset of the line start in the text
  end: number; // offset of the line end (before '\r\n' / '\n')
  ranges: HitRange[];
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
  const { matcher, filter, contextBefore, contextAfter, maxResults, countLimit } = compiled;
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
        const path = prefix + file.path;
        const matches: GrepMatch[] = [];
        let fileHadMatch = false;
        scanLines(text, matcher, (hits) => {
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
            if (req.maxLineChars !== undefined && lineText.length > req.maxLineChars) {
              lineText = lineText.slice(0, req.maxLineChars);
              ranges = ranges.filter(([s]) => s < req.maxLineChars!).map(([s, e]) => [s, Math.min(e, req.maxLineChars!)] as HitRange);
            }
            matches.push({
              path,
              line: hits.line,
              text: lineText,
              ranges,
              contextBefore: contextBefore ? linesBefore(text, hits.start, Math.min(contextBefore, hits.line - 1)) : [],
              contextAfter: contextAfter ? linesAfter(text, hits.end, contextAfter) : [],
            });
          }
          return true;
        });
        if (fileHadMatch) filesMatched++;
        if (matches.length) {
          const result: GrepFileResult = { path, matches };
          if (sink(result) === false) {
            ending = 'stopped';
            totalIsExact = false;
            done = true;
          }
        }
        if (done) break;
        if (delivered >= maxResults && countLimit <= total) {
          // cap reached and nothing more may be counted: peek no further
          if (countLimit === total) {
            totalIsExact = false; // there may be more; we did not look
          }
          done = true;
          break;
        }
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
  candidates: Set<string>,
  prefilter: SearchPrefilter,
  prefix: string,
  start: string,
  filter: ((p: string) => boolean) | null,
  maxBytes: number,
): AsyncGenerator<WalkedFile> {
  const under = start ? prefix + start + '/' : prefix;
  const picked: Array<{ path: string; size: number }> = [];
  for (const full of candidates) {
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

/**
 * One file searched from its bytes (byte-search.ts: literal-anchored lines over the whole file
 * or an index's candidate ranges, or pieces of lines), else decoded whole and scanned; each
 * matching line handed on with a function that builds its delivered match (text cut to
 * maxLineChars, the preview window of a long line, context lines). The one-thread search and
 * every lane of the search pool run files through this, so they find the same lines.
 */
import type { FileSource } from '../source/types';
import type { Skipped } from '../walk/policy';
import { fileOnWalk, readTextIfMayMatch, type BytePrefilter } from '../walk/walk';
import { bytePrefilter } from './prefilter';
import type { compileRequest } from './compile-request';
import { bytePlan, searchBytes } from './byte-search';
import type { OnLine } from './chunk-scan';
import type { LineFinders } from './line-windows';
import { RANGE_MARGIN, type LineContext, type LineShape } from './literal-lines';
import type { Matcher } from './regex';
import { withPrefix } from './search-files';
import type { SearchTally } from './tally';
import {
  clipToWindow,
  cutLine,
  linesAfter,
  linesBefore,
  lineTextAt,
  previewStart,
  scanLines,
  type LineHits,
} from './scan';
import type { GrepMatch, SegmentRange } from './types';

/** How every file of one search is read and matched. */
export interface FilePlan {
  matcher: Matcher;
  mayMatch: BytePrefilter | null;
  lineFinders: LineFinders | null;
  /** a file with no candidate ranges is decoded and matched in pieces of lines (see byte-search.ts bytePlan) */
  pieces: boolean;
  shape: LineShape;
  rangeMargin: number;
}

export interface PlanOptions {
  /** Skip decoding UTF-8 files whose bytes hold no required literal (default true). */
  bytePrefilter?: boolean;
  /** Search files from their bytes (byte-search.ts; default true); false: decode each file whole (the reference path). */
  literalLines?: boolean;
  rangeMargin?: number;
  /**
   * The required clause whose literals find candidate lines, when an index chose a rarer one
   * than the matcher's required literals (see SearchPrefilter.rarestClause); absent: those.
   */
  anchor?: readonly string[] | null;
}

export function filePlan(compiled: ReturnType<typeof compileRequest>, options: PlanOptions): FilePlan {
  const { matcher } = compiled;
  return {
    matcher,
    mayMatch: options.bytePrefilter === false ? null : bytePrefilter(matcher),
    ...bytePlan(matcher, options.literalLines, options.anchor),
    shape: { before: compiled.contextBefore, after: compiled.contextAfter, cap: compiled.cap },
    rangeMargin: options.rangeMargin ?? RANGE_MARGIN,
  };
}

/** An index's candidate ranges of a long file, with the size and time it was indexed at. */
export interface FileSegments {
  ranges: readonly SegmentRange[];
  size: number;
  mtimeMs?: number;
}

/** 'searched' (read and matched), 'absent' (no required literal in its bytes), or why it was skipped (root-relative path). */
export type FileOutcome = 'searched' | 'absent' | Skipped;

/** A matching line; `make` builds its delivered form. Return false to stop reading the file. */
export type OnMatchLine = ((make: () => GrepMatch) => boolean) & {
  /** True when the next line will only be counted (`make` never called): see chunk-scan.ts OnLine. */
  countOnly?: () => boolean;
};

/** Search one file (`rel` in `source`, shown as `path`). */
export async function searchFile(
  source: FileSource,
  rel: string,
  path: string,
  plan: FilePlan,
  segments: FileSegments | null,
  onLine: OnMatchLine,
): Promise<FileOutcome> {
  const { matcher, shape } = plan;
  const hitLine: OnLine = (
    text: string,
    hits: LineHits,
    lineNo: number,
    context?: () => LineContext,
  ): boolean => onLine(() => deliveredMatch(path, text, hits, lineNo, shape, context));
  hitLine.countOnly = onLine.countOnly;
  const r = await searchBytes(source, rel, plan, segments, hitLine);
  if (r !== 'whole') return r;
  const loaded = await readTextIfMayMatch(source, rel, plan.mayMatch);
  if (loaded.ok === 'absent') return 'absent';
  if (!loaded.ok) return loaded.skipped;
  const text = loaded.text;
  scanLines(text, matcher, (hits) => hitLine(text, hits, hits.line));
  return 'searched';
}

/** A file as the search walks it: root-relative, its workspace path, an index's ranges, and (unstated by the walk) the size to check. */
export interface SearchedFile {
  rel: string;
  path: string;
  segments: FileSegments | null;
  checkBytes?: number;
}

/**
 * One file searched straight into `tally`, as the one-thread search (and the pool's coordinator,
 * when nothing is pending before its chunk) counts it: 'stop' when the search must stop there,
 * 'searched', or 'passed' (skipped, or no required literal in its bytes).
 */
export async function searchFileInto(
  tally: SearchTally,
  source: FileSource,
  f: SearchedFile,
  plan: FilePlan,
  prefix: string,
): Promise<'stop' | 'searched' | 'passed'> {
  if (f.checkBytes !== undefined) {
    const skip = await fileOnWalk(source, f.rel, f.checkBytes);
    if (skip) {
      tally.skip(withPrefix(prefix, skip));
      return 'passed';
    }
  }
  const onLine: OnMatchLine = (make) => tally.line(make);
  onLine.countOnly = () => tally.delivered >= tally.maxResults;
  const r = await searchFile(source, f.rel, f.path, plan, f.segments, onLine);
  if (r === 'absent' || typeof r === 'object') {
    tally.dropFile();
    // an absent file counts as searched, as the byte prefilter answers in the whole-file path
    if (r === 'absent') tally.searched();
    else tally.skip(withPrefix(prefix, r));
    return 'passed';
  }
  tally.searched();
  return tally.finishFile(f.path) ? 'stop' : 'searched';
}

/** A matching line as delivered: cut to maxLineChars (a long line's preview window), with its context. */
function deliveredMatch(
  path: string,
  text: string,
  hits: LineHits,
  lineNo: number,
  shape: LineShape,
  context?: () => LineContext,
): GrepMatch {
  const { cap, before, after } = shape;
  let lineText = lineTextAt(text, hits.start, hits.end);
  let ranges = hits.ranges;
  let textStart = hits.windowStart ?? 0;
  if (cap !== undefined && lineText.length > cap && hits.windowStart === undefined) {
    textStart = previewStart(lineText, ranges, cap);
    lineText = lineText.slice(textStart, textStart + cap);
    ranges = clipToWindow(ranges, textStart, cap);
  }
  const around = context ? context() : null;
  return {
    path,
    line: lineNo,
    text: lineText,
    ranges,
    ...(textStart > 0 ? { textStart } : {}),
    contextBefore: around
      ? around.before
      : before
        ? linesBefore(text, hits.start, Math.min(before, hits.line - 1)).map((l) => cutLine(l, cap))
        : [],
    contextAfter: around
      ? around.after
      : after
        ? linesAfter(text, hits.end, after).map((l) => cutLine(l, cap))
        : [],
  };
}

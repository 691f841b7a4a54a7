/**
 * How one file is searched from its raw bytes (the choice every search makes per query, and
 * the call per file). Whole-file decoding is what costs most in a scan (a 126 MB corpus
 * decodes in about a second; finding a literal in its bytes takes some 20 ms), so:
 *   - a matcher with required literals: only the lines holding one are decoded and matched
 *     (literal-lines.ts), in a scan as in the indexed path;
 *   - a matcher without, or whose literals are too short to be rare (`e\d`: nearly every line
 *     holds an 'e', and a line at a time costs six times more than pieces there): the file is
 *     decoded and matched in pieces of whole lines (chunk-scan.ts), never as one large string;
 *     an index's candidate ranges are still verified by lines;
 *   - `literalLines: false` keeps the reference path (the caller decodes every file whole and
 *     scans it); tests compare the fast paths with it.
 * Either fast path answers 'whole' for a file it cannot take (UTF-16; a case orbit character
 * with a caseless k or s literal): the caller then decodes that file whole.
 */
import type { Workspace } from '../source/workspace';
import type { Skipped } from '../walk/policy';
import type { BytePrefilter } from '../walk/walk';
import type { LineShape } from './byte-lines';
import { searchChunks, type OnLine } from './chunk-scan';
import { literalLineFinders, type LineFinders } from './line-windows';
import { searchLines } from './literal-lines';
import type { Matcher } from './regex';
import type { SegmentRange } from './types';

export interface BytePlan {
  /** the literal-anchored line search's finders (null: no literal to anchor on, or the reference path) */
  lineFinders: LineFinders | null;
  /**
   * a file with no candidate ranges is decoded and matched in pieces, not by lines (false with
   * no finders: the caller decodes the file whole)
   */
  pieces: boolean;
}

/** Literals shorter than `minBytes` (UTF-8) anchor too many lines: pieces do better (tests change it). */
export const LITERAL_LINES = { minBytes: 3 };

/**
 * The byte path of a query: `literalLines` false keeps the reference whole-file path. Candidate
 * lines are found by `anchor` (a required clause an index found rarer) when it can anchor them,
 * else by the matcher's required literals.
 */
export function bytePlan(
  matcher: Matcher,
  literalLines: boolean | undefined,
  anchor?: readonly string[] | null,
): BytePlan {
  if (literalLines === false) return { lineFinders: null, pieces: false };
  const lineFinders = (anchor && literalLineFinders(matcher, anchor)) || literalLineFinders(matcher);
  return {
    lineFinders,
    pieces: lineFinders === null || lineFinders.finders.some((f) => f.length < LITERAL_LINES.minBytes),
  };
}

/** Everything searchBytes needs to know about the query. */
export interface ByteSearch extends BytePlan {
  matcher: Matcher;
  shape: LineShape;
  /** the byte prefilter (whether the file can hold a hit at all), or null */
  mayMatch: BytePrefilter | null;
  rangeMargin: number;
}

/**
 * One file from its bytes: 'searched', 'absent' (no required literal in its bytes), a skip, or
 * 'whole' when the caller must decode it whole and scan it (the reference path, UTF-16, ...).
 */
export async function searchBytes(
  source: Workspace['roots'][number],
  rel: string,
  plan: ByteSearch,
  segments: { ranges: readonly SegmentRange[]; size: number; mtimeMs?: number } | null,
  onLine: OnLine,
): Promise<'searched' | 'absent' | 'whole' | Skipped> {
  if (plan.lineFinders && (segments || !plan.pieces)) {
    return searchLines(
      source,
      rel,
      plan.lineFinders,
      plan.matcher,
      plan.shape,
      onLine,
      plan.mayMatch !== null,
      segments,
      plan.rangeMargin,
    );
  }
  if (plan.pieces) return searchChunks(source, rel, plan.matcher, plan.shape, onLine, plan.mayMatch);
  return 'whole';
}

/**
 * One file decoded and matched in pieces of whole lines rather than as one string: the path of
 * a query with no literal to anchor lines on (`\w+Error`, `[A-Z]{3}`). Hits never span lines
 * and every pattern construct looks only inside its line, so a piece that starts and ends at
 * line boundaries has exactly the hits those lines have in the whole text (scan.ts), and it
 * decodes exactly as within the whole file (a '\n' ends any incomplete UTF-8 sequence).
 *
 * Why pieces: a string of more than 128 KiB is a "large object" in V8, allocated (and freed)
 * on its own pages, and on the bench machine that costs some 40 times more per byte than
 * decoding into the young generation. A piece is at most CHUNK.bytes bytes (a longer line is
 * one piece), which decodes to less than 128 KiB even as a two-byte string.
 */
import { QuarryError } from '../errors';
import type { Workspace } from '../source/workspace';
import { hasNulByte, hasUtf16Bom } from '../walk/decode';
import type { Skipped } from '../walk/policy';
import type { BytePrefilter } from '../walk/walk';
import { ByteLines, type LineContext, type LineShape } from './byte-lines';
import { decodeRange } from './decode-line';
import { countNewlines } from './lines';
import type { Matcher } from './regex';
import { scanLines, type LineHits } from './scan';

/** The most bytes decoded as one piece (tests shrink it). */
export const CHUNK = { bytes: 60 * 1024 };

/** A matching line; return false to stop (the same callback searchLines takes). */
export type OnLine = ((
  text: string,
  hits: LineHits,
  lineNo: number,
  context?: () => LineContext,
) => boolean) & {
  /**
   * True when the next matching line is only counted (the delivered lines are all made): a
   * reader that knows a line matches without decoding it may then pass '' and no hits.
   */
  countOnly?: () => boolean;
};

/**
 * Search one file in pieces: 'searched'; 'absent' when `mayMatch` says its bytes hold no hit;
 * a skip (unreadable, binary); or 'whole' for a UTF-16 file (the caller decodes it whole).
 */
export async function searchChunks(
  source: Workspace['roots'][number],
  path: string,
  matcher: Matcher,
  shape: LineShape,
  onLine: OnLine,
  mayMatch: BytePrefilter | null,
): Promise<'searched' | 'absent' | 'whole' | Skipped> {
  let bytes: Uint8Array;
  try {
    bytes = source.readTransient ? await source.readTransient(path) : await source.read(path);
  } catch (err) {
    return readSkip(path, err);
  }
  // as readTextIfMayMatch and decodeBytes answer: with the byte prefilter a NUL means binary
  // before anything else; without it, a UTF-8 byte-order mark means text whatever follows
  if (hasUtf16Bom(bytes)) return 'whole';
  const n = bytes.length;
  const from = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (mayMatch) {
    if (hasNulByte(bytes)) return { path, reason: 'binary' };
    if (!mayMatch(bytes)) return 'absent';
  } else if (from === 0 && hasNulByte(bytes)) return { path, reason: 'binary' };
  const wantContext = shape.before > 0 || shape.after > 0;
  const lines = wantContext ? new ByteLines(source, bytes, from, shape) : null;
  // with context: the byte offset of line `atLine`, moved forward to each matching line (from
  // its piece's start at most)
  let atLine = 1;
  let atByte = from;
  // lines are counted only up to a piece with a hit: the last piece start numbered, and its line
  let countedPos = from;
  let countedLine = 1;
  let stopped = false;
  for (let a = from; a < n && !stopped;) {
    let e = Math.min(n, a + CHUNK.bytes);
    if (e < n) {
      const nl = bytes.lastIndexOf(10, e - 1);
      if (nl >= a) e = nl + 1;
      else {
        const next = bytes.indexOf(10, e);
        e = next === -1 ? n : next + 1;
      }
    }
    const text = decodeRange(source, bytes, a, e);
    const start = a;
    let base = -1; // the line number of the piece's first line, once a hit needs it
    scanLines(text, matcher, (hits) => {
      if (base === -1) {
        countedLine += countNewlines(bytes, countedPos, start);
        countedPos = start;
        base = countedLine;
      }
      const lineNo = base + hits.line - 1;
      let context: (() => LineContext) | undefined;
      if (lines) {
        if (atLine < base) {
          // the piece's first line starts the piece
          atLine = base;
          atByte = start;
        }
        while (atLine < lineNo) {
          atByte = bytes.indexOf(10, atByte) + 1;
          atLine++;
        }
        let le = bytes.indexOf(10, atByte);
        if (le === -1) le = n;
        const ls = atByte;
        context = () => lines.contextOf(ls, le);
      }
      if (!onLine(text, hits, lineNo, context)) stopped = true;
      return !stopped;
    });
    a = e;
  }
  return 'searched';
}

/** Why a file that could not be read is skipped, as the walk's reader says it (walk.ts readText). */
export function readSkip(path: string, err: unknown): Skipped {
  const reason = err instanceof QuarryError ? err.data.reason : undefined;
  const detail = err instanceof Error ? err.message : String(err);
  return {
    path,
    reason:
      reason === 'outsideRoot' || reason === 'notRegular' || reason === 'symlinkLoop' ? reason : 'unreadable',
    detail,
  };
}

/**
 * Narrowing the files a search reads: a content index's candidates (SearchPrefilter; with a
 * complete index, the candidates themselves in walk order, with no walk) and the byte
 * prefilter over a file's raw bytes.
 */
import type { Matcher } from './regex';
import type { SegmentRange } from './types';
import { containsBytes, containsBytesCaseless } from '../walk/decode';
import { isAscii } from './decode-line';
import type { BytePrefilter, WalkedFile } from '../walk/walk';

/** The UTF-8 bytes of U+212A (KELVIN SIGN) and U+017F (LONG S), the RE2 case orbits of k and s. */
export const KELVIN = new Uint8Array([0xe2, 0x84, 0xaa]);
export const LONG_S = new Uint8Array([0xc5, 0xbf]);

/** A content index that can narrow the files to search (the trigram index). */
export interface SearchPrefilter {
  /**
   * Workspace paths that may contain a hit, each with the byte ranges of it that may (null:
   * the whole file), or null when the index cannot narrow the query. Ranges are ascending
   * and hold whole lines; they are offsets into the file as `sizeOf` gives its size.
   */
  candidates(plan: {
    requiredLiterals: string[] | null;
    requiredClauses?: readonly string[][] | null;
  }): ReadonlyMap<string, readonly SegmentRange[] | null> | null;
  /**
   * Of the query's required clauses (its required literals among them), the one the index finds
   * in the fewest places, or null: candidate lines may be found by it (see line-windows.ts).
   */
  rarestClause?(plan: {
    requiredLiterals: string[] | null;
    requiredClauses?: readonly string[][] | null;
  }): string[] | null;
  /** Whether the index covers this path (uncovered files are always scanned). */
  has(path: string): boolean;
  /**
   * Present when the index is complete and fresh for the workspace (every file the walk policy
   * admits, up to `maxIndexedBytes`): the search then reads candidates directly, with no walk.
   */
  sizeOf?(path: string): number | undefined;
  /** The modified time the index saw (ranged reads check it with the size). */
  mtimeOf?(path: string): number | undefined;
  /** Present only when the index covers every file the walk admits up to this size (the direct path). */
  maxIndexedBytes?: number;
  /** The file's bytes as the index read them, when held in memory (the direct path reads no file for it). */
  contentOf?(path: string): Uint8Array | undefined;
}

/**
 * The clause that finds a query's candidate lines when the index narrowed it (its rarest; see
 * SearchPrefilter.rarestClause), else null: the matcher's required literals.
 */
export function anchorOf(
  prefilter: SearchPrefilter | undefined,
  candidates: unknown,
  matcher: Parameters<SearchPrefilter['candidates']>[0],
): string[] | null {
  return candidates ? (prefilter?.rarestClause?.(matcher) ?? null) : null;
}

/**
 * ripgrep's and our walk order: paths compared segment by segment, by code unit (a segment
 * that is a prefix of the other sorts first; so does a path that is a prefix of the other).
 * Compared in place, without splitting: the index's direct path sorts thousands of candidates.
 */
export function compareWalkOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length; // one is a prefix of the other (or they are equal)
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  // the segment that ends here is a prefix of the other's segment
  if (x === 47) return -1;
  if (y === 47) return 1;
  return x - y;
}

/** The indexed fast path: candidate files of one root, filtered like the walk would, in walk order. */
export async function* directFiles(
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
  if (!lits.every(isAscii)) return null;
  const needles = lits.map((l) => enc.encode(l.toLowerCase()));
  const orbit = lits.some((l) => /[ks]/i.test(l));
  return (bytes) =>
    needles.some((n) => containsBytesCaseless(bytes, n)) ||
    (orbit && (containsBytes(bytes, KELVIN) || containsBytes(bytes, LONG_S)));
}

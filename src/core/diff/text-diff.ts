/**
 * Two versions of a file -> what a diff view needs: the line edit script, word ranges inside
 * changed line pairs, counts, line-ending facts. Bytes are decoded the way the rest of Quarry
 * decides text (core/walk/decode.ts: a NUL byte in the first 8 KiB means binary, as git says).
 */
import { decodeBytes } from '../walk/decode';
import { lineEndings, splitLines, type SplitText } from './lines';
import { diffSplit, type LineDiff, type LineDiffOptions } from './ops';
import { wordPairs, type WordPair } from './words';

/** Sides larger than this are not diffed (the view says so and offers the file itself). */
export const MAX_DIFF_BYTES = 16 * 1024 * 1024;

export type DiffSide =
  | { kind: 'absent' }
  | { kind: 'binary'; bytes: number }
  | { kind: 'tooLarge'; bytes: number }
  | { kind: 'text'; bytes: number; text: string; encoding: string };

export function decodeSide(bytes: Uint8Array | null, maxBytes = MAX_DIFF_BYTES): DiffSide {
  if (!bytes) return { kind: 'absent' };
  if (bytes.byteLength > maxBytes) return { kind: 'tooLarge', bytes: bytes.byteLength };
  const d = decodeBytes(bytes);
  return d.binary
    ? { kind: 'binary', bytes: bytes.byteLength }
    : { kind: 'text', bytes: bytes.byteLength, text: d.text, encoding: d.encoding };
}

export type LineEndings = ReturnType<typeof lineEndings>;

export interface TextDiff extends LineDiff {
  words: WordPair[];
  aLines: number;
  bLines: number;
  /** The last line of A / B has no newline. */
  aNoEol: boolean;
  bNoEol: boolean;
  aEndings: LineEndings;
  bEndings: LineEndings;
}

export function diffTexts(a: string, b: string, options: LineDiffOptions = {}): TextDiff {
  return diffSplitTexts(splitLines(a), splitLines(b), options);
}

export function diffSplitTexts(sa: SplitText, sb: SplitText, options: LineDiffOptions = {}): TextDiff {
  const d = diffSplit(sa, sb, options);
  return {
    ...d,
    words: wordPairs(sa.lines, sb.lines, d.ops),
    aLines: sa.lines.length,
    bLines: sb.lines.length,
    aNoEol: sa.noEol,
    bNoEol: sb.noEol,
    aEndings: lineEndings(sa),
    bEndings: lineEndings(sb),
  };
}

/**
 * The lines of a file's raw bytes as a search delivers them: one line decoded alone (without
 * its '\r', cut to maxLineChars) and the context lines around a matching line. Decoding a
 * line alone gives exactly that line of the whole file's decoding (UTF-8 decoders restart at
 * every ASCII byte, so a '\n' ends any incomplete sequence either way), so these are the
 * lines the whole-file path (scan.ts linesBefore / linesAfter) gives.
 */
import type { Workspace } from '../source/workspace';
import { decodeRange } from './decode-line';
import { cutLine } from './scan';

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

export class ByteLines {
  /**
   * A UTF-16 code unit takes at most 3 bytes and an incomplete final sequence at most 3 more,
   * so the first `headBytes` bytes of a line decode to more than `cap` units, as the whole line.
   */
  readonly headBytes: number;

  /**
   * `bytes` may be replaced (a partly read file read whole: the same offsets); `from` is where
   * the text starts (3 after a UTF-8 byte-order mark).
   */
  constructor(
    private readonly source: Workspace['roots'][number],
    public bytes: Uint8Array,
    private readonly from: number,
    private readonly shape: LineShape,
  ) {
    this.headBytes = shape.cap === undefined ? Infinity : 3 * shape.cap + 8;
  }

  /** bytes[s, e) as text. */
  text(s: number, e: number): string {
    return decodeRange(this.source, this.bytes, s, e);
  }

  /** One line bytes[s, e) without its '\r', cut to maxLineChars. */
  lineAt(s: number, e: number): string {
    const bytes = this.bytes;
    const cap = this.shape.cap;
    if (e - s > this.headBytes) return this.text(s, s + this.headBytes).slice(0, cap);
    if (e > s && bytes[e - 1] === 13) e--;
    return cutLine(this.text(s, e), cap);
  }

  /** The context of the line bytes[ls, le), as the whole-file path's linesBefore/linesAfter give it. */
  contextOf(ls: number, le: number): LineContext {
    const { bytes, from, shape } = this;
    const before: string[] = [];
    let end = ls - 1; // the '\n' ending the previous line
    while (before.length < shape.before && end >= from) {
      const s = end > from ? Math.max(from, bytes.lastIndexOf(10, end - 1) + 1) : from;
      before.unshift(this.lineAt(s, end));
      end = s - 1;
    }
    const after: string[] = [];
    let nl = le < bytes.length ? le : -1;
    while (after.length < shape.after && nl !== -1 && nl + 1 < bytes.length) {
      const next = bytes.indexOf(10, nl + 1);
      after.push(this.lineAt(nl + 1, next === -1 ? bytes.length : next));
      nl = next;
    }
    return { before, after };
  }
}

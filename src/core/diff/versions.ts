/**
 * A file's successive versions as line ids, straight from their bytes, for blame: lines are
 * split at '\n' bytes and interned by their bytes (as git's xdiff hashes them: invalid UTF-8
 * stays distinct, no text is decoded), and each older version is derived from the newer one:
 * the lines inside the common byte prefix and suffix are copied, only the middle is hashed.
 * Over 1,000 versions of a 5,000-line file that skips most of the ~200 MB a whole-file decode
 * and string hashing would cost. Indentation (for the indent heuristic) is read from bytes too.
 *
 * For text whose newline is the byte 0x0A (UTF-8, ASCII, Latin-1...); UTF-16 goes through the
 * string path (splitLines + LineInterner). versions.test.ts checks a derived version against
 * splitting the whole text, on random edits.
 */

import { fnv1a, fnv1aStep } from '../hash';

const NL = 0x0a;

/** Lines interned by their bytes (a line and the same line without its newline at the end of the file differ). */
export class ByteLineInterner {
  private table = new Int32Array(1 << 12).fill(-1);
  private hashes: number[] = [];
  private offsets: number[] = [];
  private lengths: number[] = [];
  private tailless: boolean[] = [];
  private arena = new Uint8Array(1 << 16);
  private used = 0;

  get size(): number {
    return this.hashes.length;
  }

  idOf(bytes: Uint8Array, start: number, end: number, noEol: boolean): number {
    // FNV-1a over the bytes, then the "no newline" flag
    const h = fnv1aStep(fnv1a(bytes, start, end), noEol ? 1 : 2) >>> 0;
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot];
      if (id < 0) return this.add(slot, h, bytes, start, end, noEol);
      if (
        this.hashes[id] === h &&
        this.lengths[id] === end - start &&
        this.tailless[id] === noEol &&
        this.same(id, bytes, start, end)
      )
        return id;
    }
  }

  private same(id: number, bytes: Uint8Array, start: number, end: number): boolean {
    const a = this.arena;
    let o = this.offsets[id];
    for (let i = start; i < end; i++, o++) if (a[o] !== bytes[i]) return false;
    return true;
  }

  private add(
    slot: number,
    h: number,
    bytes: Uint8Array,
    start: number,
    end: number,
    noEol: boolean,
  ): number {
    const id = this.hashes.length;
    const n = end - start;
    if (this.used + n > this.arena.length) {
      const grown = new Uint8Array(Math.max(this.arena.length * 2, this.used + n));
      grown.set(this.arena.subarray(0, this.used));
      this.arena = grown;
    }
    this.arena.set(bytes.subarray(start, end), this.used);
    this.hashes.push(h);
    this.offsets.push(this.used);
    this.lengths.push(n);
    this.tailless.push(noEol);
    this.used += n;
    this.table[slot] = id;
    if (this.hashes.length * 2 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.hashes.length; id++) {
      let slot = this.hashes[id] & mask;
      while (table[slot] >= 0) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
  }
}

export interface ByteVersion {
  bytes: Uint8Array;
  /** Byte offset of each line's start; starts[lineCount] = bytes.length. */
  starts: Int32Array;
  ids: Int32Array;
  /** The last line has no newline. */
  noEol: boolean;
}

export const lineCount = (v: ByteVersion) => v.starts.length - 1;

/** Where line i's text ends (before its newline). */
function lineEnd(v: ByteVersion, i: number): number {
  const end = v.starts[i + 1];
  return i === v.starts.length - 2 && v.noEol ? end : end - 1;
}

/** git's get_indent on line i: columns of leading whitespace (a tab to the next multiple of 8), -1 for a blank line. */
export function indentOf(v: ByteVersion, i: number): number {
  const b = v.bytes;
  const end = lineEnd(v, i);
  let col = 0;
  for (let k = v.starts[i]; k < end; k++) {
    const c = b[k];
    if (c !== 32 && (c < 9 || c > 13)) return col;
    if (c === 32) col += 1;
    else if (c === 9) col += 8 - (col % 8);
    if (col >= 200) return 200;
  }
  return -1;
}

/** Line starts of bytes[from, to) (from is a line start), appended to `out`. */
function startsIn(bytes: Uint8Array, from: number, to: number, out: number[]): void {
  if (from >= to) return;
  out.push(from);
  for (let i = bytes.indexOf(NL, from); i !== -1 && i < to - 1; i = bytes.indexOf(NL, i + 1)) out.push(i + 1);
}

function intern(
  bytes: Uint8Array,
  starts: readonly number[],
  from: number,
  to: number,
  noEol: boolean,
  interner: ByteLineInterner,
  ids: Int32Array,
  at: number,
): void {
  const last = starts.length - 2;
  for (let i = from; i < to; i++) {
    const tailless = i === last && noEol;
    ids[at + i - from] = interner.idOf(
      bytes,
      starts[i],
      tailless ? starts[i + 1] : starts[i + 1] - 1,
      tailless,
    );
  }
}

/** A version split whole (the first one, HEAD). */
export function fullVersion(bytes: Uint8Array, interner: ByteLineInterner): ByteVersion {
  const starts: number[] = [];
  startsIn(bytes, 0, bytes.length, starts);
  starts.push(bytes.length);
  const noEol = bytes.length > 0 && bytes[bytes.length - 1] !== NL;
  const ids = new Int32Array(starts.length - 1);
  intern(bytes, starts, 0, ids.length, noEol, interner, ids, 0);
  return { bytes, starts: Int32Array.from(starts), ids, noEol };
}

const view = (a: Uint8Array) => new DataView(a.buffer, a.byteOffset, a.byteLength);

/** Bytes equal at the start of both (compared four at a time: five to ten times faster than byte by byte). */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  if (((a.byteOffset | b.byteOffset) & 3) === 0) {
    const wa = new Int32Array(a.buffer, a.byteOffset, n >> 2);
    const wb = new Int32Array(b.buffer, b.byteOffset, n >> 2);
    let w = 0;
    while (w < wa.length && wa[w] === wb[w]) w++;
    i = w << 2;
  } else {
    const da = view(a);
    const db = view(b);
    while (i + 4 <= n && da.getInt32(i) === db.getInt32(i)) i += 4;
  }
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Bytes equal at the end of both, at most `limit`. */
export function commonSuffix(a: Uint8Array, b: Uint8Array, limit = Infinity): number {
  limit = Math.min(limit, a.length, b.length);
  const da = view(a);
  const db = view(b);
  let i = 0;
  while (i + 4 <= limit && da.getInt32(a.length - 4 - i) === db.getInt32(b.length - 4 - i)) i += 4;
  while (i < limit && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/**
 * The version whose bytes are `bytes`, from `cur` (a version close to it). `suffix` may pass
 * the two's common suffix if the caller has it (bounded by the shorter length).
 */
export function deriveVersion(
  cur: ByteVersion,
  bytes: Uint8Array,
  interner: ByteLineInterner,
  suffix?: number,
): ByteVersion {
  const n = lineCount(cur);
  const lb = cur.bytes.length;
  const la = bytes.length;
  const prefix = commonPrefix(cur.bytes, bytes);
  // whole lines at the start, with their newline (a last line without one never counts)
  let lo = 0;
  let hi = cur.noEol ? n - 1 : n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cur.starts[mid] <= prefix) lo = mid;
    else hi = mid - 1;
  }
  const p = lo;
  const head = cur.starts[p];
  // whole lines at the end whose preceding newline is common too (both have a line boundary there)
  const same = Math.min(suffix ?? commonSuffix(cur.bytes, bytes), Math.min(la, lb) - head);
  let s = 0;
  while (s < n - p && n - s - 1 >= 1 && lb - cur.starts[n - s - 1] < same) s++;
  const to = la - (lb - cur.starts[n - s]);

  const starts: number[] = Array.from(cur.starts.subarray(0, p));
  startsIn(bytes, head, to, starts);
  const midEnd = starts.length;
  const shift = la - lb;
  for (let k = n - s; k < n; k++) starts.push(cur.starts[k] + shift);
  starts.push(la);
  const noEol = s > 0 ? cur.noEol : to > head && bytes[to - 1] !== NL;
  const ids = new Int32Array(starts.length - 1);
  ids.set(cur.ids.subarray(0, p), 0);
  intern(bytes, starts, p, midEnd, noEol, interner, ids, p);
  ids.set(cur.ids.subarray(n - s), midEnd);
  return { bytes, starts: Int32Array.from(starts), ids, noEol };
}

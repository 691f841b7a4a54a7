/**
 * Posting-list helpers for the trigram index: varint-encoded id deltas written to a growable
 * byte buffer, and ascending id lists searched, united and intersected.
 */

/** A growable byte buffer for varint output (a number[] costs 8 bytes a byte and much GC). */
export class ByteSink {
  buf = new Uint8Array(1 << 16);
  length = 0;
  push(b: number): void {
    if (this.length === this.buf.length) {
      const grown = new Uint8Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[this.length++] = b;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export function encodeVarint(out: ByteSink, v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

/** The first index of sorted `a` whose value is >= x. */
export function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ascending union of two ascending id lists (an id in both appears once). */
export function unionSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j === b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i === a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}

/** The ascending intersection of two ascending id lists. */
export function intersectSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

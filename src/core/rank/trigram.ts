/**
 * A file-level trigram index for text and regex search (after zoekt and Russ Cox's
 * "Regular Expression Matching with a Trigram Index"). Every file's distinct trigrams are
 * stored case-folded, so one index serves case-sensitive and case-insensitive queries.
 * A query is planned from its Matcher's requiredLiterals (a disjunction: every hit contains
 * at least one): candidates = union over literals of the intersection of their trigrams'
 * postings. Candidates are then verified with the real matcher, so results are identical
 * to a scan; a query with no literal of 3+ characters falls back to the scan (null plan).
 *
 * Folding: ASCII letters are lowercased; U+212A KELVIN SIGN and U+017F LATIN SMALL LONG S
 * fold to 'k' and 's' (their RE2 case orbits reach ASCII); every other non-ASCII code unit
 * maps to one shared bucket. A folded trigram is a 21-bit key.
 *
 * Memory: postings live in a compact base (keys sorted; per key a run of varint-encoded
 * file-id deltas in one byte pool: ~1.2 bytes per posting) plus a small tail of JS arrays
 * for files added since the base was built; removed files are tombstones. compact() folds
 * the tail into a new base (after a full build and before saving).
 */

const OTHER = 127;

export function foldUnit(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  if (c === 0x212a) return 107; // 'k'
  if (c === 0x17f) return 115; // 's'
  return OTHER;
}

/** Keys of a literal's trigrams (folded); empty when shorter than 3 code units. */
export function literalTrigrams(literal: string): number[] {
  const keys = new Set<number>();
  for (let i = 0; i + 2 < literal.length; i++) {
    keys.add((foldUnit(literal.charCodeAt(i)) << 14) | (foldUnit(literal.charCodeAt(i + 1)) << 7) | foldUnit(literal.charCodeAt(i + 2)));
  }
  return [...keys];
}

export interface TrigramPlanInput {
  requiredLiterals: string[] | null;
}

export interface TrigramState {
  files: string[];
  /** sorted keys */
  keys: Uint32Array;
  /** byte offset of each key's run in `pool` (keys.length + 1 entries) */
  offsets: Uint32Array;
  /** varint deltas of ascending file ids, as 32-bit words (pool bytes packed little-endian) */
  pool: Uint32Array;
  poolBytes: number;
}

/**
 * Dedupe scratch shared by every index in this thread: the stamp of the last addFile() call
 * that produced each key. addFile is synchronous, so one 8 MiB table serves all indexes.
 */
let lastSeen: Int32Array | null = null;
let stampCounter = 0;

/** A growable byte buffer for varint output (a number[] costs 8 bytes a byte and much GC). */
class ByteSink {
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

function encodeVarint(out: ByteSink, v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

export class TrigramIndex {
  /** file id -> path (null once removed) */
  private files: Array<string | null> = [];
  private ids = new Map<string, number>();
  // base: CSR over sorted keys
  private baseKeys: Uint32Array = new Uint32Array(0);
  private baseOffsets: Uint32Array = new Uint32Array(1);
  private basePool: Uint8Array = new Uint8Array(0);
  /** tail: key -> ascending file ids added after the base */
  private tail = new Map<number, number[]>();

  get fileCount(): number {
    return this.ids.size;
  }

  addFile(path: string, text: string): void {
    this.removeFile(path);
    const id = this.files.length;
    this.files.push(path);
    this.ids.set(path, id);
    const n = text.length;
    if (n < 3) return;
    const seen = (lastSeen ??= new Int32Array(1 << 21));
    const stamp = ++stampCounter;
    let a = foldUnit(text.charCodeAt(0));
    let b = foldUnit(text.charCodeAt(1));
    for (let i = 2; i < n; i++) {
      const c = foldUnit(text.charCodeAt(i));
      const key = (a << 14) | (b << 7) | c;
      if (seen[key] !== stamp) {
        seen[key] = stamp;
        let list = this.tail.get(key);
        if (!list) {
          list = [];
          this.tail.set(key, list);
        }
        list.push(id);
      }
      a = b;
      b = c;
    }
  }

  removeFile(path: string): void {
    const id = this.ids.get(path);
    if (id === undefined) return;
    this.files[id] = null; // tombstone: dead ids are filtered when a plan is resolved
    this.ids.delete(path);
  }

  has(path: string): boolean {
    return this.ids.has(path);
  }

  /** Ascending live-or-dead file ids holding `key` (base run, then tail). */
  private postings(key: number): number[] {
    const out: number[] = [];
    const keys = this.baseKeys;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] === key) {
        const pool = this.basePool;
        let pos = this.baseOffsets[mid];
        const end = this.baseOffsets[mid + 1];
        let id = 0;
        while (pos < end) {
          let v = 0;
          let shift = 0;
          let byte;
          do {
            byte = pool[pos++];
            v |= (byte & 0x7f) << shift;
            shift += 7;
          } while (byte & 0x80);
          id += v;
          out.push(id);
        }
        break;
      }
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid - 1;
    }
    const t = this.tail.get(key);
    if (t) for (const id of t) out.push(id);
    return out;
  }

  /** Candidate paths for a query, or null when the index cannot narrow it (scan everything). */
  candidates(plan: TrigramPlanInput): Set<string> | null {
    const literals = plan.requiredLiterals;
    if (!literals || !literals.length) return null;
    const perLiteral = literals.map(literalTrigrams);
    if (perLiteral.some((keys) => keys.length === 0)) return null; // a short alternative: no narrowing
    const out = new Set<string>();
    for (const keys of perLiteral) {
      const lists = keys.map((k) => this.postings(k));
      lists.sort((x, y) => x.length - y.length);
      let acc = lists[0];
      for (let i = 1; i < lists.length && acc.length; i++) acc = intersectSorted(acc, lists[i]);
      for (const id of acc) {
        const p = this.files[id];
        if (p !== null) out.add(p);
      }
    }
    return out;
  }

  /** Fold the tail and the tombstones into a new compact base; file ids are renumbered. */
  compact(): void {
    lastSeen = null; // the 8 MiB dedupe scratch is only needed while files are being added
    const live: string[] = [];
    const remap = new Int32Array(this.files.length).fill(-1);
    this.files.forEach((p, id) => {
      if (p !== null) {
        remap[id] = live.length;
        live.push(p);
      }
    });
    const allKeys = new Set<number>(this.baseKeys);
    for (const k of this.tail.keys()) allKeys.add(k);
    const keys = Uint32Array.from(allKeys).sort();
    const outKeys: number[] = [];
    const offsets: number[] = [0];
    const bytes = new ByteSink();
    for (const key of keys) {
      let prev = 0;
      let any = false;
      for (const id of this.postings(key)) {
        const nid = remap[id];
        if (nid < 0) continue;
        encodeVarint(bytes, nid - prev);
        prev = nid;
        any = true;
      }
      if (any) {
        outKeys.push(key);
        offsets.push(bytes.length);
      }
    }
    this.files = live;
    this.ids = new Map(live.map((p, i) => [p, i]));
    this.baseKeys = Uint32Array.from(outKeys);
    this.baseOffsets = Uint32Array.from(offsets);
    this.basePool = bytes.bytes();
    this.tail = new Map();
  }

  toState(): TrigramState {
    this.compact();
    const words = new Uint32Array(Math.ceil(this.basePool.length / 4));
    new Uint8Array(words.buffer).set(this.basePool);
    return { files: this.files as string[], keys: this.baseKeys, offsets: this.baseOffsets, pool: words, poolBytes: this.basePool.length };
  }

  static fromState(state: TrigramState): TrigramIndex {
    const index = new TrigramIndex();
    index.files = [...state.files];
    state.files.forEach((p, id) => index.ids.set(p, id));
    index.baseKeys = state.keys;
    index.baseOffsets = state.offsets;
    index.basePool = new Uint8Array(state.pool.buffer, state.pool.byteOffset, state.poolBytes);
    return index;
  }

}

function intersectSorted(a: number[], b: number[]): number[] {
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

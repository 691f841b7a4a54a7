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
 * Segments: an ASCII file (one byte per code unit, so text offsets are byte offsets) longer
 * than two segments is indexed as consecutive line-aligned segments of about `segmentChars`
 * characters, each its own posting "document" holding the trigrams of its text and of the two
 * characters after it (so every trigram of the file is in some segment). A query's candidates
 * then name, per file, the byte ranges that can hold a hit (with the line number each range
 * starts at), and the search reads and verifies only those. Hits never span lines, and a
 * segment ends just after a '\n', so no hit crosses a range's edge. Other files are one
 * document (null ranges: search it whole).
 *
 * Memory: postings live in a compact base (keys sorted; per key a run of varint-encoded
 * document-id deltas in one byte pool: ~1.2 bytes per posting) plus a tail of (key, document)
 * entries in typed arrays, appended in document order and grouped by key on demand
 * for files added since the base was built; removed files are tombstones. compact() folds
 * the tail into a new base (after a full build and before saving).
 */

import { QuarryError } from '../errors';
import type { SegmentRange } from '../grep/types';
import { ByteSink, encodeVarint, intersectSorted, lowerBound, unionSorted } from './posting-lists';

export type { SegmentRange } from '../grep/types';

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
    keys.add(
      (foldUnit(literal.charCodeAt(i)) << 14) |
        (foldUnit(literal.charCodeAt(i + 1)) << 7) |
        foldUnit(literal.charCodeAt(i + 2)),
    );
  }
  return [...keys];
}

export interface TrigramPlanInput {
  /** a disjunction every hit holds a literal of */
  requiredLiterals: string[] | null;
  /** more such disjunctions (a conjunction of them; see the matcher's requiredClauses) */
  requiredClauses?: readonly string[][] | null;
}

/**
 * The clauses an index lookup intersects: the required literals and the required clauses,
 * each kept only when every literal in it has a trigram (3+ code units), duplicates dropped.
 */
export function planClauses(plan: TrigramPlanInput): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const c of [plan.requiredLiterals, ...(plan.requiredClauses ?? [])]) {
    if (!c || !c.length || c.some((l) => literalTrigrams(l).length === 0)) continue;
    const key = [...c].sort().join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** Candidate files of a query: path -> the ranges to search, or null for the whole file. */
export type CandidateMap = Map<string, SegmentRange[] | null>;

export const DEFAULT_SEGMENT_CHARS = 16 * 1024;

export interface TrigramState {
  /** path of each document (a segmented file's segments are consecutive documents) */
  files: string[];
  /** per document: [start offset, 1-based first line] */
  segments: Uint32Array;
  /** sorted keys */
  keys: Uint32Array;
  /** byte offset of each key's run in `pool` (keys.length + 1 entries) */
  offsets: Uint32Array;
  /** varint deltas of ascending document ids, as 32-bit words (pool bytes packed little-endian) */
  pool: Uint32Array;
  poolBytes: number;
}

/**
 * Dedupe scratch shared by every index in this thread: one bit per key (256 KiB, so it stays
 * in cache), set while a document is added and cleared from the document's own entries after.
 * addDocument is synchronous, so one bitset serves all indexes.
 */
const seenBits = new Int32Array(1 << 16);

/** Tails with fewer entries are grouped by sorting (groupSmallTail); a power of two. */
const SMALL_TAIL = 1 << 16;

export class TrigramIndex {
  /** document id -> path (null once removed); a segmented file has consecutive documents */
  private files: Array<string | null> = [];
  /** document id -> start offset and first line within its file (0 and 1 when not segmented) */
  private segStart: number[] = [];
  private segLine: number[] = [];
  /** path -> its first document id */
  private ids = new Map<string, number>();

  constructor(private readonly segmentChars = DEFAULT_SEGMENT_CHARS) {}
  // base: CSR over sorted keys
  private baseKeys: Uint32Array = new Uint32Array(0);
  private baseOffsets: Uint32Array = new Uint32Array(1);
  private basePool: Uint8Array = new Uint8Array(0);
  /** tail: (key, document) entries of the documents added since the base, in document order */
  private tailKeys: Uint32Array = new Uint32Array(1 << 12);
  private tailLen = 0;
  /** the first document of the tail, and where each tail document's entries end (a document's entries are consecutive) */
  private tailFirstDoc = 0;
  private tailDocEnds: number[] = [];
  /** the tail grouped by key (sorted distinct keys, their runs of documents), built when a lookup needs it */
  private tailIndex: { keys: Uint32Array; starts: Int32Array; docs: Int32Array } | null = null;

  get fileCount(): number {
    return this.ids.size;
  }

  /**
   * Index a file's text (replacing what was there). `byteLength` is the file's size in bytes:
   * when it equals text.length every code unit is one byte (ASCII, or lone invalid bytes
   * decoded to U+FFFD) and a long file is split into segments whose offsets are byte offsets.
   */
  addFile(path: string, text: string, byteLength?: number): void {
    this.removeFile(path);
    this.ids.set(path, this.files.length);
    const seg = this.segmentChars;
    if (byteLength !== text.length || text.length <= 2 * seg) {
      this.addDocument(path, text, 0, text.length, 0, 1);
      return;
    }
    let start = 0;
    let line = 1;
    while (start < text.length) {
      let end = start + seg;
      if (end >= text.length - seg / 2)
        end = text.length; // no small tail segment
      else {
        const nl = text.indexOf('\n', end);
        end = nl === -1 ? text.length : nl + 1;
      }
      this.addDocument(path, text, start, Math.min(text.length, end + 2), start, line);
      for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
      start = end;
    }
  }

  /** One posting document: the distinct trigrams of text[from, to). */
  private addDocument(
    path: string,
    text: string,
    from: number,
    to: number,
    start: number,
    line: number,
  ): void {
    this.files.push(path);
    this.segStart.push(start);
    this.segLine.push(line);
    this.tailIndex = null;
    if (to - from < 3) {
      this.tailDocEnds.push(this.tailLen);
      return;
    }
    const bits = seenBits;
    const first = this.tailLen;
    let keys = this.tailKeys;
    let a = foldUnit(text.charCodeAt(from));
    let b = foldUnit(text.charCodeAt(from + 1));
    for (let i = from + 2; i < to; i++) {
      const c = foldUnit(text.charCodeAt(i));
      const key = (a << 14) | (b << 7) | c;
      const bit = 1 << (key & 31);
      if ((bits[key >>> 5] & bit) === 0) {
        bits[key >>> 5] |= bit;
        if (this.tailLen === keys.length) keys = this.growTail();
        keys[this.tailLen++] = key;
      }
      a = b;
      b = c;
    }
    for (let e = first; e < this.tailLen; e++) bits[keys[e] >>> 5] = 0;
    this.tailDocEnds.push(this.tailLen);
  }

  private growTail(): Uint32Array {
    const n = this.tailKeys.length * 2;
    const keys = new Uint32Array(n);
    keys.set(this.tailKeys);
    this.tailKeys = keys;
    return keys;
  }

  /** The tail grouped by key with a counting sort over the 21-bit keys (documents stay ascending). */
  private groupTail(): NonNullable<TrigramIndex['tailIndex']> {
    if (this.tailIndex) return this.tailIndex;
    const n = this.tailLen;
    if (n < SMALL_TAIL) return (this.tailIndex = this.groupSmallTail());
    const counts = new Int32Array(1 << 21);
    for (let e = 0; e < n; e++) counts[this.tailKeys[e]]++;
    let distinct = 0;
    for (let k = 0; k < counts.length; k++) if (counts[k]) distinct++;
    const keys = new Uint32Array(distinct);
    const starts = new Int32Array(distinct + 1);
    for (let k = 0, j = 0, at = 0; k < counts.length; k++) {
      const c = counts[k];
      if (!c) continue;
      keys[j] = k;
      starts[j++] = at;
      counts[k] = at; // from here on: the next free place of key k
      at += c;
    }
    starts[distinct] = n;
    const docs = new Int32Array(n);
    for (let d = 0, e = 0; d < this.tailDocEnds.length; d++) {
      const doc = this.tailFirstDoc + d;
      for (const last = this.tailDocEnds[d]; e < last; e++) docs[counts[this.tailKeys[e]]++] = doc;
    }
    this.tailIndex = { keys, starts, docs };
    return this.tailIndex;
  }

  /**
   * groupTail for a few entries (a file or two added since the base): a sort of the entries by
   * (key, position) rather than a count over all 2M keys, whose 8 MiB array costs more than
   * the whole lookup then.
   */
  private groupSmallTail(): NonNullable<TrigramIndex['tailIndex']> {
    const n = this.tailLen;
    const docOf = new Int32Array(n);
    for (let d = 0, e = 0; d < this.tailDocEnds.length; d++)
      for (const last = this.tailDocEnds[d]; e < last; e++) docOf[e] = this.tailFirstDoc + d;
    // key and position in one exact double: positions (below SMALL_TAIL) keep each key's documents ascending
    const order = new Float64Array(n);
    for (let e = 0; e < n; e++) order[e] = this.tailKeys[e] * SMALL_TAIL + e;
    order.sort();
    const keys: number[] = [];
    const starts: number[] = [];
    const docs = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const key = Math.floor(order[i] / SMALL_TAIL);
      if (!keys.length || keys[keys.length - 1] !== key) {
        keys.push(key);
        starts.push(i);
      }
      docs[i] = docOf[order[i] - key * SMALL_TAIL];
    }
    starts.push(n);
    return { keys: Uint32Array.from(keys), starts: Int32Array.from(starts), docs };
  }

  removeFile(path: string): void {
    const id = this.ids.get(path);
    if (id === undefined) return;
    // tombstones: dead ids are filtered when a plan is resolved
    for (let d = id; d < this.files.length && this.files[d] === path; d++) this.files[d] = null;
    this.ids.delete(path);
  }

  has(path: string): boolean {
    return this.ids.has(path);
  }

  /** Calls fn with each document id of the base's run `at` (varint deltas), ascending. */
  private forEachBaseId(at: number, fn: (id: number) => void): void {
    const pool = this.basePool;
    let id = 0;
    for (let pos = this.baseOffsets[at], end = this.baseOffsets[at + 1]; pos < end;) {
      let v = 0;
      let shift = 0;
      let byte;
      do {
        byte = pool[pos++];
        v |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      id += v;
      fn(id);
    }
  }

  /** Ascending live-or-dead document ids holding `key` (base run, then tail). */
  private postings(key: number): number[] {
    const out: number[] = [];
    const at = lowerBound(this.baseKeys, key);
    if (at < this.baseKeys.length && this.baseKeys[at] === key) this.forEachBaseId(at, (id) => out.push(id));
    if (this.tailLen) {
      const t = this.groupTail();
      const at = lowerBound(t.keys, key);
      if (at < t.keys.length && t.keys[at] === key)
        for (let e = t.starts[at]; e < t.starts[at + 1]; e++) out.push(t.docs[e]);
    }
    return out;
  }

  /**
   * Candidate files (with the ranges to search) for a query, or null when the index cannot
   * narrow it (scan everything): the documents holding, for every clause, all the trigrams of
   * one of its literals. A hit lies inside one line, so inside one document (a segment ends
   * after a '\n'), and that document holds the trigrams of a literal of each clause.
   */
  candidates(plan: TrigramPlanInput): CandidateMap | null {
    const clauses = planClauses(plan);
    if (!clauses.length) return null;
    // each clause's documents; intersected smallest first
    const perClause = clauses.map((c) => this.clauseDocs(c)).sort((x, y) => x.length - y.length);
    let docs = perClause[0];
    for (let i = 1; i < perClause.length && docs.length; i++) docs = intersectSorted(docs, perClause[i]);
    const out: CandidateMap = new Map();
    const files = this.files;
    for (const d of docs) {
      const p = files[d];
      if (p === null) continue;
      const sameBefore = d > 0 && files[d - 1] === p;
      const sameAfter = d + 1 < files.length && files[d + 1] === p;
      if (!sameBefore && !sameAfter) {
        out.set(p, null);
        continue;
      }
      const end = sameAfter ? this.segStart[d + 1] : Number.MAX_SAFE_INTEGER;
      let ranges = out.get(p);
      if (!ranges) out.set(p, (ranges = []));
      const last = ranges[ranges.length - 1];
      if (last && last.end === this.segStart[d]) last.end = end;
      else ranges.push({ start: this.segStart[d], end, line: this.segLine[d] });
    }
    return out;
  }

  /**
   * The clause of a query whose literals the fewest documents hold (null: fewer than two
   * clauses to choose from). Every hit holds one of its literals, as it holds one of the
   * required literals, so a search may find candidate lines by it instead: `widgetFactory\s+\w+Foo`
   * finds the lines holding "Foo" where "widgetFactory" (the matcher's choice: the longer) is in
   * every file.
   */
  rarestClause(plan: TrigramPlanInput): string[] | null {
    const clauses = planClauses(plan);
    if (clauses.length < 2) return null;
    let best = clauses[0];
    let fewest = this.clauseDocs(best).length;
    for (let i = 1; i < clauses.length; i++) {
      const n = this.clauseDocs(clauses[i]).length;
      if (n < fewest) [best, fewest] = [clauses[i], n];
    }
    return best;
  }

  /** The documents holding all the trigrams of one of `literals`, ascending. */
  private clauseDocs(literals: readonly string[]): number[] {
    let docs: number[] = [];
    for (const literal of literals) {
      const lists = literalTrigrams(literal).map((k) => this.postings(k));
      lists.sort((x, y) => x.length - y.length);
      let acc = lists[0];
      for (let i = 1; i < lists.length && acc.length; i++) acc = intersectSorted(acc, lists[i]);
      docs = docs.length ? unionSorted(docs, acc) : acc;
    }
    return docs;
  }

  /** Fold the tail and the tombstones into a new compact base; document ids are renumbered. */
  compact(): void {
    const live: string[] = [];
    const liveStart: number[] = [];
    const liveLine: number[] = [];
    const remap = new Int32Array(this.files.length).fill(-1);
    this.files.forEach((p, id) => {
      if (p !== null) {
        remap[id] = live.length;
        live.push(p);
        liveStart.push(this.segStart[id]);
        liveLine.push(this.segLine[id]);
      }
    });
    // merge the base's keys and the tail's (both ascending); per key, base ids then tail ids (ascending)
    const base = this.baseKeys;
    const tail = this.tailLen
      ? this.groupTail()
      : { keys: new Uint32Array(0), starts: new Int32Array(1), docs: new Int32Array(0) };
    const outKeys = new Uint32Array(base.length + tail.keys.length);
    const offsets = new Uint32Array(outKeys.length + 1);
    let kept = 0;
    const bytes = new ByteSink();
    let prev = 0;
    const put = (id: number): void => {
      const nid = remap[id];
      if (nid < 0) return;
      encodeVarint(bytes, nid - prev);
      prev = nid;
    };
    for (let i = 0, j = 0; i < base.length || j < tail.keys.length;) {
      const key =
        j === tail.keys.length || (i < base.length && base[i] <= tail.keys[j]) ? base[i] : tail.keys[j];
      prev = 0;
      const before = bytes.length;
      if (i < base.length && base[i] === key) this.forEachBaseId(i++, put);
      if (j < tail.keys.length && tail.keys[j] === key) {
        for (let e = tail.starts[j]; e < tail.starts[j + 1]; e++) put(tail.docs[e]);
        j++;
      }
      if (bytes.length > before) {
        outKeys[kept++] = key;
        offsets[kept] = bytes.length;
      }
    }
    this.files = live;
    this.segStart = liveStart;
    this.segLine = liveLine;
    this.ids = new Map();
    live.forEach((p, i) => {
      if (!this.ids.has(p)) this.ids.set(p, i);
    });
    this.baseKeys = outKeys.slice(0, kept);
    this.baseOffsets = offsets.slice(0, kept + 1);
    this.basePool = bytes.bytes();
    this.tailKeys = new Uint32Array(1 << 12);
    this.tailLen = 0;
    this.tailFirstDoc = live.length;
    this.tailDocEnds = [];
    this.tailIndex = null;
  }

  toState(): TrigramState {
    this.compact();
    const words = new Uint32Array(Math.ceil(this.basePool.length / 4));
    new Uint8Array(words.buffer).set(this.basePool);
    const segments = new Uint32Array(this.files.length * 2);
    for (let d = 0; d < this.files.length; d++) {
      segments[2 * d] = this.segStart[d];
      segments[2 * d + 1] = this.segLine[d];
    }
    return {
      files: this.files as string[],
      segments,
      keys: this.baseKeys,
      offsets: this.baseOffsets,
      pool: words,
      poolBytes: this.basePool.length,
    };
  }

  static fromState(state: TrigramState, segmentChars = DEFAULT_SEGMENT_CHARS): TrigramIndex {
    const index = new TrigramIndex(segmentChars);
    index.files = [...state.files];
    index.tailFirstDoc = state.files.length;
    if (state.segments.length !== 2 * state.files.length) {
      throw new QuarryError(
        'IndexVersionMismatch',
        'The stored trigram segments do not match its documents',
        {},
      );
    }
    for (let d = 0; d < state.files.length; d++) {
      index.segStart.push(state.segments[2 * d]);
      index.segLine.push(state.segments[2 * d + 1]);
      if (!index.ids.has(state.files[d])) index.ids.set(state.files[d], d);
    }
    index.baseKeys = state.keys;
    index.baseOffsets = state.offsets;
    index.basePool = new Uint8Array(state.pool.buffer, state.pool.byteOffset, state.poolBytes);
    return index;
  }
}

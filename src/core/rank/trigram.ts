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

export class TrigramIndex {
  /** file id -> path (null once removed) */
  private files: Array<string | null> = [];
  private ids = new Map<string, number>();
  /** key -> ascending file ids */
  private postings = new Map<number, number[]>();
  /** scratch: last file id that produced each key (dedupe without a Set per file) */
  private lastSeen = new Int32Array(1 << 21).fill(-1);

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
    const seen = this.lastSeen;
    let a = foldUnit(text.charCodeAt(0));
    let b = foldUnit(text.charCodeAt(1));
    for (let i = 2; i < n; i++) {
      const c = foldUnit(text.charCodeAt(i));
      const key = (a << 14) | (b << 7) | c;
      if (seen[key] !== id) {
        seen[key] = id;
        let list = this.postings.get(key);
        if (!list) {
          list = [];
          this.postings.set(key, list);
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

  /** Candidate paths for a query, or null when the index cannot narrow it (scan everything). */
  candidates(plan: TrigramPlanInput): Set<string> | null {
    const literals = plan.requiredLiterals;
    if (!literals || !literals.length) return null;
    const perLiteral = literals.map(literalTrigrams);
    if (perLiteral.some((keys) => keys.length === 0)) return null; // a short alternative: no narrowing
    const out = new Set<string>();
    for (const keys of perLiteral) {
      const lists = keys.map((k) => this.postings.get(k) ?? []);
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

  toState(): TrigramState {
    const live: string[] = [];
    const remap = new Int32Array(this.files.length).fill(-1);
    this.files.forEach((p, id) => {
      if (p !== null) {
        remap[id] = live.length;
        live.push(p);
      }
    });
    const keys: number[] = [];
    const lengths: number[] = [];
    const ids: number[] = [];
    for (const [key, list] of this.postings) {
      let n = 0;
      for (const id of list) {
        if (remap[id] >= 0) {
          ids.push(remap[id]);
          n++;
        }
      }
      if (n) {
        keys.push(key);
        lengths.push(n);
      }
    }
    return { files: live, keys: Uint32Array.from(keys), lengths: Uint32Array.from(lengths), ids: Uint32Array.from(ids) };
  }

  static fromState(state: TrigramState): TrigramIndex {
    const index = new TrigramIndex();
    index.files = [...state.files];
    state.files.forEach((p, id) => index.ids.set(p, id));
    let k = 0;
    for (let i = 0; i < state.keys.length; i++) {
      const len = state.lengths[i];
      index.postings.set(state.keys[i], Array.from(state.ids.subarray(k, k + len)));
      k += len;
    }
    return index;
  }

  /** Approximate bytes held (postings as 8-byte JS array slots plus keys). */
  approxBytes(): number {
    let n = 0;
    for (const l of this.postings.values()) n += l.length * 8 + 48;
    return n + this.lastSeen.byteLength;
  }
}

export interface TrigramState {
  files: string[];
  keys: Uint32Array;
  lengths: Uint32Array;
  ids: Uint32Array;
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

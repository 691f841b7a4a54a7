/**
 * Character sets: sorted code point ranges plus (rarely) symbolic Unicode properties.
 *
 * A `CharSet` means: `neg ? complement(ranges ∪ props) : (ranges ∪ props)`, and in every case
 * minus '\n' (line-oriented search: no class ever matches a line terminator). The emitters
 * (emit.ts) enforce the '\n' rule, so code here can ignore it.
 */
import { RE2JS } from 're2js';
import { allOrbits, caseOrbit } from './casefold';

export const MAX_CP = 0x10ffff;
export const NL = 0x0a;

/** Flat sorted disjoint ranges: [lo0, hi0, lo1, hi1, ...], inclusive, non-adjacent. */
export type Ranges = number[];

export interface PropItem {
  /** Name as RE2 spells it (`L`, `Lu`, `Greek`, `Any`). */
  name: string;
  /** \P{..} / \p{^..}: the complement of the property. */
  neg: boolean;
}

export interface CharSet {
  neg: boolean;
  ranges: Ranges;
  props: PropItem[];
}

export function normalize(pairs: number[]): Ranges {
  const n = pairs.length / 2;
  if (n <= 1) return pairs.slice();
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => pairs[2 * a] - pairs[2 * b]);
  const out: number[] = [];
  for (const i of idx) {
    const lo = pairs[2 * i];
    const hi = pairs[2 * i + 1];
    const last = out.length - 1;
    if (last > 0 && lo <= out[last] + 1) {
      if (hi > out[last]) out[last] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

export function union(a: Ranges, b: Ranges): Ranges {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  return normalize(a.concat(b));
}

export function complement(r: Ranges): Ranges {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i] > next) out.push(next, r[i] - 1);
    next = r[i + 1] + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

export function subtract(a: Ranges, b: Ranges): Ranges {
  return complement(union(complement(a), b));
}

export function contains(r: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = r.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < r[2 * mid]) hi = mid - 1;
    else if (cp > r[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

export function size(r: Ranges): number {
  let n = 0;
  for (let i = 0; i < r.length; i += 2) n += r[i + 1] - r[i] + 1;
  return n;
}

/** Case-fold a range set: add every member of the case orbit of every member (RE2's (?i)). */
export function foldRanges(r: Ranges): Ranges {
  if (r.length === 0) return r;
  const extra: number[] = [];
  if (r[r.length - 1] < 0x80) {
    // ASCII only: the fast path of caseOrbit covers every orbit that touches ASCII.
    for (let i = 0; i < r.length; i += 2) {
      for (let cp = r[i]; cp <= r[i + 1]; cp++) {
        const o = caseOrbit(cp);
        if (o.length > 1) for (const m of o) extra.push(m, m);
      }
    }
  } else {
    for (const orbit of allOrbits()) {
      for (const m of orbit) {
        if (contains(r, m)) {
          for (const x of orbit) extra.push(x, x);
          break;
        }
      }
    }
  }
  return extra.length ? union(r, normalize(extra)) : r;
}

// ---------------------------------------------------------------------------------------------
// Perl and POSIX classes (ASCII, as in RE2).

const R = (s: string): Ranges => {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const lo = s.charCodeAt(i);
    if (s[i + 1] === '-' && i + 2 < s.length) {
      out.push(lo, s.charCodeAt(i + 2));
      i += 2;
    } else {
      out.push(lo, lo);
    }
  }
  return normalize(out);
};

export const PERL_CLASSES: Record<string, Ranges> = {
  d: R('0-9'),
  s: R('\t\n\f\r '),
  w: R('0-9A-Z_a-z'),
};

export const POSIX_CLASSES: Record<string, Ranges> = {
  alnum: R('0-9A-Za-z'),
  alpha: R('A-Za-z'),
  ascii: [0, 0x7f],
  blank: R('\t '),
  cntrl: normalize([0, 0x1f, 0x7f, 0x7f]),
  digit: R('0-9'),
  graph: [0x21, 0x7e],
  lower: R('a-z'),
  print: [0x20, 0x7e],
  punct: normalize([0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e]),
  space: normalize([0x09, 0x0d, 0x20, 0x20]),
  upper: R('A-Z'),
  word: R('0-9A-Za-z_'),
  xdigit: R('0-9A-Fa-f'),
};

export const WORD_RANGES = PERL_CLASSES.w;

// ---------------------------------------------------------------------------------------------
// Unicode properties.

interface PropInfo {
  /** Source of a JS `/u` escape for the property, e.g. `\p{Lu}` or `\p{Script=Greek}`. */
  js: string;
  /** `^[\p{..}]$` tester. */
  test: RegExp;
}

const propCache = new Map<string, PropInfo | null>();

/**
 * Validate a property name the way RE2 does (general categories and scripts, one-letter or
 * braced), and map it to JS syntax. Returns null when RE2 or JS does not know it.
 */
export function propInfo(name: string): PropInfo | null {
  if (propCache.has(name)) return propCache.get(name)!;
  let info: PropInfo | null = null;
  if (/^[A-Za-z_]+$/.test(name)) {
    let re2ok: boolean;
    try {
      RE2JS.compile(`\\p{${name}}`);
      re2ok = true;
    } catch {
      re2ok = false;
    }
    if (re2ok) {
      for (const js of name === 'Any' ? ['\\p{Any}'] : [`\\p{gc=${name}}`, `\\p{sc=${name}}`]) {
        try {
          info = { js, test: new RegExp(`^${js}$`, 'u') };
          break;
        } catch {
          // try the next spelling
        }
      }
    }
  }
  propCache.set(name, info);
  return info;
}

const propRangeCache = new Map<string, Ranges>();
let allCodePoints: string | null = null;

/** Every code point (surrogates excluded, as spaces) in order: one regex pass enumerates a property. */
function allCodePointsString(): string {
  if (allCodePoints) return allCodePoints;
  const units = new Uint16Array(0x10000 + (MAX_CP + 1 - 0x10000) * 2);
  let k = 0;
  for (let cp = 0; cp < 0x10000; cp++) units[k++] = cp >= 0xd800 && cp <= 0xdfff ? 0x20 : cp;
  for (let cp = 0x10000; cp <= MAX_CP; cp++) {
    units[k++] = 0xd800 + ((cp - 0x10000) >> 10);
    units[k++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
  }
  allCodePoints = new TextDecoder('utf-16le').decode(units);
  return allCodePoints;
}

/** Explicit ranges of a property (cached; only needed for \P{..} under case folding). */
export function propRanges(name: string): Ranges {
  const cached = propRangeCache.get(name);
  if (cached) return cached;
  const info = propInfo(name);
  if (!info) throw new Error(`unknown property ${name}`);
  const pairs: number[] = [];
  const indexToCp = (i: number) => (i < 0x10000 ? i : 0x10000 + ((i - 0x10000) >> 1));
  for (const m of allCodePointsString().matchAll(new RegExp(`${info.js}+`, 'gu'))) {
    pairs.push(indexToCp(m.index!), indexToCp(m.index! + m[0].length - 1));
  }
  // Surrogate code points are stand-in spaces in the string: drop them.
  const out = subtract(normalize(pairs), [0xd800, 0xdfff]);
  propRangeCache.set(name, out);
  return out;
}

/** Orbit members that case folding adds to a property (RE2 folds \p classes under (?i)). */
const foldExtrasCache = new Map<string, Ranges>();

export function propFoldExtras(name: string): Ranges {
  const cached = foldExtrasCache.get(name);
  if (cached) return cached;
  const info = propInfo(name)!;
  const extra: number[] = [];
  for (const orbit of allOrbits()) {
    if (orbit.some((m) => info.test.test(String.fromCodePoint(m)))) {
      for (const m of orbit) extra.push(m, m);
    }
  }
  const out = normalize(extra);
  foldExtrasCache.set(name, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Builder used by the parser.

export class CharSetBuilder {
  ranges: number[] = [];
  props: PropItem[] = [];

  constructor(private readonly fold: boolean) {}

  addRange(lo: number, hi: number): void {
    if (this.fold) {
      const f = foldRanges([lo, hi]);
      for (const x of f) this.ranges.push(x);
    } else {
      this.ranges.push(lo, hi);
    }
  }

  /** A Perl or POSIX class, possibly negated. RE2: negate(fold(class)). */
  addClass(r: Ranges, negated: boolean): void {
    let set = this.fold ? foldRanges(r) : r;
    if (negated) set = complement(set);
    for (const x of set) this.ranges.push(x);
  }

  addProp(name: string, negated: boolean): void {
    if (!this.fold) {
      this.props.push({ name, neg: negated });
      return;
    }
    const extras = propFoldExtras(name);
    if (!negated) {
      this.props.push({ name, neg: false });
      for (const x of extras) this.ranges.push(x);
    } else {
      // complement(P ∪ extras) has no symbolic form: enumerate.
      const set = complement(union(propRanges(name), extras));
      for (const x of set) this.ranges.push(x);
    }
  }

  build(neg: boolean): CharSet {
    return { neg, ranges: normalize(this.ranges), props: dedupeProps(this.props) };
  }
}

function dedupeProps(props: PropItem[]): PropItem[] {
  const seen = new Set<string>();
  const out: PropItem[] = [];
  for (const p of props) {
    const k = (p.neg ? '^' : '') + p.name;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  return out;
}

/** Explicit ranges of a set when it has no properties (ignoring the '\n' rule); else null. */
export function explicitRanges(set: CharSet): Ranges | null {
  if (set.props.length) return null;
  return set.neg ? complement(set.ranges) : set.ranges;
}

/** The positive explicit ranges, '\n' removed; null when properties make it symbolic. */
export function matchRanges(set: CharSet): Ranges | null {
  const r = explicitRanges(set);
  return r ? subtract(r, [NL, NL]) : null;
}

/** Single-character set from a code point (with case folding when `fold`). */
export function charSet(cp: number, fold: boolean): CharSet {
  return { neg: false, ranges: fold ? normalize(caseOrbit(cp).flatMap((m) => [m, m])) : [cp, cp], props: [] };
}

/** Union of two sets when it is representable (both positive, or no properties involved). */
export function unionSets(a: CharSet, b: CharSet): CharSet | null {
  if (!a.neg && !b.neg)
    return { neg: false, ranges: union(a.ranges, b.ranges), props: dedupeProps([...a.props, ...b.props]) };
  const ra = explicitRanges(a);
  const rb = explicitRanges(b);
  if (ra && rb) return { neg: false, ranges: union(ra, rb), props: [] };
  return null;
}

/**
 * Simple case folding ("case orbits"), the way RE2 and JS `/u` + `/i` define case-insensitive
 * equality: two code points are equal ignoring case when they have the same simple case fold
 * (Unicode CaseFolding.txt, statuses C and S). E.g. the orbit of `k` is {K, k, U+212A KELVIN SIGN},
 * the orbit of `s` is {S, s, U+017F LONG S}; `ı` (dotless i) is alone.
 *
 * We never use the RegExp `i` flag (see emit.ts): case-insensitive parts are expanded to explicit
 * classes, so we need the orbits themselves. The table is derived once, lazily, from the JS engine:
 * candidate pairs come from toLowerCase/toUpperCase (single code point results only), and each
 * candidate component is split by V8's own `/u`+`/i` equality (which is exactly simple case folding).
 */

const ASCII_LIMIT = 0x80;
/** Highest code point that has a simple case mapping (Adlam, U+1E943), rounded up. */
const CASED_LIMIT = 0x1f000;

let orbitOf: Map<number, number[]> | null = null;
let orbitList: number[][] | null = null;

function build(): void {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    for (;;) {
      const p = parent.get(r);
      if (p === undefined || p === r) break;
      r = p;
    }
    // path compression
    let y = x;
    while (y !== r) {
      const p = parent.get(y)!;
      parent.set(y, r);
      y = p;
    }
    return r;
  };
  const union = (a: number, b: number): void => {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  // Only code points that change under some case mapping can have a non-trivial orbit; one
  // regex pass over a string of all candidates finds them far faster than mapping each one.
  const units = new Uint16Array(0x10000 + (CASED_LIMIT - 0x10000) * 2);
  let k = 0;
  for (let cp = 0; cp < 0x10000; cp++) units[k++] = cp >= 0xd800 && cp <= 0xdfff ? 0x20 : cp;
  for (let cp = 0x10000; cp < CASED_LIMIT; cp++) {
    units[k++] = 0xd800 + ((cp - 0x10000) >> 10);
    units[k++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
  }
  const all = new TextDecoder('utf-16le').decode(units);
  for (const m of all.matchAll(/\p{Changes_When_Casemapped}/gu)) {
    const s = m[0];
    const cp = s.codePointAt(0)!;
    const lo = s.toLowerCase();
    const up = s.toUpperCase();
    if (lo !== s) {
      const c = lo.codePointAt(0)!;
      if (lo.length === (c > 0xffff ? 2 : 1)) union(cp, c);
    }
    if (up !== s) {
      const c = up.codePointAt(0)!;
      if (up.length === (c > 0xffff ? 2 : 1)) union(cp, c);
    }
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const r = find(cp);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = []));
    g.push(cp);
  }
  orbitOf = new Map();
  orbitList = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.sort((a, b) => a - b);
    // Split by the engine's own case-insensitive equality (drops e.g. 'ı' from {I, i}).
    const classes: { rep: string; members: number[] }[] = [];
    for (const cp of g) {
      const s = String.fromCodePoint(cp);
      let placed = false;
      for (const c of classes) {
        if (SAME_IGNORING_CASE.test(c.rep + s)) {
          c.members.push(cp);
          placed = true;
          break;
        }
      }
      if (!placed) classes.push({ rep: s, members: [cp] });
    }
    for (const c of classes) {
      if (c.members.length < 2) continue;
      orbitList.push(c.members);
      for (const m of c.members) orbitOf.set(m, c.members);
    }
  }
  orbitList.sort((a, b) => a[0] - b[0]);
}

/** ASCII fast path: letters fold to their other case, plus K -> U+212A and S -> U+017F. */
function asciiOrbit(cp: number): number[] | null {
  const lower = cp | 0x20;
  if (lower < 0x61 || lower > 0x7a) return null;
  const upper = lower - 0x20;
  if (lower === 0x6b) return [0x4b, 0x6b, 0x212a];
  if (lower === 0x73) return [0x53, 0x73, 0x17f];
  return [upper, lower];
}

/** All code points equal to `cp` ignoring case, sorted, including cp itself. */
export function caseOrbit(cp: number): number[] {
  if (cp < ASCII_LIMIT) return asciiOrbit(cp) ?? [cp];
  if (cp >= CASED_LIMIT) return [cp];
  if (!orbitOf) build();
  return orbitOf!.get(cp) ?? [cp];
}

/** Every orbit with more than one member (sorted by first member). */
export function allOrbits(): readonly number[][] {
  if (!orbitList) build();
  return orbitList!;
}

/** A canonical lowercase representative: the smallest lowercase-looking member of the orbit. */
export function foldCanonical(cp: number): number {
  const orbit = caseOrbit(cp);
  if (orbit.length === 1) return cp;
  let best = -1;
  for (const m of orbit) {
    const s = String.fromCodePoint(m);
    if (s.toLowerCase() === s && (best < 0 || m < best)) best = m;
  }
  return best < 0 ? orbit[0] : best;
}

/** True when the code point has an uppercase form distinct from itself in the Unicode sense. */
export function isUppercase(cp: number): boolean {
  return UPPER_RE.test(String.fromCodePoint(cp));
}
const UPPER_RE = /^\p{Uppercase}$/u;
/** Backreferences under `iu` compare by simple case folding: the engine's own equality. */
const SAME_IGNORING_CASE = /^(.)\1$/iu;

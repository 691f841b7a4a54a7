/**
 * Literal-anchored matching inside lines: byte finders for a matcher's required literals
 * (LineFinders), and the windows around literal occurrences that can hold a hit (the runs of
 * the matcher's hit alphabet), checked on the bytes (byteWindowsVerdict, asciiPreview) or on
 * a decoded line (windowedRanges), so a long line is rarely matched, or decoded, whole.
 */
import { byteFinder, type ByteFinder } from './lines';
import type { Matcher } from './regex';
import type { HitAlphabet } from './regex/analyze';
import { minimalLiterals } from './regex/literals';
import { asciiText, isAscii, lineDecoder } from './decode-line';
import { clipToWindow, windowStart } from './scan';
import type { HitRange } from './types';

/**
 * Byte finders for literal-anchored line search, or null when the literals cannot anchor it:
 * the matcher's required literals, or `clause`, another disjunction every hit holds a literal of
 * (one of its required clauses, lowercase canonical when caseless as they are).
 */
export function literalLineFinders(
  matcher: Matcher,
  clause: readonly string[] | null = matcher.requiredLiterals,
): LineFinders | null {
  let lits = clause ? [...clause] : null;
  if (!lits || !lits.length) return null;
  if (lits.some((l) => l.length === 0 || l.includes('\uFFFD') || l.includes('\n'))) return null;
  if (matcher.caseInsensitive && !lits.every(isAscii)) return null;
  // one search for what every literal holds rather than one per literal (`useEffect|useLayoutEffect`: "Effect"),
  // and none for a literal that holds another (a line with "xyzdefg" has "xyz")
  const shared = sharedFactor(lits);
  lits = shared !== null ? [shared] : minimalLiterals(lits);
  const enc = new TextEncoder();
  const alphabet = matcher.hitAlphabet ?? null;
  const escaped = lits.map((l) => l.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
  if (!matcher.caseInsensitive) {
    const re = lits.length > 1 ? new RegExp(escaped.join('|'), 'g') : null;
    const one = lits[0];
    const find = re ? regexFind(re) : (text: string, from: number) => text.indexOf(one, from);
    return {
      finders: lits.map((l) => byteFinder(enc.encode(l), false)),
      literals: lits,
      orbit: false,
      alphabet,
      find,
    };
  }
  // ASCII-only folding (a file holding U+212A or U+017F is searched whole)
  const find = regexFind(new RegExp(escaped.join('|'), 'gi'));
  return {
    finders: lits.map((l) => byteFinder(enc.encode(l.toLowerCase()), true)),
    literals: lits,
    orbit: lits.some((l) => /[ks]/i.test(l)),
    alphabet,
    find,
  };
}

/**
 * The longest string that every one of several literals contains, when searching for it alone
 * finds about the same lines: at least 4 code units and half the shortest literal, and no
 * half of a surrogate pair at its ends (its bytes must be whole UTF-8 sequences). null otherwise. Every hit holds a
 * literal, so it holds this string too: lines with it are a superset of the lines with a
 * literal, and the matcher decides each.
 */
export function sharedFactor(lits: readonly string[]): string | null {
  if (lits.length < 2) return null;
  const shortest = lits.reduce((a, b) => (b.length < a.length ? b : a));
  if (shortest.length > 64) return null;
  const least = Math.max(4, Math.ceil(shortest.length / 2));
  for (let len = shortest.length; len >= least; len--) {
    for (let i = 0; i + len <= shortest.length; i++) {
      const f = shortest.slice(i, i + len);
      // not half a surrogate pair at either end (its bytes would not be the text's)
      if (/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(f)) continue;
      if (lits.every((l) => l.includes(f))) return f;
    }
  }
  return null;
}

function regexFind(re: RegExp): (text: string, from: number) => number {
  return (text, from) => {
    re.lastIndex = from;
    const m = re.exec(text);
    return m ? m.index : -1;
  };
}

export interface LineFinders {
  finders: ByteFinder[];
  /** the literals the finders search for (case-folded when case-insensitive) */
  literals: string[];
  /** case-insensitive with k or s: a file holding U+212A or U+017F is searched whole */
  orbit: boolean;
  /** the matcher's hit alphabet: long lines are matched only in the runs around literals */
  alphabet: HitAlphabet | null;
  /** next occurrence of any literal in a decoded line */
  find: (text: string, from: number) => number;
}

/**
 * With a hit alphabet, lines at least `byteMinLine` bytes long are first checked in their
 * literal-anchored windows on the bytes (most candidate lines are then never decoded), and
 * decoded lines at least `minLine` long are matched in windows only. Tests change these.
 */
export const LINE_WINDOWS = { minLine: 512, byteMinLine: 512 };

/**
 * Whether a long line (bytes[ls, le)) holds a hit, without decoding it: windowedRanges()'s
 * runs found in the bytes (`scope`: the scope of cursors over `bytes` whose copy may serve; see
 * simd-find.ts). A run starts and ends next to an ASCII byte (or the line's ends),
 * so its bytes decode alone exactly as within the line; a neighbour outside the run is put in
 * as itself when ASCII, else as U+FFFD (like any non-ASCII character: not in an ASCII-only
 * alphabet, not a word character for `\b` and whole-word checks).
 */
export function byteWindowsVerdict(
  bytes: Uint8Array,
  ls: number,
  le: number,
  matcher: Matcher,
  lf: LineFinders,
  scope?: object,
): 'hit' | 'none' | 'unknown' {
  const { ascii, nonAscii } = lf.alphabet!;
  const inA = (i: number) => {
    const c = bytes[i];
    return c < 128 ? ascii[c] === 1 : nonAscii;
  };
  const side = (i: number) =>
    i < ls || i >= le ? '' : bytes[i] < 128 ? String.fromCharCode(bytes[i]) : '\uFFFD';
  let hit = false;
  const line = bytes.subarray(0, le);
  for (const f of lf.finders) {
    const next = f.cursor(line, scope);
    let x = next(ls);
    while (x !== -1) {
      if (!inA(x)) return 'unknown'; // not what windows can decide: decode and look
      let a = x;
      while (a > ls && inA(a - 1)) a--;
      let b = x + 1;
      while (b < le && inA(b)) b++;
      const window =
        side(a - 1) +
        (nonAscii ? lineDecoder.decode(bytes.subarray(a, b)) : asciiText(bytes, a, b)) +
        side(b);
      matcher.scan(window, () => {
        hit = true;
        return false;
      });
      if (hit) return 'hit';
      x = b < le ? next(b) : -1;
    }
  }
  return 'none';
}

/** Whether bytes[a, b) are all ASCII (four bytes at a time past the first few). */
export function asciiBytes(bytes: Uint8Array, a: number, b: number): boolean {
  let i = a;
  if (b - a >= 64) {
    while ((bytes.byteOffset + i) & 3) if (bytes[i++] >= 0x80) return false;
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (b - i) >> 2);
    for (let k = 0; k < words.length; k++) if (words[k] & 0x80808080) return false;
    i += words.length * 4;
  }
  for (; i < b; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/**
 * The preview of a long line bytes[ls, le) whose first hit ends past `cap`, as the delivery of
 * the whole decoded line would cut it (previewStart, the window's hits), taken from the bytes:
 * the first hit is in the earliest alphabet run around a literal occurrence whose window holds
 * one, and the window's hits come from windowedRanges over the runs that meet it (with a real
 * neighbour on each side). Needs an ASCII-only hit alphabet and ASCII from the line's start
 * through the window (so byte offsets are columns); null otherwise, and when an occurrence
 * lies outside the alphabet (the caller decodes the line whole).
 */
export function asciiPreview(
  bytes: Uint8Array,
  ls: number,
  le: number,
  cap: number,
  matcher: Matcher,
  lf: LineFinders,
  scope?: object,
): { text: string; ranges: HitRange[]; textStart: number } | null {
  const { ascii, nonAscii } = lf.alphabet!;
  if (nonAscii) return null;
  const end = le > ls && bytes[le - 1] === 13 ? le - 1 : le; // the line without its '\r'
  const inA = (i: number) => bytes[i] < 128 && ascii[bytes[i]] === 1;
  let first = -1; // the first hit's start byte
  const line = bytes.subarray(0, le);
  for (const f of lf.finders) {
    const next = f.cursor(line, scope);
    let x = next(ls);
    while (x !== -1 && (first === -1 || x < first)) {
      if (!inA(x)) return null;
      let a = x;
      while (a > ls && inA(a - 1)) a--;
      let b = x + 1;
      while (b < le && inA(b)) b++;
      const ws = a > ls ? a - 1 : ls;
      const we = b < le ? b + 1 : le;
      if (bytes[ws] >= 128 || bytes[we - 1] >= 128) return null; // a neighbour that is not ASCII
      let at = -1;
      matcher.scan(asciiText(bytes, ws, we), (s) => {
        at = ws + s;
        return false;
      });
      if (at !== -1) {
        if (first === -1 || at < first) first = at;
        break;
      }
      x = b < le ? next(b) : -1;
    }
  }
  if (first === -1) return null;
  const textStart = windowStart(first - ls, end - ls, cap);
  const w0 = ls + textStart;
  const w1 = Math.min(end, w0 + cap);
  // the runs that meet the window, whole, with one neighbour each side (or the line's ends)
  let r0 = w0;
  while (r0 > ls && inA(r0 - 1)) r0--;
  if (r0 > ls) r0--;
  let r1 = w1;
  while (r1 < le && inA(r1)) r1++;
  if (r1 < le) r1++;
  // byte offsets are columns up to the region's end; past it the line need not be ASCII when
  // it is long enough that the window cannot reach its end (a UTF-16 unit takes at most 3 bytes)
  if (!asciiBytes(bytes, ls, r1) || (end - w0 < 3 * cap && !asciiBytes(bytes, r1, end))) return null;
  const found = windowedRanges(asciiText(bytes, r0, r1), Math.min(r1, end) - r0, matcher, lf);
  if (!found) return null;
  const inLine = found.map(([s, e]) => [s + r0 - ls, e + r0 - ls] as HitRange);
  return { text: asciiText(bytes, w0, w1), ranges: clipToWindow(inLine, textStart, cap), textStart };
}

/**
 * Hits of one line, matched only in the windows that can hold one: every hit contains a
 * literal occurrence and only alphabet characters, so it lies in the maximal run of alphabet
 * characters around an occurrence. Each run is matched with one real neighbour on each side
 * (what `\b` and whole-word checks look at). null when an occurrence is outside the alphabet.
 */
export function windowedRanges(
  text: string,
  end: number,
  matcher: Matcher,
  lf: LineFinders,
): HitRange[] | null {
  const { ascii, nonAscii } = lf.alphabet!;
  const n = text.length;
  const inA = (i: number) => {
    const c = text.charCodeAt(i);
    return c < 128 ? ascii[c] === 1 : nonAscii;
  };
  const ranges: HitRange[] = [];
  let x = lf.find(text, 0);
  while (x !== -1) {
    if (!inA(x)) return null;
    let a = x;
    while (a > 0 && inA(a - 1)) a--;
    let b = x + 1;
    while (b < n && inA(b)) b++;
    const ws = a > 0 ? a - 1 : 0;
    const we = b < n ? b + 1 : n;
    matcher.scan(text.slice(ws, we), (s, e) => {
      ranges.push([s + ws, Math.min(e + ws, end)]);
      return true;
    });
    x = b < n ? lf.find(text, b) : -1;
  }
  return ranges;
}

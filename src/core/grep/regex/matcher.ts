/**
 * compileMatcher: pattern -> Matcher that finds every hit, line-oriented, never hanging.
 *
 * Strategies (see analyze.ts for the proof of the bound that selects them):
 *   - 'literal': a case-sensitive literal string (literal mode, or a regex that is one): indexOf.
 *   - 'native':  V8 RegExp on the whole text; the pattern's backtracking cost per line is
 *                L × K with K ≤ 1e4 (no unbounded repetition at all), i.e. linear.
 *   - 'mixed':   V8 on every line of length ≤ Lmax (where L × (L+1)^q × K ≤ 2e7), re2js on longer
 *                lines. Long lines are found without visiting every line: from a line start p,
 *                lastIndexOf('\n', p + Lmax) ≥ p proves every line up to that newline is short.
 *   - 're2':     the bound is infinite (e.g. `(a+)+`): re2js (linear time) on each line, after a
 *                prefilter that skips lines without one of the required literals.
 * When the pattern's first character is unselective (`\w+Symbol\(`) and it has good required
 * literals, V8 runs only on the lines that contain one (found with indexOf / a literal RegExp):
 * backtracking from every position of every line is what makes such patterns slow in V8.
 *
 * Hit iteration follows RE2/Rust (and ripgrep): after an empty hit the search resumes one code
 * point later, and an empty hit right where the previous hit ended is not reported. A final '\n'
 * ends the last line (it does not start an empty one), and an empty text has no lines.
 */
import { RE2JS, type Matcher as Re2Matcher } from 're2js';
import { QuarryError } from '../../errors';
import type { Node } from './ast';
import {
  caseStats,
  cost,
  maxLineLength,
  litScore,
  plainLiteral,
  requiredClauses,
  requiredLiterals,
  selectiveStart,
  simplify,
  hasAssert,
  hitAlphabet,
  type HitAlphabet,
} from './analyze';
import { jsSource, RE2_NOT_WORD, toJs, toRe2 } from './emit';
import { invalidPattern, parse } from './parser';
import { isUppercase } from './casefold';

export type CaseMode = 'sensitive' | 'insensitive' | 'smart';

export interface MatcherOptions {
  mode: 'literal' | 'regex';
  /** smart = insensitive unless the pattern has an uppercase literal char (escapes like \W or
   *  \S and class names do not count; a pattern without any literal char stays sensitive). */
  caseMode: CaseMode;
  /** ripgrep -w: a hit must have start-of-line or a non-word char before it and end-of-line or a
   *  non-word char after it (ASCII word chars, like \b). Candidates that fail are skipped and the
   *  search goes on; an alternation may still pick a later alternative that ends at a boundary. */
  wholeWord?: boolean;
}

export interface Matcher {
  /** Every non-overlapping hit in `text`, in order, as UTF-16 offsets [start, end). A hit never
   *  contains '\n' (the text is many lines joined by '\n', maybe '\r\n'). Empty hits are reported
   *  (pattern `a*` hits every line) and the scan then advances one code point, like ripgrep.
   *  onHit returning false stops the scan. */
  scan(text: string, onHit: (start: number, end: number) => boolean | void): void;
  /** Hits within one line (no '\n' inside), for highlighting; same semantics as scan. */
  lineHits(line: string): Array<[number, number]>;
  /** The effective case mode after smart case; also true when inline (?i) covers every cased
   *  literal char of the pattern. */
  readonly caseInsensitive: boolean;
  /** Literal strings, at least one of which every hit contains (a disjunction); case-folded
   *  (lowercase) when caseInsensitive; null when none can be derived. */
  readonly requiredLiterals: string[] | null;
  /** Clauses of literals of 3+ code units, each holding a literal every hit contains (a
   *  conjunction of disjunctions, for an index lookup; see literals.ts); case-folded alike. */
  readonly requiredClauses?: string[][];
  /** 'literal' (indexOf), 'native' (V8 RegExp proven linear), 'mixed' (V8 on lines short enough
   *  for the proven bound, re2js on longer ones), 're2' (re2js only). */
  readonly strategy: 'literal' | 'native' | 'mixed' | 're2';
  /** The characters a hit can contain (see analyze.ts hitAlphabet); null when unknown or when
   *  the pattern has line anchors. A hit never extends past a character outside it. */
  readonly hitAlphabet?: HitAlphabet | null;
  /**
   * The pattern when it is a case-sensitive plain literal with no whole-word rule (and no line
   * break): a line holds a hit exactly when its bytes hold the literal's UTF-8 bytes, so a line
   * that is only counted needs no decoding. null otherwise.
   */
  readonly plainBytesLiteral?: string | null;
}

type OnHit = (start: number, end: number) => boolean | void;
type Strategy = Matcher['strategy'];

/** V8 runs on the whole text when the bound has no (L+1) factor and K is at most this. */
const NATIVE_MAX_K = 1e4;
/** Below this Lmax, 'mixed' would send nearly every line to re2js anyway. */
const MIN_USEFUL_LMAX = 8;

/** Internal knobs for tests (force a strategy to compare engines). */
export interface InternalOptions {
  forceStrategy?: Strategy;
  /** Override Lmax for 'mixed' (tests use a tiny value to exercise both engines). */
  lineLimit?: number;
  /** Force (true) or forbid (false) the required-literal line prefilter. */
  prefilter?: boolean;
}

export function compileMatcher(pattern: string, opts: MatcherOptions): Matcher {
  return compileMatcherInternal(pattern, opts, {});
}

/** compileMatcher with test knobs. */
export function compileMatcherInternal(
  pattern: string,
  opts: MatcherOptions,
  internal: InternalOptions,
): Matcher {
  if (typeof pattern !== 'string') {
    throw new QuarryError('InvalidArgument', 'pattern must be a string', { field: 'pattern' });
  }
  if (opts.mode !== 'literal' && opts.mode !== 'regex') {
    throw new QuarryError('InvalidArgument', `mode must be 'literal' or 'regex', got ${String(opts.mode)}`, {
      field: 'mode',
      value: opts.mode,
    });
  }
  const caseMode = opts.caseMode ?? 'sensitive';
  if (caseMode !== 'sensitive' && caseMode !== 'insensitive' && caseMode !== 'smart') {
    throw new QuarryError(
      'InvalidArgument',
      `caseMode must be sensitive, insensitive or smart, got ${String(caseMode)}`,
      {
        field: 'caseMode',
        value: caseMode,
      },
    );
  }
  const wholeWord = !!opts.wholeWord;

  let raw: Node;
  let optionInsensitive: boolean;
  if (opts.mode === 'literal') {
    const nl = pattern.indexOf('\n');
    if (nl >= 0) throw invalidPattern(pattern, "the literal '\\n' is not allowed in a pattern", nl);
    const hasUpper = [...pattern].some((c) => isUppercase(c.codePointAt(0)!));
    optionInsensitive =
      caseMode === 'insensitive' || (caseMode === 'smart' && pattern.length > 0 && !hasUpper);
    const items: Node[] = [...pattern].map((c) => ({
      type: 'char',
      cp: c.codePointAt(0)!,
      fold: optionInsensitive,
    }));
    raw = items.length === 1 ? items[0] : items.length === 0 ? { type: 'empty' } : { type: 'concat', items };
  } else {
    const first = parse(pattern, caseMode === 'insensitive');
    optionInsensitive =
      caseMode === 'insensitive' || (caseMode === 'smart' && first.anyLiteral && !first.anyUppercase);
    raw = optionInsensitive && caseMode === 'smart' ? parse(pattern, true).node : first.node;
  }

  const stats = caseStats(raw);
  const caseInsensitive =
    stats.folded || stats.unfolded
      ? stats.folded && (!stats.unfolded || optionInsensitive)
      : optionInsensitive;
  const node = simplify(raw);
  const literals = requiredLiterals(node, caseInsensitive);
  return new CompiledMatcher(pattern, node, wholeWord, caseInsensitive, literals, internal);
}

export function isValidRegex(pattern: string): boolean {
  try {
    compileMatcher(pattern, { mode: 'regex', caseMode: 'sensitive' });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------

function isWordUnit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** Width (1 or 2 code units) of the code point at i. */
function cpWidth(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** Start of the code point that ends just before i. */
function prevCpStart(s: string, i: number): number {
  const c = s.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const d = s.charCodeAt(i - 2);
    if (d >= 0xd800 && d <= 0xdbff) return i - 2;
  }
  return i - 1;
}

/** Last position a hit may start at: the text's last line ends before a final '\n'. */
function lastStart(text: string): number {
  const n = text.length;
  if (n === 0) return -1;
  return text.charCodeAt(n - 1) === 0x0a ? n - 1 : n;
}

function escapeLiteralJs(s: string, fold: boolean): string {
  const items: Node[] = [...s].map((c) => ({ type: 'char', cp: c.codePointAt(0)!, fold }));
  return toJs(items.length === 1 ? items[0] : { type: 'concat', items });
}

/** Searches for the next occurrence of any required literal. */
type LiteralFinder = (text: string, from: number) => number;

function literalFinder(lits: string[], insensitive: boolean): LiteralFinder {
  if (
    lits.length === 1 &&
    (!insensitive || escapeLiteralJs(lits[0], true) === escapeLiteralJs(lits[0], false))
  ) {
    const needle = lits[0];
    return (text, from) => text.indexOf(needle, from);
  }
  // An alternation of literals: q = 0, K = number of literals, so this RegExp is linear.
  const re = new RegExp(lits.map((l) => escapeLiteralJs(l, insensitive)).join('|'), 'gu');
  return (text, from) => {
    re.lastIndex = from;
    const m = re.exec(text);
    return m ? m.index : -1;
  };
}

interface Re2Prog {
  re: RE2JS;
  /** 0 = the whole match is the hit; 1 = group 1 is. */
  hitGroup: number;
  markers: number[];
}

function compileRe2(pattern: string, source: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw invalidPattern(pattern, `the regex could not be compiled (${msg})`);
  }
}

/** The re2js side: one line at a time. */
class Re2Engine {
  private progs = new Map<string, Re2Prog>();
  private readonly hasEol: boolean;

  constructor(
    private readonly pattern: string,
    private readonly node: Node,
    private readonly wholeWord: boolean,
  ) {
    this.hasEol = hasAssert(node, 'eol');
  }

  /** kind: 'f' filter (no groups), 'a' first search (may use ^), 'b' later searches (whole word). */
  private prog(cr: boolean, kind: 'f' | 'a' | 'b'): Re2Prog {
    const key = (cr ? 'c' : 'p') + kind;
    let p = this.progs.get(key);
    if (p) return p;
    const needGroup = kind !== 'f' && (this.wholeWord || cr);
    const body = toRe2(this.node, cr, needGroup ? 2 : 1);
    let source: string;
    if (kind === 'f' || !needGroup) source = body.source;
    else if (!this.wholeWord) source = `(${body.source})`;
    else if (kind === 'a') source = `(?:^|${RE2_NOT_WORD})(${body.source})(?:$|${RE2_NOT_WORD})`;
    else source = `${RE2_NOT_WORD}(${body.source})(?:$|${RE2_NOT_WORD})`;
    p = { re: compileRe2(this.pattern, source), hitGroup: needGroup ? 1 : 0, markers: body.markers };
    this.progs.set(key, p);
    return p;
  }

  /** Compile eagerly (to report errors at compile time). */
  warm(): void {
    this.prog(false, 'f');
  }

  /** Runs on one line (no '\n'), reporting hits shifted by base. Returns false when stopped. */
  runLine(line: string, base: number, onHit: OnHit): boolean {
    const cr = this.hasEol && line.length > 0 && line.charCodeAt(line.length - 1) === 0x0d;
    if (!this.prog(cr, 'f').re.test(line)) return true;
    const n = line.length;
    const progA = this.prog(cr, 'a');
    const progB = this.wholeWord ? this.prog(cr, 'b') : progA;
    let mA: Re2Matcher | null = null;
    let mB: Re2Matcher | null = null;
    let pos = 0;
    let prevEnd = -1;
    while (pos <= n) {
      let prog: Re2Prog;
      let m: Re2Matcher;
      let from: number;
      if (pos === 0 || !this.wholeWord) {
        prog = progA;
        m = mA ??= progA.re.matcher(line);
        from = pos;
      } else {
        prog = progB;
        m = mB ??= progB.re.matcher(line);
        from = prevCpStart(line, pos);
      }
      if (!m.find(from)) return true;
      const g = prog.hitGroup;
      const s = m.start(g);
      let e = m.end(g);
      if (cr && e === n) {
        for (const k of prog.markers) {
          if (m.start(k) >= 0) {
            e = n - 1;
            break;
          }
        }
      }
      if (s === e) {
        if (s !== prevEnd && onHit(base + s, base + e) === false) return false;
        prevEnd = e;
        pos = e + (e < n ? cpWidth(line, e) : 1);
      } else {
        if (onHit(base + s, base + e) === false) return false;
        prevEnd = e;
        pos = e;
      }
    }
    return true;
  }
}

/** Runs a global ('gu') RegExp over s, reporting hits shifted by base; false when stopped. */
function runNative(re: RegExp, s: string, base: number, maxStart: number, onHit: OnHit): boolean {
  let prevEnd = -1;
  re.lastIndex = 0;
  const n = s.length;
  for (;;) {
    const m = re.exec(s);
    if (m === null) return true;
    const start = m.index;
    if (start > maxStart) return true;
    const end = start + m[0].length;
    if (start === end) {
      if (start !== prevEnd && onHit(base + start, base + end) === false) return false;
      prevEnd = end;
      const next = end + (end < n ? cpWidth(s, end) : 1);
      if (next > n) return true;
      re.lastIndex = next;
    } else {
      if (onHit(base + start, base + end) === false) return false;
      prevEnd = end;
      re.lastIndex = end; // (again: onHit may have used this matcher)
    }
  }
}

class CompiledMatcher implements Matcher {
  readonly strategy: Strategy;
  private alphabet: HitAlphabet | null | undefined;
  get hitAlphabet(): HitAlphabet | null {
    if (this.alphabet === undefined) this.alphabet = hitAlphabet(this.node);
    return this.alphabet;
  }
  private clauses: string[][] | undefined;
  get requiredClauses(): string[][] {
    return (this.clauses ??= requiredClauses(this.node, this.caseInsensitive));
  }
  readonly caseInsensitive: boolean;
  readonly requiredLiterals: string[] | null;
  readonly plainBytesLiteral: string | null;

  private readonly literal: string | null = null;
  private readonly js: RegExp | null = null;
  private readonly lmax: number = Infinity;
  private readonly finder: LiteralFinder | null = null;
  private re2: Re2Engine | null = null;

  constructor(
    private readonly pattern: string,
    private readonly node: Node,
    private readonly wholeWord: boolean,
    caseInsensitive: boolean,
    literals: string[] | null,
    internal: InternalOptions,
  ) {
    this.caseInsensitive = caseInsensitive;
    this.requiredLiterals = literals;

    const lit = plainLiteral(node);
    this.plainBytesLiteral = lit && !wholeWord && !caseInsensitive && !/[\r\n]/.test(lit) ? lit : null;
    const c = cost(node);
    let strategy: Strategy;
    if (lit !== null) {
      strategy = 'literal';
    } else if (!Number.isFinite(c.q)) {
      strategy = 're2';
    } else if (c.q === 0 && c.K <= NATIVE_MAX_K) {
      strategy = 'native';
    } else {
      const lmax = maxLineLength(c);
      strategy = lmax < MIN_USEFUL_LMAX ? 're2' : 'mixed';
      this.lmax = lmax;
    }
    if (internal.forceStrategy) {
      const forced = internal.forceStrategy;
      if (forced === 'literal' && lit === null) throw new Error('cannot force literal');
      if ((forced === 'native' || forced === 'mixed') && !Number.isFinite(c.q))
        throw new Error('cannot force native');
      strategy = forced;
      if (forced === 'mixed' && !Number.isFinite(this.lmax)) this.lmax = maxLineLength(c);
      if (forced === 'native') this.lmax = Infinity;
    }
    if (internal.lineLimit !== undefined && strategy === 'mixed') this.lmax = internal.lineLimit;

    if (strategy === 'native' || strategy === 'mixed') {
      try {
        this.js = new RegExp(jsSource(node, wholeWord), 'gu');
      } catch {
        // Should not happen; the linear engine is always a correct fallback.
        strategy = 're2';
        this.lmax = 0;
      }
    }
    if (strategy === 'literal') this.literal = lit;
    if (strategy === 're2' || strategy === 'mixed') {
      // Compiled now so that a pattern re2js cannot handle fails here, not in the middle of a scan.
      this.re2 = new Re2Engine(pattern, node, wholeWord);
      this.re2.warm();
    }
    this.strategy = strategy;

    // Line prefilter by required literals.
    const goodLits = literals !== null && literals.every((l) => l.length >= 3) && litScore(literals) >= 2;
    let usePrefilter = false;
    if (strategy === 're2') usePrefilter = literals !== null;
    else if (strategy === 'native' || strategy === 'mixed') usePrefilter = goodLits && !selectiveStart(node);
    if (internal.prefilter !== undefined)
      usePrefilter = internal.prefilter && literals !== null && strategy !== 'literal';
    if (usePrefilter) this.finder = literalFinder(literals!, caseInsensitive);
  }

  private engine(): Re2Engine {
    return (this.re2 ??= new Re2Engine(this.pattern, this.node, this.wholeWord));
  }

  scan(text: string, onHit: OnHit): void {
    this.scanFrom(text, lastStart(text), onHit);
  }

  lineHits(line: string): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    this.scanFrom(line, line.length, (s, e) => {
      out.push([s, e]);
    });
    return out;
  }

  private scanFrom(text: string, maxStart: number, onHit: OnHit): void {
    if (maxStart < 0) return;
    switch (this.strategy) {
      case 'literal':
        this.scanLiteral(text, onHit);
        return;
      case 'native':
        if (this.finder) this.scanCandidateLines(text, maxStart, onHit);
        else runNative(this.js!, text, 0, maxStart, onHit);
        return;
      case 'mixed':
        if (this.finder) this.scanCandidateLines(text, maxStart, onHit);
        else this.scanMixed(text, maxStart, onHit);
        return;
      case 're2':
        this.scanCandidateLines(text, maxStart, onHit);
        return;
    }
  }

  private scanLiteral(text: string, onHit: OnHit): void {
    const needle = this.literal!;
    const len = needle.length;
    const n = text.length;
    let pos = 0;
    for (;;) {
      const i = text.indexOf(needle, pos);
      if (i < 0) return;
      const e = i + len;
      if (
        this.wholeWord &&
        ((i > 0 && isWordUnit(text.charCodeAt(i - 1))) || (e < n && isWordUnit(text.charCodeAt(e))))
      ) {
        pos = i + 1;
        continue;
      }
      if (onHit(i, e) === false) return;
      pos = e;
    }
  }

  /** One line [ls, le): V8 when short enough, else re2js. */
  private runLine(text: string, ls: number, le: number, onHit: OnHit): boolean {
    const line = ls === 0 && le === text.length ? text : text.slice(ls, le);
    if (this.js !== null && le - ls <= this.lmax) return runNative(this.js, line, ls, line.length, onHit);
    return this.engine().runLine(line, ls, onHit);
  }

  /** Every line (or, with a prefilter, every line containing a required literal). */
  private scanCandidateLines(text: string, maxStart: number, onHit: OnHit): void {
    const n = text.length;
    const finder = this.finder;
    let pos = 0;
    while (pos <= maxStart) {
      let ls: number;
      if (finder) {
        const i = finder(text, pos);
        if (i < 0) return;
        ls = i === 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1;
      } else {
        ls = pos;
      }
      let le = text.indexOf('\n', ls);
      if (le < 0) le = n;
      if (!this.runLine(text, ls, le, onHit)) return;
      pos = le + 1;
    }
  }

  /** V8 on runs of short lines, re2js on lines longer than lmax. */
  private scanMixed(text: string, maxStart: number, onHit: OnHit): void {
    const n = text.length;
    const lmax = this.lmax;
    const js = this.js!;
    let segStart = 0;
    let pos = 0; // always a line start
    while (pos < n) {
      const probe = pos + lmax;
      if (probe >= n) break; // the rest is shorter than lmax
      const nl = text.lastIndexOf('\n', probe);
      if (nl >= pos) {
        pos = nl + 1;
        continue;
      }
      // The line at pos is long.
      let le = text.indexOf('\n', probe);
      if (le < 0) le = n;
      if (pos > segStart) {
        // Short lines [segStart, pos - 1) (pos - 1 is their last '\n').
        if (!runNative(js, text.slice(segStart, pos - 1), segStart, Infinity, onHit)) return;
      }
      if (pos <= maxStart && !this.engine().runLine(text.slice(pos, le), pos, onHit)) return;
      segStart = pos = le + 1;
    }
    if (segStart <= maxStart) {
      const seg = segStart === 0 ? text : text.slice(segStart);
      runNative(js, seg, segStart, maxStart - segStart, onHit);
    }
  }
}

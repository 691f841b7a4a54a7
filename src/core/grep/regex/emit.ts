/**
 * Translation of the AST to (1) JS RegExp source for V8 (flags `gu`) and (2) RE2 source for re2js,
 * both with the exact line-oriented semantics of this module:
 *
 *   - nothing matches '\n' (classes and `.` exclude it, `\s` is [\t\f\r ]);
 *   - `^`/`\A` match at a line start: JS `(?<![^\n])`; RE2 per line: `^`;
 *   - `$` matches at a line end and before the '\r' of "\r\n" (and before a '\r' that ends the
 *     text, so that a line handed over without its '\n' behaves the same):
 *     JS `(?=\r?(?:\n|$))`; RE2 per line: `$`, or on a line ending in '\r' `(?:$|(\r)$)` with the
 *     marker group telling the matcher to end the hit before the '\r';
 *   - `\z` matches at the very end of a line (before '\n'), `\b`/`\B` are ASCII;
 *   - case-insensitivity is always expanded into explicit classes (`k` -> `[Kk\u{212A}]`): we never
 *     use the JS `i` flag, whose `/ui` semantics make `\b`, `\w` and `[a-z]` match U+017F and
 *     U+212A where RE2's `\b` does not. (Measured: /[rR][eE][aA][dD][mM][eE]/gu is as fast as
 *     /readme/giu.)
 *   - quantifiers on possibly-empty groups are expanded (`X?` -> `(?:X|)`), because JS aborts an
 *     optional iteration that matches empty where RE2 accepts it.
 * User-written groups are emitted as non-capturing.
 */
import type { Node } from './ast';
import { caseOrbit } from './casefold';
import { contains, MAX_CP, NL, propInfo, subtract, type CharSet, type Ranges } from './charset';
import { isSingle, nullable } from './analyze';

// ---------------------------------------------------------------------------------------------
// JS

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

function jsChar(cp: number): string {
  if (cp >= 0x20 && cp < 0x7f) {
    const ch = String.fromCharCode(cp);
    return JS_SYNTAX.has(ch) ? '\\' + ch : ch;
  }
  return `\\u{${cp.toString(16)}}`;
}

function jsClassChar(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f) {
    return String.fromCharCode(cp);
  }
  return `\\u{${cp.toString(16)}}`;
}

/** A class body from code-point ranges, each code point written by `char` (JS or RE2 escaping). */
function rangesSource(r: Ranges, char: (cp: number) => string): string {
  let s = '';
  for (let i = 0; i < r.length; i += 2) {
    const lo = r[i];
    const hi = r[i + 1];
    s += char(lo);
    if (hi === lo + 1) s += char(hi);
    else if (hi > lo) s += '-' + char(hi);
  }
  return s;
}

function jsRanges(r: Ranges): string {
  return rangesSource(r, jsClassChar);
}

function jsProps(set: CharSet): string {
  return set.props
    .map((p) => (p.neg ? propInfo(p.name)!.js.replace('\\p', '\\P') : propInfo(p.name)!.js))
    .join('');
}

function propsMayMatchNewline(set: CharSet): boolean {
  return set.props.some((p) => propInfo(p.name)!.test.test('\n') !== p.neg);
}

export function jsSet(set: CharSet): string {
  if (set.neg) return `[^${jsRanges(set.ranges)}${jsProps(set)}\\n]`;
  const r = subtract(set.ranges, [NL, NL]);
  if (set.props.length === 0) {
    if (r.length === 0) return '[]';
    if (r.length === 2 && r[0] === r[1]) return jsChar(r[0]);
    return `[${jsRanges(r)}]`;
  }
  const body = `[${jsRanges(r)}${jsProps(set)}]`;
  return propsMayMatchNewline(set) ? `(?:(?!\\n)${body})` : body;
}

function jsAtom(n: Node): string {
  if (n.type === 'char') {
    if (n.fold) {
      const o = caseOrbit(n.cp);
      if (o.length > 1) return `[${jsRanges(o.flatMap((m) => [m, m]))}]`;
    }
    return jsChar(n.cp);
  }
  if (n.type === 'set') return jsSet(n.set);
  throw new Error('not an atom');
}

function quant(min: number, max: number, greedy: boolean): string {
  let q: string;
  if (min === 0 && max === Infinity) q = '*';
  else if (min === 1 && max === Infinity) q = '+';
  else if (min === 0 && max === 1) q = '?';
  else if (max === Infinity) q = `{${min},}`;
  else if (min === max) return `{${min}}`;
  else q = `{${min},${max}}`;
  return greedy ? q : q + '?';
}

/** Greedy `(?:X|)` / lazy `(?:|X)` chain for the optional copies of a nullable X. */
function jsOptionalChain(x: string, count: number, greedy: boolean): string {
  let s = '';
  for (let i = 0; i < count; i++) s = greedy ? `(?:${x}${s}|)` : `(?:|${x}${s})`;
  return s;
}

export function toJs(n: Node): string {
  switch (n.type) {
    case 'empty':
      return '(?:)';
    case 'char':
    case 'set':
      return jsAtom(n);
    case 'assert':
      switch (n.kind) {
        case 'bol':
          return '(?<![^\\n])';
        case 'eol':
          return '(?=\\r?(?:\\n|$))';
        case 'eot':
          return '(?![^\\n])';
        case 'word':
          return '\\b';
        case 'notWord':
          return '\\B';
      }
      break;
    case 'concat':
      return n.items.map((it) => (it.type === 'alt' ? `(?:${toJs(it)})` : toJs(it))).join('');
    case 'alt':
      return n.branches.map(toJs).join('|');
    case 'repeat': {
      if (isSingle(n.body)) {
        const a = jsAtom(n.body);
        return a + quant(n.min, n.max, n.greedy);
      }
      const x = `(?:${toJs(n.body)})`;
      if (n.min === n.max) return x + quant(n.min, n.max, n.greedy);
      if (nullable(n.body) && n.max !== Infinity) {
        return x.repeat(n.min) + jsOptionalChain(x, n.max - n.min, n.greedy);
      }
      return x + quant(n.min, n.max, n.greedy);
    }
  }
  throw new Error('unreachable');
}

export const JS_WORD_CLASS = '[0-9A-Za-z_]';

/** Full JS source, with whole-word boundaries baked in as lookarounds when asked. */
export function jsSource(n: Node, wholeWord: boolean): string {
  const body = toJs(n);
  if (!wholeWord) return body;
  return `(?<!${JS_WORD_CLASS})(?:${body})(?!${JS_WORD_CLASS})`;
}

// ---------------------------------------------------------------------------------------------
// RE2

function re2Char(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f) {
    return String.fromCharCode(cp);
  }
  if (cp > 0x20 && cp < 0x7f) return '\\' + String.fromCharCode(cp);
  return `\\x{${cp.toString(16)}}`;
}

function re2Ranges(r: Ranges): string {
  return rangesSource(r, re2Char);
}

const NEVER = `[^\\x00-\\x{${MAX_CP.toString(16)}}]`;

function re2Set(set: CharSet): string {
  const props = set.props.map((p) => `\\${p.neg ? 'P' : 'p'}{${p.name}}`).join('');
  if (set.neg)
    return set.ranges.length === 0 && props === '' ? '(?s:.)' : `[^${re2Ranges(set.ranges)}${props}]`;
  if (set.ranges.length === 0 && props === '') return NEVER;
  return `[${re2Ranges(set.ranges)}${props}]`;
}

export interface Re2Emit {
  source: string;
  /** Group numbers of `$` markers (only in CR mode). */
  markers: number[];
}

/**
 * RE2 source of the node for running on one line (no '\n' inside). `crMode` emits `$` for a line
 * that ends with '\r'; `firstGroup` is the group number the first marker gets.
 */
export function toRe2(n: Node, crMode: boolean, firstGroup: number): Re2Emit {
  const markers: number[] = [];
  let next = firstGroup;
  /** beforeCr: emitting for the position just before the final '\r' of the line. */
  const walk = (x: Node, beforeCr: boolean): string => {
    switch (x.type) {
      case 'empty':
        return '(?:)';
      case 'char': {
        if (x.fold) {
          const o = caseOrbit(x.cp);
          if (o.length > 1) return `[${re2Ranges(o.flatMap((m) => [m, m]))}]`;
        }
        return re2Char(x.cp);
      }
      case 'set':
        return re2Set(x.set);
      case 'assert':
        switch (x.kind) {
          case 'bol':
            return '^';
          case 'eol':
            if (beforeCr) return '';
            if (!crMode) return '$';
            markers.push(next++);
            return '(?:$|(\\r)$)';
          case 'eot':
            return beforeCr ? NEVER : '$';
          case 'word':
            return '\\b';
          case 'notWord':
            return '\\B';
        }
        break;
      case 'concat': {
        let out = '';
        for (let i = 0; i < x.items.length; i++) {
          const it = x.items[i];
          if (crMode && !beforeCr && it.type === 'assert' && it.kind === 'eol') {
            // `$` on a line ending in '\r' holds at the true end or just before the final '\r'.
            // What follows it in this concatenation and cannot consume a '\r' can only match
            // empty there: its zero-width projection is evaluated at that position, before the
            // marker group consumes the '\r'. (Something after `$` that consumes the '\r' itself,
            // like `$\r`, is the one case this does not model.)
            let j = i + 1;
            while (j < x.items.length && !canConsume(x.items[j], CR)) j++;
            const after = x.items.slice(i + 1, j);
            const before = after.map(emptyProjection).join('');
            const atEnd = after
              .map((a) => (a.type === 'alt' ? `(?:${walk(a, false)})` : walk(a, false)))
              .join('');
            // Numbered after atEnd's own markers, matching the textual order of the groups.
            markers.push(next++);
            out += `(?:$${atEnd}|${before}(\\r)$)`;
            i = j - 1;
            continue;
          }
          out += it.type === 'alt' ? `(?:${walk(it, beforeCr)})` : walk(it, beforeCr);
        }
        return out;
      }
      case 'alt':
        return x.branches.map((b) => walk(b, beforeCr)).join('|');
      case 'repeat': {
        const body = isSingle(x.body) ? walk(x.body, beforeCr) : `(?:${walk(x.body, beforeCr)})`;
        return body + quant(x.min, x.max, x.greedy);
      }
    }
    throw new Error('unreachable');
  };
  return { source: walk(n, false), markers };
}

const CR = 0x0d;

/**
 * RE2 source matching exactly the empty matches of n, evaluated just before a line's final '\r'
 * (where `$` holds and `\z` does not); NEVER when n cannot match empty.
 */
function emptyProjection(n: Node): string {
  switch (n.type) {
    case 'empty':
      return '';
    case 'char':
    case 'set':
      return NEVER;
    case 'assert':
      switch (n.kind) {
        case 'bol':
          return '^';
        case 'eol':
          return '';
        case 'eot':
          return NEVER;
        case 'word':
          return '\\b';
        case 'notWord':
          return '\\B';
      }
      break;
    case 'concat': {
      const parts = n.items.map(emptyProjection);
      return parts.includes(NEVER) ? NEVER : parts.join('');
    }
    case 'alt': {
      const parts = n.branches.map(emptyProjection).filter((p) => p !== NEVER);
      if (parts.length === 0) return NEVER;
      return parts.includes('') ? '' : `(?:${parts.join('|')})`;
    }
    case 'repeat':
      return n.min === 0 ? '' : emptyProjection(n.body);
  }
  return NEVER;
}

function setHas(set: CharSet, cp: number): boolean {
  const s = String.fromCodePoint(cp);
  const inside = contains(set.ranges, cp) || set.props.some((p) => propInfo(p.name)!.test.test(s) !== p.neg);
  return inside !== set.neg;
}

/** True when the node may consume the code point cp. */
function canConsume(n: Node, cp: number): boolean {
  switch (n.type) {
    case 'char':
      return n.cp === cp || (n.fold && caseOrbit(n.cp).includes(cp));
    case 'set':
      return setHas(n.set, cp);
    case 'concat':
      return n.items.some((x) => canConsume(x, cp));
    case 'alt':
      return n.branches.some((x) => canConsume(x, cp));
    case 'repeat':
      return canConsume(n.body, cp);
    default:
      return false;
  }
}

export const RE2_NOT_WORD = '[^0-9A-Za-z_]';

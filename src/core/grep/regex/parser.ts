/**
 * Parser for RE2 / Rust regex syntax (what ripgrep accepts), producing the AST of ast.ts.
 *
 * Flags are resolved while parsing: every literal char records whether it is case-insensitive,
 * classes are case-folded when built under (?i), greediness is swapped under (?U). The `m` and `s`
 * flags are accepted and have no effect: the search is line-oriented, so `^`/`$` always match at
 * line boundaries and nothing ever matches '\n'. `x` (verbose) is supported as in Rust.
 *
 * Errors are QuarryError('InvalidPattern') with a message in the style of ripgrep/RE2
 * ("regex parse error: unclosed group (at offset 0)") and `data: { pattern, offset }`.
 */
import { QuarryError } from '../../errors';
import type { AssertKind, Node } from './ast';
import { CharSetBuilder, NL, PERL_CLASSES, POSIX_CLASSES, type CharSet, propInfo } from './charset';
import { isUppercase } from './casefold';

export interface ParseResult {
  node: Node;
  /** The pattern has at least one literal character (smart case needs one). */
  anyLiteral: boolean;
  /** Some literal character is uppercase (smart case then stays case-sensitive). */
  anyUppercase: boolean;
}

interface Flags {
  i: boolean;
  U: boolean;
  x: boolean;
}

const MAX_REPEAT = 1000;
const MAX_DEPTH = 1000;
const NEWLINE_MESSAGE = "the literal '\\n' is not allowed in a regex";

export function invalidPattern(pattern: string, message: string, offset?: number): QuarryError {
  const where = offset === undefined ? '' : ` (at offset ${offset})`;
  return new QuarryError(
    'InvalidPattern',
    `regex parse error: ${message}${where}`,
    offset === undefined ? { pattern } : { pattern, offset },
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
function isAlnum(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b;
}

const DOT: CharSet = { neg: true, ranges: [], props: [] };

export function parse(pattern: string, foldAll: boolean): ParseResult {
  return new Parser(pattern).run(foldAll);
}

class Parser {
  private pos = 0;
  private anyLiteral = false;
  private anyUppercase = false;
  private readonly names = new Set<string>();

  constructor(private readonly src: string) {}

  run(foldAll: boolean): ParseResult {
    const nl = this.src.indexOf('\n');
    if (nl >= 0) throw this.fail(NEWLINE_MESSAGE, nl);
    const node = this.parseAlt({ i: foldAll, U: false, x: false }, 0);
    if (this.pos < this.src.length) {
      // Only a ')' stops the top level early.
      throw this.fail('unopened group: unmatched )', this.pos);
    }
    return { node, anyLiteral: this.anyLiteral, anyUppercase: this.anyUppercase };
  }

  // ------------------------------------------------------------------ helpers

  private fail(message: string, offset: number): QuarryError {
    return invalidPattern(this.src, message, offset);
  }

  private peek(): number {
    return this.pos < this.src.length ? this.src.codePointAt(this.pos)! : -1;
  }

  private peekAt(offset: number): number {
    const p = this.pos + offset;
    return p < this.src.length ? this.src.charCodeAt(p) : -1;
  }

  private next(): number {
    const c = this.src.codePointAt(this.pos)!;
    this.pos += c > 0xffff ? 2 : 1;
    return c;
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  private literal(cp: number): void {
    this.anyLiteral = true;
    if (!this.anyUppercase && isUppercase(cp)) this.anyUppercase = true;
  }

  private skipVerbose(flags: Flags): void {
    if (!flags.x) return;
    for (;;) {
      const c = this.peek();
      if (c >= 0 && isSpace(c)) this.pos++;
      else if (c === 0x23 /* # */) this.pos = this.src.length;
      else return;
    }
  }

  // ------------------------------------------------------------------ structure

  private parseAlt(flags: Flags, depth: number): Node {
    if (depth > MAX_DEPTH) throw this.fail('nesting too deep', this.pos);
    const branches: Node[] = [this.parseSeq(flags, depth)];
    while (this.peek() === 0x7c /* | */) {
      this.pos++;
      branches.push(this.parseSeq(flags, depth));
    }
    return branches.length === 1 ? branches[0] : { type: 'alt', branches };
  }

  private parseSeq(flags: Flags, depth: number): Node {
    const items: Node[] = [];
    for (;;) {
      this.skipVerbose(flags);
      const c = this.peek();
      if (c < 0 || c === 0x7c || c === 0x29 /* ) */) break;
      const opLen = this.repeatOpLength();
      if (opLen > 0) {
        throw this.fail(
          `missing argument to repetition operator: \`${this.src.slice(this.pos, this.pos + opLen)}\``,
          this.pos,
        );
      }
      if (c === 0x5c /* \ */ && this.peekAt(1) === 0x51 /* Q */) {
        // \Q...\E: literal text; a following quantifier applies to the last char only.
        this.pos += 2;
        let end = this.src.indexOf('\\E', this.pos);
        if (end < 0) end = this.src.length;
        const chars: Node[] = [];
        while (this.pos < end) {
          const cp = this.next();
          this.literal(cp);
          chars.push({ type: 'char', cp, fold: flags.i });
        }
        this.pos = Math.min(this.src.length, end + 2);
        if (chars.length === 0) continue;
        const last = chars.pop()!;
        items.push(...chars);
        items.push(this.parseRepeat(last, flags));
        continue;
      }
      const atom = this.parseAtom(flags, depth);
      if (atom === null) {
        // A flag group like (?i): nothing to repeat.
        this.skipVerbose(flags);
        const len = this.repeatOpLength();
        if (len > 0) {
          throw this.fail(
            `missing argument to repetition operator: \`${this.src.slice(this.pos, this.pos + len)}\``,
            this.pos,
          );
        }
        continue;
      }
      items.push(this.parseRepeat(atom, flags));
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0] : { type: 'concat', items };
  }

  /** Length of a repetition operator at the cursor (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`), else 0. */
  private repeatOpLength(): number {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f) return 1;
    if (c === 0x7b /* { */) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos, this.pos + 32));
      return m ? m[0].length : 0;
    }
    return 0;
  }

  private parseRepeat(atom: Node, flags: Flags): Node {
    this.skipVerbose(flags);
    const start = this.pos;
    const len = this.repeatOpLength();
    if (len === 0) return atom;
    const op = this.src.slice(start, start + len);
    let min: number;
    let max: number;
    if (op === '*') [min, max] = [0, Infinity];
    else if (op === '+') [min, max] = [1, Infinity];
    else if (op === '?') [min, max] = [0, 1];
    else {
      const m = /^\{(\d+)(,(\d*))?\}$/.exec(op)!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || max < min) {
        throw this.fail(`invalid repeat count: \`${op}\``, start);
      }
    }
    this.pos += len;
    let greedy = true;
    if (this.peek() === 0x3f /* ? */) {
      this.pos++;
      greedy = false;
    }
    if (flags.U) greedy = !greedy;
    this.skipVerbose(flags);
    const again = this.repeatOpLength();
    if (again > 0) {
      throw this.fail(
        `invalid nested repetition operator: \`${this.src.slice(start, this.pos + again)}\``,
        start,
      );
    }
    const node: Node = { type: 'repeat', min, max, greedy, body: atom };
    if ((min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) {
      throw this.fail(`invalid repeat count: nested repetition exceeds ${MAX_REPEAT}: \`${op}\``, start);
    }
    return node;
  }

  /** One atom; null for a flag-only group such as `(?i)`. */
  private parseAtom(flags: Flags, depth: number): Node | null {
    const start = this.pos;
    const c = this.next();
    switch (c) {
      case 0x28 /* ( */:
        return this.parseGroup(flags, depth, start);
      case 0x5b /* [ */:
        return { type: 'set', set: this.parseClass(flags, start) };
      case 0x2e /* . */:
        return { type: 'set', set: DOT };
      case 0x5e /* ^ */:
        return { type: 'assert', kind: 'bol' };
      case 0x24 /* $ */:
        return { type: 'assert', kind: 'eol' };
      case 0x5c /* \ */:
        return this.parseEscape(flags, start);
      default:
        this.literal(c);
        return { type: 'char', cp: c, fold: flags.i };
    }
  }

  private parseGroup(flags: Flags, depth: number, start: number): Node | null {
    const inner: Flags = { ...flags };
    if (this.peek() === 0x3f /* ? */) {
      this.pos++;
      if (this.startsWith('=') || this.startsWith('!') || this.startsWith('<=') || this.startsWith('<!')) {
        throw this.fail(
          'look-around, including look-ahead and look-behind, is not supported (RE2 syntax)',
          start,
        );
      }
      if (this.startsWith('P=') || this.startsWith('P>')) {
        throw this.fail('backreferences and recursion are not supported (RE2 syntax)', start);
      }
      if (this.startsWith('P<') || this.startsWith('<')) {
        this.pos += this.startsWith('P<') ? 2 : 1;
        const end = this.src.indexOf('>', this.pos);
        if (end < 0) throw this.fail('invalid named capture: missing >', start);
        const name = this.src.slice(this.pos, end);
        if (!/^[A-Za-z0-9_]+$/.test(name)) throw this.fail(`invalid named capture: \`${name}\``, start);
        if (this.names.has(name)) throw this.fail(`duplicate capture group name: \`${name}\``, start);
        this.names.add(name);
        this.pos = end + 1;
      } else {
        // Flags: (?flags) or (?flags:...)
        let negate = false;
        let sawFlagAfterMinus = false;
        for (;;) {
          if (this.pos >= this.src.length) throw this.fail('unclosed group', start);
          const f = this.next();
          if (
            f === 0x69 /* i */ ||
            f === 0x6d /* m */ ||
            f === 0x73 /* s */ ||
            f === 0x55 /* U */ ||
            f === 0x78 /* x */
          ) {
            const on = !negate;
            if (f === 0x69) inner.i = on;
            else if (f === 0x55) inner.U = on;
            else if (f === 0x78) inner.x = on;
            if (negate) sawFlagAfterMinus = true;
          } else if (f === 0x2d /* - */) {
            if (negate) throw this.fail('invalid flags: repeated negation', this.pos - 1);
            negate = true;
          } else if (f === 0x29 /* ) */ || f === 0x3a /* : */) {
            if (negate && !sawFlagAfterMinus)
              throw this.fail('invalid flags: expected a flag after -', this.pos - 1);
            if (f === 0x29) {
              // (?flags): applies to the rest of the enclosing group.
              flags.i = inner.i;
              flags.U = inner.U;
              flags.x = inner.x;
              return null;
            }
            break;
          } else {
            throw this.fail(`invalid or unsupported Perl syntax: \`(?${String.fromCodePoint(f)}\``, start);
          }
        }
      }
    }
    const body = this.parseAlt(inner, depth + 1);
    if (this.peek() !== 0x29) throw this.fail('unclosed group', start);
    this.pos++;
    return body;
  }

  // ------------------------------------------------------------------ escapes

  private parseEscape(flags: Flags, start: number): Node {
    if (this.pos >= this.src.length) throw this.fail('incomplete escape sequence: trailing backslash', start);
    const c = this.peek();
    switch (c) {
      case 0x64:
      case 0x44:
      case 0x73:
      case 0x53:
      case 0x77:
      case 0x57: {
        // d D s S w W
        this.pos++;
        const b = new CharSetBuilder(flags.i);
        const lower = String.fromCharCode(c | 0x20);
        b.addClass(PERL_CLASSES[lower], c < 0x60);
        return { type: 'set', set: b.build(false) };
      }
      case 0x70:
      case 0x50: {
        // p P
        this.pos++;
        const b = new CharSetBuilder(flags.i);
        this.parseUnicodeClass(b, c === 0x50, start);
        return { type: 'set', set: b.build(false) };
      }
      case 0x41:
        this.pos++;
        return assert('bol'); // \A
      case 0x7a:
        this.pos++;
        return assert('eot'); // \z
      case 0x62:
        this.pos++;
        return assert('word'); // \b
      case 0x42:
        this.pos++;
        return assert('notWord'); // \B
      case 0x43:
        throw this.fail('\\C (match any byte) is not supported', start);
      case 0x5a:
        throw this.fail('invalid escape sequence: `\\Z` (use \\z or $)', start);
      default: {
        const cp = this.parseEscapeChar(start);
        this.literal(cp);
        return { type: 'char', cp, fold: flags.i };
      }
    }
  }

  /** A character escape after the backslash (cursor on the char after `\`). */
  private parseEscapeChar(start: number, allowNewline = false): number {
    if (this.pos >= this.src.length) throw this.fail('incomplete escape sequence: trailing backslash', start);
    const c = this.next();
    let cp: number;
    switch (c) {
      case 0x31:
      case 0x32:
      case 0x33:
      case 0x34:
      case 0x35:
      case 0x36:
      case 0x37:
      case 0x38:
      case 0x39:
        throw this.fail(
          `backreferences are not supported (RE2 syntax): \`\\${String.fromCharCode(c)}\``,
          start,
        );
      case 0x30: {
        // \0, \0o, \0oo (octal)
        cp = 0;
        for (let k = 0; k < 2; k++) {
          const d = this.peek();
          if (d >= 0x30 && d <= 0x37) {
            cp = cp * 8 + (d - 0x30);
            this.pos++;
          } else break;
        }
        break;
      }
      case 0x61:
        cp = 0x07;
        break; // \a
      case 0x66:
        cp = 0x0c;
        break; // \f
      case 0x74:
        cp = 0x09;
        break; // \t
      case 0x6e:
        cp = NL;
        break; // \n
      case 0x72:
        cp = 0x0d;
        break; // \r
      case 0x76:
        cp = 0x0b;
        break; // \v
      case 0x78:
        cp = this.parseHex(start, 2, 'x');
        break; // \x
      case 0x75:
        cp = this.parseHex(start, 4, 'u');
        break; // \u
      case 0x55:
        cp = this.parseHex(start, 8, 'U');
        break; // \U
      default:
        if (c < 0x80 && !isAlnum(c)) {
          cp = c; // escaped punctuation
          break;
        }
        throw this.fail(`invalid escape sequence: \`\\${String.fromCodePoint(c)}\``, start);
    }
    if (cp === NL && !allowNewline) throw this.fail(NEWLINE_MESSAGE, start);
    return cp;
  }

  /** \xHH, \x{H...}, \uHHHH, \u{...}, \UHHHHHHHH, \U{...} (cursor after the letter). */
  private parseHex(start: number, digits: number, letter: string): number {
    let value: number;
    if (this.peek() === 0x7b /* { */) {
      const end = this.src.indexOf('}', this.pos);
      const body = end < 0 ? '' : this.src.slice(this.pos + 1, end);
      if (
        end < 0 ||
        body.length === 0 ||
        body.length > 8 ||
        ![...body].every((ch) => isHex(ch.charCodeAt(0)))
      ) {
        throw this.fail(`invalid escape sequence: \`\\${letter}{\``, start);
      }
      value = parseInt(body, 16);
      this.pos = end + 1;
    } else {
      const body = this.src.slice(this.pos, this.pos + digits);
      if (body.length < digits || ![...body].every((ch) => isHex(ch.charCodeAt(0)))) {
        throw this.fail(`invalid escape sequence: \`\\${letter}${body}\``, start);
      }
      value = parseInt(body, 16);
      this.pos += digits;
    }
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
      throw this.fail(
        `invalid escape sequence: code point ${value.toString(16)} is not a Unicode scalar value`,
        start,
      );
    }
    return value;
  }

  /** \pL, \p{Name}, \p{^Name} (cursor after p/P). */
  private parseUnicodeClass(b: CharSetBuilder, negated: boolean, start: number): void {
    let name: string;
    if (this.peek() === 0x7b /* { */) {
      const end = this.src.indexOf('}', this.pos);
      if (end < 0) throw this.fail('invalid character class range: unclosed \\p{', start);
      name = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
    } else {
      if (this.pos >= this.src.length)
        throw this.fail('invalid character class range: missing name after \\p', start);
      name = String.fromCodePoint(this.next());
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    if (!propInfo(name))
      throw this.fail(`invalid character class range: unknown Unicode class \`${name}\``, start);
    b.addProp(name, negated);
  }

  // ------------------------------------------------------------------ classes

  private parseClass(flags: Flags, start: number): CharSet {
    let neg = false;
    if (this.peek() === 0x5e /* ^ */) {
      this.pos++;
      neg = true;
    }
    const b = new CharSetBuilder(flags.i);
    let first = true;
    let onlyNewline = true;
    for (;;) {
      if (flags.x) while (this.peek() >= 0 && isSpace(this.peek())) this.pos++;
      const c = this.peek();
      if (c < 0) throw this.fail('unclosed character class', start);
      if (c === 0x5d /* ] */ && !first) {
        this.pos++;
        break;
      }
      first = false;
      const itemStart = this.pos;
      if (this.startsWith('[:')) {
        const end = this.src.indexOf(':]', this.pos + 2);
        if (end >= 0) {
          let name = this.src.slice(this.pos + 2, end);
          let negated = false;
          if (name.startsWith('^')) {
            negated = true;
            name = name.slice(1);
          }
          const r = Object.prototype.hasOwnProperty.call(POSIX_CLASSES, name)
            ? POSIX_CLASSES[name]
            : undefined;
          if (!r) throw this.fail(`invalid character class range: \`[:${name}:]\``, itemStart);
          this.pos = end + 2;
          b.addClass(r, negated);
          onlyNewline = false;
          continue;
        }
      }
      if (c === 0x5c /* \ */) {
        const e = this.peekAt(1);
        if (e === 0x64 || e === 0x44 || e === 0x73 || e === 0x53 || e === 0x77 || e === 0x57) {
          this.pos += 2;
          b.addClass(PERL_CLASSES[String.fromCharCode(e | 0x20)], e < 0x60);
          onlyNewline = false;
          continue;
        }
        if (e === 0x70 || e === 0x50) {
          this.pos += 2;
          this.parseUnicodeClass(b, e === 0x50, itemStart);
          onlyNewline = false;
          continue;
        }
      }
      const lo = this.parseClassChar(itemStart);
      let hi = lo;
      if (this.peek() === 0x2d /* - */ && this.peekAt(1) >= 0 && this.peekAt(1) !== 0x5d) {
        this.pos++;
        hi = this.parseClassChar(this.pos);
        if (hi < lo) {
          throw this.fail(
            `invalid character class range: \`${this.src.slice(itemStart, this.pos)}\``,
            itemStart,
          );
        }
      }
      if (!(lo === NL && hi === NL)) onlyNewline = false;
      b.addRange(lo, hi);
    }
    if (!neg && onlyNewline) throw this.fail(NEWLINE_MESSAGE, start);
    return b.build(neg);
  }

  private parseClassChar(itemStart: number): number {
    if (this.pos >= this.src.length) throw this.fail('unclosed character class', itemStart);
    const c = this.next();
    if (c !== 0x5c) {
      this.literal(c);
      return c;
    }
    // Inside a class, \n is allowed (and ignored: classes never match a line terminator).
    const cp = this.parseEscapeChar(this.pos - 1, true);
    if (cp !== NL) this.literal(cp);
    return cp;
  }
}

/** RE2's limit: the product of nested repetition counts (max, or min when unbounded) ≤ n. */
function repeatIsValid(n: Node, limit: number): boolean {
  switch (n.type) {
    case 'repeat': {
      const m = n.max === Infinity ? n.min : n.max;
      if (m === 0) return true;
      if (m > limit) return false;
      return repeatIsValid(n.body, Math.floor(limit / m));
    }
    case 'concat':
      return n.items.every((x) => repeatIsValid(x, limit));
    case 'alt':
      return n.branches.every((x) => repeatIsValid(x, limit));
    default:
      return true;
  }
}

function assert(kind: AssertKind): Node {
  return { type: 'assert', kind };
}

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
 * Escapes and bracket classes are read by char-reader.ts, the class this parser extends.
 */
import type { AssertKind, Node } from './ast';
import { CharReader, type Flags, isSpace, NEWLINE_MESSAGE } from './char-reader';
import { CharSetBuilder, PERL_CLASSES, type CharSet } from './charset';

export { invalidPattern } from './char-reader';

export interface ParseResult {
  node: Node;
  /** The pattern has at least one literal character (smart case needs one). */
  anyLiteral: boolean;
  /** Some literal character is uppercase (smart case then stays case-sensitive). */
  anyUppercase: boolean;
}

const MAX_REPEAT = 1000;
const MAX_DEPTH = 1000;

const DOT: CharSet = { neg: true, ranges: [], props: [] };

export function parse(pattern: string, foldAll: boolean): ParseResult {
  return new Parser(pattern).run(foldAll);
}

class Parser extends CharReader {
  private readonly names = new Set<string>();

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

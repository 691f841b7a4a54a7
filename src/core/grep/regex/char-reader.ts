/**
 * The character level of the regex parser (parser.ts): a cursor over the pattern, and the
 * escapes (\t, \x{…}, \u…, \p{…}) and bracket classes ([a-z], [[:alpha:]], [^\d\pL]) it
 * reads into code points and CharSets, case-folded under (?i). It notes whether the pattern
 * has a literal character and an uppercase one (for smart case).
 */
import { QuarryError } from '../../errors';
import { isUppercase } from './casefold';
import { CharSetBuilder, NL, PERL_CLASSES, POSIX_CLASSES, type CharSet, propInfo } from './charset';

export interface Flags {
  i: boolean;
  U: boolean;
  x: boolean;
}

export const NEWLINE_MESSAGE = "the literal '\\n' is not allowed in a regex";

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
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b;
}

export class CharReader {
  protected pos = 0;
  protected anyLiteral = false;
  protected anyUppercase = false;

  constructor(protected readonly src: string) {}

  protected fail(message: string, offset: number): QuarryError {
    return invalidPattern(this.src, message, offset);
  }

  protected peek(): number {
    return this.pos < this.src.length ? this.src.codePointAt(this.pos)! : -1;
  }

  protected peekAt(offset: number): number {
    const p = this.pos + offset;
    return p < this.src.length ? this.src.charCodeAt(p) : -1;
  }

  protected next(): number {
    const c = this.src.codePointAt(this.pos)!;
    this.pos += c > 0xffff ? 2 : 1;
    return c;
  }

  protected startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  protected literal(cp: number): void {
    this.anyLiteral = true;
    if (!this.anyUppercase && isUppercase(cp)) this.anyUppercase = true;
  }

  // ------------------------------------------------------------------ escapes

  /** A character escape after the backslash (cursor on the char after `\`). */
  protected parseEscapeChar(start: number, allowNewline = false): number {
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
  protected parseUnicodeClass(b: CharSetBuilder, negated: boolean, start: number): void {
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

  protected parseClass(flags: Flags, start: number): CharSet {
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

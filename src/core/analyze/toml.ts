/**
 * A small TOML reader, enough for manifests (Cargo.toml, pyproject.toml): tables and arrays of
 * tables, dotted and quoted keys, the four string forms, integers, floats, booleans, dates and
 * times (kept as their text), arrays over many lines and inline tables. It is lenient where
 * TOML is strict (a table may be reopened; an inline table may span lines and end in a comma).
 * A statement it cannot read becomes an error with its line number and reading goes on at the
 * next line, so a caller gets whatever could be read: it never throws.
 */
export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}
export interface TomlResult {
  value: TomlTable;
  /** `line N: what could not be read`, in the order met. */
  errors: string[];
}

/** Nesting beyond this (arrays in arrays, inline tables in inline tables) is an error, not a stack overflow. */
const MAX_DEPTH = 100;
const MAX_ERRORS = 50;
const BARE_KEY = /[A-Za-z0-9_-]/;
const KEY_PART = `(?:[A-Za-z0-9_-]+|"[^"\\n]*"|'[^'\\n]*')`;
/** A line that begins a statement: a `[table]` / `[[table]]` header, or `key =`. */
const STATEMENT_START = new RegExp(
  `^\\s*(?:\\[\\[?\\s*${KEY_PART}[^\\]]*\\]\\]?\\s*(?:#[^\\n]*)?$|${KEY_PART}(?:\\s*\\.\\s*${KEY_PART})*\\s*=)`,
);
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?)?|\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/;
const INTEGER = /^[+-]?(0|[1-9](_?\d)*)$/;
const FLOAT = /^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/;
const RADIX: Record<string, [number, RegExp]> = {
  x: [16, /^[0-9A-Fa-f](_?[0-9A-Fa-f])*$/],
  o: [8, /^[0-7](_?[0-7])*$/],
  b: [2, /^[01](_?[01])*$/],
};
const ESCAPES: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\x1b',
  '"': '"',
  '\\': '\\',
};

class TomlSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

export function parseToml(text: string): TomlResult {
  return new Reader(text).document();
}

/** A table's own value at `key` (never one inherited from Object.prototype). */
export function tomlGet(table: TomlTable, key: string): TomlValue | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property, so a key such as `__proto__` is data like any other. */
function put(table: TomlTable, key: string, value: TomlValue): void {
  Object.defineProperty(table, key, { value, writable: true, enumerable: true, configurable: true });
}

class Reader {
  private pos = 0;
  private readonly root: TomlTable = {};
  private current: TomlTable = this.root;
  private readonly errors: string[] = [];

  constructor(private readonly text: string) {}

  document(): TomlResult {
    const t = this.text;
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= t.length) break;
      const start = this.pos;
      try {
        if (t[this.pos] === '[') this.header();
        else this.keyValue(this.current, 0);
        this.endOfLine();
      } catch (e) {
        if (!(e instanceof TomlSyntaxError)) throw e;
        if (this.errors.length < MAX_ERRORS) this.errors.push(`line ${this.lineOf(e.pos)}: ${e.message}`);
        this.resume(start, Math.max(this.pos, e.pos));
      }
    }
    return { value: this.root, errors: this.errors };
  }

  private fail(message: string, pos = this.pos): never {
    throw new TomlSyntaxError(message, pos);
  }

  private lineOf(pos: number): number {
    let line = 1;
    for (let i = this.text.indexOf('\n'); i >= 0 && i < pos; i = this.text.indexOf('\n', i + 1)) line++;
    return line;
  }

  /** Spaces and tabs; with `newlines`, also line ends and comments. A comment is skipped in both cases up to its line end. */
  private skipBlank(newlines: boolean): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (newlines && (c === '\n' || c === '\r')) this.pos++;
      else if (c === '#') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end < 0 ? t.length : end;
      } else break;
    }
  }

  /**
   * After a statement (from `start`) that could not be read (reading stopped at `stop`): on at the
   * next line when it failed on its first line; when it ran over lines (an array or inline table
   * left open), at the first line after its first that starts a header or a key/value, so the
   * rest of the broken value is skipped rather than read as statements.
   */
  private resume(start: number, stop: number): void {
    const t = this.text;
    const firstLineEnd = t.indexOf('\n', start);
    for (let end = firstLineEnd; end >= 0; end = t.indexOf('\n', end + 1)) {
      const next = t.indexOf('\n', end + 1);
      if (firstLineEnd >= stop || STATEMENT_START.test(t.slice(end + 1, next < 0 ? t.length : next))) {
        this.pos = end + 1;
        return;
      }
    }
    this.pos = t.length;
  }

  private endOfLine(): void {
    this.skipBlank(false);
    const t = this.text;
    if (this.pos >= t.length || t[this.pos] === '\n' || t.startsWith('\r\n', this.pos)) return;
    this.fail(`expected the end of the line, found "${t.slice(this.pos, this.pos + 20).split('\n')[0]}"`);
  }

  private expect(s: string): void {
    if (!this.text.startsWith(s, this.pos)) this.fail(`expected "${s}"`);
    this.pos += s.length;
  }

  /** `[a.b]` or `[[a.b]]`: the table later key/values go into. */
  private header(): void {
    const start = this.pos;
    this.current = {}; // until the header is read whole, key/values after a bad one go nowhere
    const many = this.text.startsWith('[[', this.pos);
    this.pos += many ? 2 : 1;
    this.skipBlank(false);
    const keys = this.key();
    this.skipBlank(false);
    this.expect(many ? ']]' : ']');
    let table = this.root;
    for (const k of keys.slice(0, -1)) table = this.descend(table, k, start);
    const last = keys[keys.length - 1];
    const existing = tomlGet(table, last);
    if (many) {
      const entry: TomlTable = {};
      if (existing === undefined) put(table, last, [entry]);
      else if (Array.isArray(existing)) existing.push(entry);
      else this.fail(`"${keys.join('.')}" is not an array of tables`, start);
      this.current = entry;
    } else if (existing === undefined) {
      this.current = {};
      put(table, last, this.current);
    } else if (isTable(existing)) {
      this.current = existing;
    } else this.fail(`"${keys.join('.')}" is already a value`, start);
  }

  /** The table at `key` in `table`, made if missing; for an array of tables, its last table. */
  private descend(table: TomlTable, key: string, pos: number): TomlTable {
    const v = tomlGet(table, key);
    if (v === undefined) {
      const made: TomlTable = {};
      put(table, key, made);
      return made;
    }
    if (isTable(v)) return v;
    if (Array.isArray(v) && isTable(v[v.length - 1])) return v[v.length - 1] as TomlTable;
    return this.fail(`"${key}" is already a value`, pos);
  }

  private keyValue(table: TomlTable, depth: number): void {
    const start = this.pos;
    const keys = this.key();
    this.skipBlank(false);
    this.expect('=');
    this.skipBlank(false);
    const value = this.value(depth);
    let target = table;
    for (const k of keys.slice(0, -1)) target = this.descend(target, k, start);
    const last = keys[keys.length - 1];
    if (tomlGet(target, last) !== undefined) this.fail(`duplicate key "${keys.join('.')}"`, start);
    put(target, last, value);
  }

  /** A dotted key: its parts, unquoted. */
  private key(): string[] {
    const t = this.text;
    const parts: string[] = [];
    for (;;) {
      const c = t[this.pos];
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const start = this.pos;
        while (this.pos < t.length && BARE_KEY.test(t[this.pos])) this.pos++;
        if (this.pos === start)
          this.fail(
            c === undefined || c === '\n' || c === '\r'
              ? 'expected a key'
              : `unexpected "${c}" where a key should be`,
          );
        parts.push(t.slice(start, this.pos));
      }
      this.skipBlank(false);
      if (t[this.pos] !== '.') return parts;
      this.pos++;
      this.skipBlank(false);
    }
  }

  private value(depth: number): TomlValue {
    if (depth > MAX_DEPTH) this.fail('values nested too deeply');
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') return t.startsWith('"""', this.pos) ? this.multilineBasicString() : this.basicString();
    if (c === "'")
      return t.startsWith("'''", this.pos) ? this.multilineLiteralString() : this.literalString();
    if (c === '[') return this.array(depth);
    if (c === '{') return this.inlineTable(depth);
    return this.scalar();
  }

  private scalar(): TomlValue {
    const t = this.text;
    const start = this.pos;
    while (this.pos < t.length && !/[\s,\]}#]/.test(t[this.pos])) this.pos++;
    // a date and a time may be separated by one space
    if (
      /^\d{4}-\d{2}-\d{2}$/.test(t.slice(start, this.pos)) &&
      /^ \d{2}:/.test(t.slice(this.pos, this.pos + 4))
    ) {
      this.pos++;
      while (this.pos < t.length && !/[\s,\]}#]/.test(t[this.pos])) this.pos++;
    }
    const token = t.slice(start, this.pos);
    if (token === '') this.fail('expected a value');
    if (token === 'true' || token === 'false') return token === 'true';
    if (DATE_TIME.test(token)) return token;
    if (INTEGER.test(token) || FLOAT.test(token)) return Number(token.replace(/_/g, ''));
    if (/^[+-]?inf$/.test(token)) return token.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(token)) return NaN;
    const radix = /^0([xob])(.*)$/.exec(token);
    if (radix && RADIX[radix[1]][1].test(radix[2]))
      return parseInt(radix[2].replace(/_/g, ''), RADIX[radix[1]][0]);
    return this.fail(`cannot read the value "${token}"`, start);
  }

  private array(depth: number): TomlValue[] {
    const start = this.pos;
    this.pos++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= this.text.length) this.fail('unterminated array', start);
      if (this.text[this.pos] === ']') break;
      items.push(this.value(depth + 1));
      this.skipBlank(true);
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.pos >= this.text.length) this.fail('unterminated array', start);
      else if (this.text[this.pos] !== ']') this.fail('expected "," or "]" in an array');
    }
    this.pos++;
    return items;
  }

  private inlineTable(depth: number): TomlTable {
    const start = this.pos;
    this.pos++;
    const table: TomlTable = {};
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= this.text.length) this.fail('unterminated inline table', start);
      if (this.text[this.pos] === '}') break;
      this.keyValue(table, depth + 1);
      const after = this.pos;
      this.skipBlank(true);
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== '}') {
        if (this.pos >= this.text.length || this.text.slice(after, this.pos).includes('\n'))
          this.fail('unterminated inline table', start);
        this.fail('expected "," or "}" in an inline table');
      }
    }
    this.pos++;
    return table;
  }

  private basicString(): string {
    const t = this.text;
    const start = this.pos++;
    let out = '';
    for (;;) {
      const c = t[this.pos];
      if (c === undefined || c === '\n') this.fail('unterminated string', start);
      if (c === '"') break;
      if (c === '\\') out += this.escape();
      else {
        out += c;
        this.pos++;
      }
    }
    this.pos++;
    return out;
  }

  private multilineBasicString(): string {
    const t = this.text;
    const start = this.pos;
    this.pos += 3;
    this.skipNewline();
    let out = '';
    for (;;) {
      if (this.pos >= t.length) this.fail('unterminated string', start);
      if (t.startsWith('"""', this.pos)) {
        // up to two quotes may end the content: """a""""" is 'a""'
        for (let extra = 0; extra < 2 && t[this.pos + 3] === '"'; extra++, this.pos++) out += '"';
        this.pos += 3;
        return out;
      }
      if (t[this.pos] === '\\') {
        const lineEnd = /^\\[ \t]*\r?\n/.exec(t.slice(this.pos, this.pos + 200));
        if (lineEnd) {
          this.pos += lineEnd[0].length;
          while (this.pos < t.length && /\s/.test(t[this.pos])) this.pos++;
        } else out += this.escape();
      } else out += t[this.pos++];
    }
  }

  private literalString(): string {
    const t = this.text;
    const start = this.pos;
    const end = t.indexOf("'", start + 1);
    const newline = t.indexOf('\n', start + 1);
    if (end < 0 || (newline >= 0 && newline < end)) this.fail('unterminated string', start);
    this.pos = end + 1;
    return t.slice(start + 1, end);
  }

  private multilineLiteralString(): string {
    const t = this.text;
    const start = this.pos;
    this.pos += 3;
    this.skipNewline();
    const from = this.pos;
    let end = t.indexOf("'''", from);
    if (end < 0) this.fail('unterminated string', start);
    for (let extra = 0; extra < 2 && t[end + 3] === "'"; extra++) end++;
    this.pos = end + 3;
    return t.slice(from, end);
  }

  private skipNewline(): void {
    if (this.text[this.pos] === '\n') this.pos++;
    else if (this.text.startsWith('\r\n', this.pos)) this.pos += 2;
  }

  /** At a backslash: the character its escape stands for. */
  private escape(): string {
    const t = this.text;
    const start = this.pos;
    const c = t[this.pos + 1];
    if (c !== undefined && Object.hasOwn(ESCAPES, c)) {
      this.pos += 2;
      return ESCAPES[c];
    }
    const size = c === 'u' ? 4 : c === 'U' ? 8 : c === 'x' ? 2 : 0;
    const hex = t.slice(this.pos + 2, this.pos + 2 + size);
    if (size === 0 || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== size)
      this.fail(`invalid escape "\\${c ?? ''}"`, start);
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      this.fail(`invalid escape "\\${c}${hex}"`, start);
    this.pos += 2 + size;
    return String.fromCodePoint(code);
  }
}

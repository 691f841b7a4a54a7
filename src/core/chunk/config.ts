/**
 * Config files: one 'key' chunk per top-level key of a JSON, YAML or TOML file, spanning the
 * key's whole value. Pure: text in, chunks out; careful scanners, not full parsers.
 *
 * RULES.
 * JSON (also JSONC and JSON5: `//` and `/* *\/` comments, trailing and stray commas,
 *   single-quoted strings, unquoted keys): a chunk per member of the top-level object, from
 *   the key's line to the line of the value's last character; comment lines directly above
 *   a key (no blank line, after the previous member) attach to it. A member that starts on
 *   the line where the previous chunk ends joins that chunk (a one-line object is one chunk,
 *   named by its first key), so chunks never overlap. Anything that is not one object
 *   (a top-level array or scalar, an unterminated string or object, a key without a colon or
 *   value, text after the closing brace) is chunked by the fallback chunker (blocks).
 * YAML: a key is a line that starts at column 0 with a plain, "double" or 'single' quoted
 *   key followed by `:` and a space or the line's end (`- item`, `? key`, flow `{`/`[`,
 *   comments and directives are not keys). Its chunk runs from the key (or the `#` comment
 *   lines at column 0 directly above it) to the last non-blank line before the next key's
 *   chunk or the end of the document. `---` and `...` at column 0 separate documents (their
 *   lines belong to no chunk); a document without keys (a top-level list or scalar) is chunked
 *   by the fallback chunker, one of only `%` directives and comments not at all. The scan is by lines: a quoted scalar continued at column 0 with
 *   `x: ` in it would be taken for a key.
 * TOML: each `[table]` / `[[array.table]]` header gives a chunk named by the table's dotted
 *   name (parts as written, spaces around the dots removed; every `[[bin]]` is named `bin`),
 *   from the header (or the `#` lines directly above it) to the last non-blank line before the
 *   next header's chunk; each key before the first header gives a chunk from its line to the
 *   end of its value (multi-line arrays and strings followed; a dotted key is named `a.b`).
 *   Headers inside multi-line strings or arrays do not count; a bare `[name]` line inside an
 *   array that never closed ends it (an array cannot hold a bare word), so one broken value
 *   does not swallow the rest of the file. No header and no key: fallback blocks.
 * A chunk over the fallback's caps (MAX_LINES, MAX_CHARS) is cut into pieces within them, each
 * named by the key. Lines are split on '\n' only; CRLF and a leading BOM are fine; an empty
 * file gives []. Output is sorted by startLine.
 */
import { blocksInRange, chunkBlocks, cutChunks, isBlank, lineIndex, linesOf } from './fallback';
import type { Chunk } from './types';

export type ConfigKind = 'json' | 'yaml' | 'toml';

const KIND_BY_EXTENSION: Readonly<Record<string, ConfigKind>> = {
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
};
/** Files without one of those extensions that are documented to be JSON or TOML. */
const KIND_BY_NAME: Readonly<Record<string, ConfigKind>> = {
  '.babelrc': 'json',
  '.jshintrc': 'json',
  '.swcrc': 'json',
  Pipfile: 'toml',
};

/**
 * The config kind of a path by its final extension, case-sensitive like languageForPath:
 * .json .jsonc .json5 -> json; .yaml .yml -> yaml; .toml -> toml; also the names .babelrc,
 * .jshintrc, .swcrc (JSON) and Pipfile (TOML). Others (`.prettierrc` may be JSON or YAML) null.
 * Lockfiles (package-lock.json, Cargo.lock, ...) are generated: check generatedDetail first.
 */
export function configKindForPath(path: string): ConfigKind | null {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  if (Object.prototype.hasOwnProperty.call(KIND_BY_NAME, name)) return KIND_BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1);
  return Object.prototype.hasOwnProperty.call(KIND_BY_EXTENSION, ext) ? KIND_BY_EXTENSION[ext] : null;
}

export function chunkConfig(kind: ConfigKind, path: string, text: string): Chunk[] {
  try {
    switch (kind) {
      case 'json':
        return chunkJson(path, text);
      case 'yaml':
        return chunkYaml(path, text);
      case 'toml':
        return chunkToml(path, text);
    }
  } catch {
    // A scanner bug must not lose the file: blocks never throw on text.
  }
  return chunkBlocks(path, text);
}

// ---------------------------------------------------------------- JSON

interface Member {
  name: string;
  keyAt: number;
  /** Offset of the value's last character. */
  lastAt: number;
}

function chunkJson(path: string, text: string): Chunk[] {
  const parsed = jsonMembers(text);
  if (!parsed) return chunkBlocks(path, text);
  const lines = linesOf(text);
  const lineAt = lineIndex(text);
  const spans: { start: number; end: number; name: string }[] = [];
  let prevEnd = lineAt(parsed.openAt);
  for (const m of parsed.members) {
    const keyLine = lineAt(m.keyAt);
    const end = lineAt(m.lastAt);
    const last = spans[spans.length - 1];
    if (last && keyLine <= last.end) {
      last.end = Math.max(last.end, end);
    } else {
      let start = keyLine;
      while (start - 1 > prevEnd && isJsonCommentLine(lines[start - 1])) start--;
      spans.push({ start, end, name: m.name });
    }
    prevEnd = Math.max(prevEnd, end);
  }
  return spans.flatMap((s) => cutChunks(path, lines, s.start, s.end, s.name, 'key'));
}

function isJsonCommentLine(line: string): boolean {
  const t = line.trim();
  return t.startsWith('//') || t.startsWith('/*') || t.startsWith('*');
}

/** The members of the top-level object, or null when the text is not one (tolerantly) well-formed object. */
function jsonMembers(text: string): { openAt: number; members: Member[] } | null {
  const n = text.length;
  let i = skipTrivia(text, 0);
  if (text[i] !== '{') return null;
  const openAt = i++;
  const members: Member[] = [];
  for (;;) {
    i = skipTrivia(text, i);
    if (i >= n) return null;
    const c = text[i];
    if (c === '}') {
      i++;
      break;
    }
    if (c === ',') {
      i++;
      continue;
    }
    const keyAt = i;
    let name: string;
    if (c === '"' || c === "'") {
      const j = stringEnd(text, i);
      if (j < 0) return null;
      name = unquote(text.slice(i, j));
      i = j;
    } else {
      BARE_KEY.lastIndex = i;
      const m = BARE_KEY.exec(text);
      if (!m) return null;
      name = m[0];
      i += m[0].length;
    }
    i = skipTrivia(text, i);
    if (text[i] !== ':') return null;
    const v = valueEnd(text, i + 1);
    if (!v) return null;
    members.push({ name, keyAt, lastAt: v.lastAt });
    i = v.stopAt;
  }
  return skipTrivia(text, i) < n ? null : { openAt, members };
}

const BARE_KEY = /[\p{L}\p{N}_$][\p{L}\p{N}_$-]*/uy;

/** Whitespace (a BOM included) and comments from i; an unterminated block comment runs to the end. */
function skipTrivia(text: string, i: number): number {
  const n = text.length;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (text[i] === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (text[i] === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
    } else return i;
  }
}

function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x09 ||
    c === 0x0b ||
    c === 0x0c ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x2028 ||
    c === 0x2029
  );
}

/** Offset after the string that opens at i (its quote), or -1 when it does not close on its line. */
function stringEnd(text: string, i: number): number {
  const q = text[i];
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === q) return j + 1;
    else if (c === '\n') return -1;
  }
  return -1;
}

function unquote(literal: string): string {
  if (literal[0] === '"') {
    try {
      return JSON.parse(literal) as string;
    } catch {
      /* JSON5 escapes JSON does not know */
    }
  }
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** The value after a colon at i: its last character, and where the `,` or `}` after it is. */
function valueEnd(text: string, i: number): { lastAt: number; stopAt: number } | null {
  const n = text.length;
  let depth = 0;
  let lastAt = -1;
  while (i < n) {
    i = skipTrivia(text, i);
    if (i >= n) break;
    const c = text[i];
    if (c === '"' || c === "'") {
      const j = stringEnd(text, i);
      if (j < 0) return null;
      lastAt = j - 1;
      i = j;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return c === '}' && lastAt >= 0 ? { lastAt, stopAt: i } : null;
      depth--;
    } else if (c === ',' && depth === 0) return lastAt >= 0 ? { lastAt, stopAt: i } : null;
    lastAt = i++;
  }
  return null;
}

// ---------------------------------------------------------------- YAML

const DOC_MARKER = /^(?:---|\.\.\.)(?:\s|$)/;

function chunkYaml(path: string, text: string): Chunk[] {
  const lines = linesOf(text);
  const out: Chunk[] = [];
  let docStart = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && !DOC_MARKER.test(lines[i])) continue;
    out.push(...yamlDocument(path, lines, docStart, i - 1));
    docStart = i + 1;
  }
  return out;
}

function yamlDocument(path: string, lines: readonly string[], from: number, to: number): Chunk[] {
  const keys: { line: number; name: string }[] = [];
  for (let i = from; i <= to; i++) {
    const name = yamlKey(lines[i]);
    if (name !== null) keys.push({ line: i, name });
  }
  if (keys.length === 0) {
    for (let i = from; i <= to; i++)
      if (!/^(?:[%#]|\s*$)/.test(lines[i])) return blocksInRange(path, lines, from, to);
    return []; // directives and comments before `---`: no document
  }
  const starts = keys.map((k, j) => attachComments(lines, k.line, j > 0 ? keys[j - 1].line + 1 : from, /^#/));
  return keys.flatMap((k, j) =>
    cutChunks(path, lines, starts[j], j + 1 < keys.length ? starts[j + 1] - 1 : to, k.name, 'key'),
  );
}

/** The key a column-0 line starts, or null. */
function yamlKey(line: string): string | null {
  const c = line[0];
  if (c === undefined || c === ' ' || c === '\t' || c === '#') return null;
  if (c === '"') {
    const m = /^"((?:[^"\\]|\\.)*)"[ \t]*:(?:[ \t]|$)/.exec(line);
    if (!m) return null;
    try {
      return JSON.parse(`"${m[1]}"`) as string;
    } catch {
      return m[1];
    }
  }
  if (c === "'") {
    const m = /^'((?:[^']|'')*)'[ \t]*:(?:[ \t]|$)/.exec(line);
    return m ? m[1].replace(/''/g, "'") : null;
  }
  if (/^[-?:](?:[ \t]|$)/.test(line) || /^[,[\]{}&*!|>%@`]/.test(line)) return null;
  const m = /^(.*?)[ \t]*:(?:[ \t]|$)/.exec(line);
  if (!m || /[ \t]#/.test(m[1])) return null;
  return m[1];
}

/** The first line of the run of comment lines directly above `line` (not above `floor`), else `line`. */
function attachComments(lines: readonly string[], line: number, floor: number, comment: RegExp): number {
  let start = line;
  while (start - 1 >= floor && comment.test(lines[start - 1])) start--;
  return start;
}

// ---------------------------------------------------------------- TOML

const KEY_PART = `(?:[A-Za-z0-9_-]+|"(?:[^"\\\\]|\\\\.)*"|'[^']*')`;
const KEY_PATH = `${KEY_PART}(?:[ \\t]*\\.[ \\t]*${KEY_PART})*`;
const TOML_HEADER = new RegExp(`^[ \\t]*(\\[\\[?)[ \\t]*(${KEY_PATH})[ \\t]*(\\]\\]?)[ \\t]*(?:#.*)?$`);
const TOML_KEY = new RegExp(`^[ \\t]*(${KEY_PATH})[ \\t]*=`);
const TOML_PARTS = new RegExp(KEY_PART, 'g');
/** A header that cannot be an array element: a bare name (not true/false/inf/nan). */
const RECOVERY_HEADER = /^\[\[?(?!(?:true|false|inf|nan)\]\]?)[A-Za-z_][\w.-]*\]\]?[ \t]*(?:#.*)?$/;
const TOML_COMMENT = /^[ \t]*#/;

interface TomlState {
  /** Inside a multi-line string opened by this delimiter. */
  ml: '"""' | "'''" | null;
  /** Open `[` and `{` of a value. */
  depth: number;
}

function chunkToml(path: string, text: string): Chunk[] {
  const lines = linesOf(text);
  const headers: { line: number; name: string }[] = [];
  const keys: { line: number; end: number; name: string }[] = [];
  const st: TomlState = { ml: null, depth: 0 };
  let pending: { line: number; name: string } | null = null;
  const settle = (end: number) => {
    if (!pending) return;
    while (end > pending.line && isBlank(lines[end])) end--;
    keys.push({ ...pending, end });
    pending = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (st.ml === null && st.depth > 0 && RECOVERY_HEADER.test(line)) {
      st.depth = 0;
      settle(i - 1);
    }
    if (st.ml === null && st.depth === 0) {
      const h = tomlHeader(line);
      if (h !== null) {
        headers.push({ line: i, name: h });
        continue;
      }
      const k = headers.length === 0 ? TOML_KEY.exec(line) : null;
      if (k) pending = { line: i, name: joinParts(k[1]) };
    }
    scanToml(line, st);
    if (st.ml === null && st.depth === 0) settle(i);
  }
  settle(lines.length - 1);
  if (headers.length === 0 && keys.length === 0) return blocksInRange(path, lines, 0, lines.length - 1);
  const out: Chunk[] = [];
  keys.forEach((k, j) => {
    const start = attachComments(lines, k.line, j > 0 ? keys[j - 1].end + 1 : 0, TOML_COMMENT);
    out.push(...cutChunks(path, lines, start, k.end, k.name, 'key'));
  });
  const firstFloor = keys.length > 0 ? keys[keys.length - 1].end + 1 : 0;
  const starts = headers.map((h, j) =>
    attachComments(lines, h.line, j > 0 ? headers[j - 1].line + 1 : firstFloor, TOML_COMMENT),
  );
  headers.forEach((h, j) =>
    out.push(
      ...cutChunks(
        path,
        lines,
        starts[j],
        j + 1 < headers.length ? starts[j + 1] - 1 : lines.length - 1,
        h.name,
        'key',
      ),
    ),
  );
  return out;
}

function tomlHeader(line: string): string | null {
  const m = TOML_HEADER.exec(line);
  return m && m[1].length === m[3].length ? joinParts(m[2]) : null;
}

function joinParts(path: string): string {
  return (path.match(TOML_PARTS) ?? [path]).join('.');
}

/** Follows strings, comments and brackets through one line. */
function scanToml(line: string, st: TomlState): void {
  let i = 0;
  while (i < line.length) {
    if (st.ml !== null) {
      const close = st.ml === '"""' ? basicMultilineEnd(line, i) : line.indexOf("'''", i);
      if (close < 0) return;
      i = close + 3;
      while (line[i] === st.ml[0]) i++; // up to two quotes may end the content: `""""" `
      st.ml = null;
      continue;
    }
    const c = line[i];
    if (c === '#') return;
    if ((c === '"' || c === "'") && line.startsWith(c.repeat(3), i)) {
      st.ml = c === '"' ? '"""' : "'''";
      i += 3;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < line.length && line[i] !== c) i += c === '"' && line[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (c === '[' || c === '{') st.depth++;
      else if ((c === ']' || c === '}') && st.depth > 0) st.depth--;
      i++;
    }
  }
}

/** Where `"""` closes a basic multi-line string on this line from i (escapes skipped), or -1. */
function basicMultilineEnd(line: string, i: number): number {
  for (; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line.startsWith('"""', i)) return i;
  }
  return -1;
}

/**
 * The code of a file, line by line, with its comments (and most string text) blanked, for
 * explore's pattern counts: a `throw` in a comment, a docstring or a string is not a throw
 * site. Rough by design and linear in the text (one pass, no regex on the whole file); string
 * literals are read as strings so that `'src/**'` does not open a comment, while a regex
 * literal holding a quote or `//` can cut the rest of its line.
 *   c       `//` and `/* *\/` comments; the text of "…", '…' and `…` strings (a template may
 *           span lines), import specifiers kept                       JS/TS, Java, C, C#, ...
 *   go      comments as c; strings kept; '…' is a rune and `…` a raw string
 *   rust    comments as c; strings kept; ' is a lifetime or a char, not a string
 *   python  `#` comments; '…', "…" and triple-quoted strings (docstrings are prose)
 *   hash    `#` comment lines (Ruby, shell)
 * Lines longer than MAX_LINE characters (minified code) come back empty.
 */
import type { Lang } from './conventions';

export type CommentStyle = 'c' | 'go' | 'rust' | 'python' | 'hash';

export const MAX_LINE = 1000;

export function commentStyleOf(lang: Lang): CommentStyle {
  switch (lang) {
    case 'go':
      return 'go';
    case 'rust':
      return 'rust';
    case 'python':
      return 'python';
    case 'ruby':
    case 'shell':
      return 'hash';
    default:
      return 'c';
  }
}

/** Code before a string whose text is kept: an import specifier (`from '…'`, `import '…'`, `require('…')`, `import('…')`). */
const SPECIFIER_BEFORE = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*$/;

/**
 * The file's lines with comments blanked (same count as `lines`). In the c style the text of
 * strings is blanked too (`'throw new X'` becomes `''`), except import specifiers: code written
 * inside strings (a test's fixture source) is not the file's code. Go and Rust keep strings
 * (error formats such as "%w" are read from them).
 */
export function codeLines(lines: readonly string[], style: CommentStyle): string[] {
  if (style === 'python') return pythonCode(lines);
  if (style === 'hash') return lines.map((l) => (l.length > MAX_LINE || /^\s*#/.test(l) ? '' : l));
  const quotes = style === 'c' ? '"\'`' : style === 'go' ? '"`' : '"';
  const multiline = style === 'rust' ? '' : '`'; // the quote whose strings may span lines
  const blank = style === 'c';
  const out: string[] = new Array(lines.length);
  let inBlock = false;
  let inString = ''; // a multi-line string left open on an earlier line
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.length > MAX_LINE) {
      out[n] = '';
      continue;
    }
    if (
      !inBlock &&
      inString === '' &&
      line.indexOf('/') < 0 &&
      (multiline === '' || line.indexOf(multiline) < 0) &&
      (!blank || !/["']/.test(line))
    ) {
      out[n] = line;
      continue;
    }
    let code = '';
    let from = 0; // start of the code not yet copied
    let i = 0;
    while (i < line.length) {
      if (inBlock) {
        const end = line.indexOf('*/', i);
        if (end < 0) {
          from = line.length;
          break;
        }
        inBlock = false;
        i = from = end + 2;
        code += ' ';
        continue;
      }
      if (inString !== '') {
        const close = closeOf(line, i, inString);
        if (close < 0) {
          if (blank) from = line.length;
          break;
        }
        if (blank) from = close - 1; // keep the closing quote
        inString = '';
        i = close;
        continue;
      }
      const c = line[i];
      if (c === '/' && line[i + 1] === '/') {
        code += line.slice(from, i);
        from = line.length;
        break;
      }
      if (c === '/' && line[i + 1] === '*') {
        code += line.slice(from, i);
        inBlock = true;
        i += 2;
        continue;
      }
      if (quotes.includes(c)) {
        const close = closeOf(line, i + 1, c);
        const keep = !blank || SPECIFIER_BEFORE.test(line.slice(Math.max(0, i - 16), i));
        if (close < 0) {
          if (c === multiline) inString = c;
          if (!keep) {
            code += line.slice(from, i + 1);
            from = line.length;
          }
          break;
        }
        if (!keep) {
          code += line.slice(from, i + 1) + c;
          from = close;
        }
        i = close;
        continue;
      }
      i++;
    }
    if (!inBlock) code += line.slice(from);
    out[n] = code;
  }
  return out;
}

/** The index after the quote that closes a string opened before `i` (backslash escapes skipped), or -1. */
function closeOf(line: string, i: number, quote: string): number {
  for (let k = i; k < line.length; k++) {
    const c = line[k];
    if (c === '\\') k++;
    else if (c === quote) return k + 1;
  }
  return -1;
}

function pythonCode(lines: readonly string[]): string[] {
  const out: string[] = new Array(lines.length);
  let triple = ''; // an open triple-quoted string
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.length > MAX_LINE) {
      out[n] = '';
      continue;
    }
    let i = 0;
    let code = '';
    if (triple !== '') {
      const end = line.indexOf(triple);
      if (end < 0) {
        out[n] = '';
        continue;
      }
      i = end + 3;
      triple = '';
    }
    if (line.indexOf('#', i) < 0 && line.indexOf('"', i) < 0 && line.indexOf("'", i) < 0) {
      out[n] = line.slice(i);
      continue;
    }
    let from = i;
    while (i < line.length) {
      const c = line[i];
      if (c === '#') {
        code += line.slice(from, i);
        from = line.length;
        break;
      }
      if (c === '"' || c === "'") {
        if (line.startsWith(c + c + c, i)) {
          const end = line.indexOf(c + c + c, i + 3);
          code += line.slice(from, i) + '""';
          if (end < 0) {
            triple = c + c + c;
            from = line.length;
            break;
          }
          from = i = end + 3;
          continue;
        }
        const close = closeOf(line, i + 1, c);
        code += line.slice(from, i + 1) + c; // the string's text blanked
        from = i = close < 0 ? line.length : close;
        continue;
      }
      i++;
    }
    out[n] = code + line.slice(from);
  }
  return out;
}

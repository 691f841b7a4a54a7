/**
 * The query language's character-level pieces, shared by the lexer (reading) and printQuery
 * (writing) so that the two agree on every edge: where a bare word ends, what a quoted string
 * holds, where a `/regex/` closes. parse.ts's doc comment states the rules.
 */
import { QuarryError } from '../errors';

export function isSpace(ch: string): boolean {
  return /\s/.test(ch);
}

export function queryError(message: string, column: number, suggestion?: string): QuarryError {
  return new QuarryError(
    'InvalidQuery',
    message,
    suggestion === undefined ? { column, field: 'query' } : { column, suggestion, field: 'query' },
  );
}

/**
 * A bare word from `i`: up to whitespace, or a `)` that closes nothing opened inside the word.
 * `depth` is how many of the word's `(` are still open at its end.
 */
export function scanBare(text: string, i: number): { end: number; depth: number } {
  let depth = 0;
  let j = i;
  for (; j < text.length; j++) {
    const ch = text[j];
    if (isSpace(ch)) break;
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return { end: j, depth };
}

/**
 * A quoted string whose `"` is at `q`: `\"` is a quote and `\\` a backslash; any other backslash
 * is itself. `end` is past the closing quote; null when no quote closes it.
 */
export function scanQuoted(text: string, q: number): { end: number; value: string } | null {
  let value = '';
  for (let j = q + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '"') return { end: j + 1, value };
    if (ch === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) {
      value += text[j + 1];
      j++;
    } else value += ch;
  }
  return null;
}

/** Writes a quoted string that scanQuoted reads back as `value`, escaping only where it must. */
export function quoteText(value: string): string {
  let out = '"';
  for (let j = 0; j < value.length; j++) {
    const ch = value[j];
    if (ch === '"') out += '\\"';
    else if (ch === '\\') {
      const next = value[j + 1];
      out += next === undefined || next === '"' || next === '\\' ? '\\\\' : '\\';
    } else out += ch;
  }
  return `${out}"`;
}

/**
 * A `/regex/` whose opening `/` is at `s`: it runs to the next unescaped `/` followed by
 * whitespace, `)` or the end (so it may hold spaces). A backslash and the character after it
 * are read as a pair; `\/` becomes `/` in the pattern, other pairs are kept. Null when no `/`
 * closes it or the pattern is empty (`//` is text).
 */
export function scanRegex(text: string, s: number): { end: number; pattern: string } | null {
  let pattern = '';
  for (let j = s + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\' && j + 1 < text.length) {
      pattern += text[j + 1] === '/' ? '/' : ch + text[j + 1];
      j++;
    } else if (ch === '/' && (j + 1 === text.length || isSpace(text[j + 1]) || text[j + 1] === ')')) {
      return pattern === '' ? null : { end: j + 1, pattern };
    } else pattern += ch;
  }
  return null;
}

/** A pattern with every `\/` written `/` (the same regex): how the parser holds patterns. */
export function normalizeRegex(pattern: string): string {
  let out = '';
  for (let j = 0; j < pattern.length; j++) {
    if (pattern[j] === '\\' && j + 1 < pattern.length) {
      out += pattern[j + 1] === '/' ? '/' : pattern[j] + pattern[j + 1];
      j++;
    } else out += pattern[j];
  }
  return out;
}

/** Writes `/pattern/` so that scanRegex reads back `pattern` (a normalised, valid pattern). */
export function slashRegex(pattern: string): string {
  let out = '/';
  for (let j = 0; j < pattern.length; j++) {
    if (pattern[j] === '\\' && j + 1 < pattern.length) {
      out += pattern[j] + pattern[j + 1];
      j++;
    } else out += pattern[j] === '/' ? '\\/' : pattern[j];
  }
  return `${out}/`;
}

/** The engine's message when `pattern` compiles neither with the `u` flag nor without; null when it does. */
export function regexError(pattern: string): string | null {
  try {
    new RegExp(pattern, 'u');
    return null;
  } catch {
    try {
      new RegExp(pattern);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }
}

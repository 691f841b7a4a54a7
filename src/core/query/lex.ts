/**
 * The query's lexer: text to lexemes, never throwing. A piece that cannot be read (an
 * unterminated quote, a filter without a value or with a bad one, a near-miss filter name, an
 * invalid `/regex/`) is an `error` lexeme carrying the message parseQuery throws and the span
 * tokenizeQuery colours. parse.ts's doc comment states the rules.
 */
import { checkFilterValue, filterFieldOf, filterSpec, suggestFilter } from './filters';
import { isSpace, regexError, scanBare, scanQuoted, scanRegex } from './scan';
import type { FilterField } from './types';

interface Span {
  start: number;
  end: number;
}

export type Operator = 'AND' | 'OR' | 'NOT';

export type Lexeme =
  | (Span & { t: 'word' })
  | (Span & { t: 'quoted'; value: string; negated: boolean })
  | (Span & { t: 'regex'; pattern: string; negated: boolean })
  | (Span & {
      t: 'filter';
      field: FilterField;
      /** The key as typed (`Path`), without `-` and colon. */
      key: string;
      keyStart: number;
      valueStart: number;
      value: string;
      negated: boolean;
    })
  | (Span & { t: 'op'; op: Operator })
  | (Span & { t: 'open' | 'close' })
  | (Span & {
      t: 'error';
      /** 1-based. */
      column: number;
      message: string;
      suggestion?: string;
      /** When the key was fine and the value is the bad piece: where the value starts. */
      valueStart?: number;
    });

export type ErrorLexeme = Extract<Lexeme, { t: 'error' }>;

function errorAt(span: Span, column: number, message: string, suggestion?: string): ErrorLexeme {
  return suggestion === undefined
    ? { t: 'error', ...span, column, message }
    : { t: 'error', ...span, column, message, suggestion };
}

function unterminated(text: string, start: number, quote: number): ErrorLexeme {
  return errorAt(
    { start, end: text.length },
    quote + 1,
    'missing the closing `"` of this quote',
    'end the text with `"`; write `\\"` for a quote inside it',
  );
}

function lexQuoted(text: string, start: number, negated: boolean): Lexeme {
  const q = start + (negated ? 1 : 0);
  const scanned = scanQuoted(text, q);
  if (!scanned) return unterminated(text, start, q);
  const span = { start, end: scanned.end };
  if (scanned.value === '')
    return errorAt(span, q + 1, 'empty quotes', 'write the text to search for between the quotes');
  return { t: 'quoted', ...span, value: scanned.value, negated };
}

function lexRegex(text: string, start: number, negated: boolean): Lexeme | null {
  const s = start + (negated ? 1 : 0);
  const scanned = scanRegex(text, s);
  if (!scanned) return null;
  const span = { start, end: scanned.end };
  const problem = regexError(scanned.pattern);
  if (problem !== null) return errorAt(span, s + 1, `invalid regex: ${problem}`);
  return { t: 'regex', ...span, pattern: scanned.pattern, negated };
}

/** The value after `key:` at `p`: quoted, or a bare word (balanced parentheses); null when the quote never closes. */
function readValue(text: string, p: number): { end: number; value: string } | null {
  if (text[p] === '"') return scanQuoted(text, p);
  const end = scanBare(text, p).end;
  return { end, value: text.slice(p, end) };
}

const KEY = /(-?)([A-Za-z]+):/y;

/** A `key:value` at `start`, or null when the word is not a filter (an ordinary term). */
function lexFilter(text: string, start: number): Lexeme | null {
  KEY.lastIndex = start;
  const m = KEY.exec(text);
  if (!m) return null;
  const negated = m[1] === '-';
  const key = m[2];
  const keyStart = start + m[1].length;
  const p = start + m[0].length;
  const field = filterFieldOf(key);
  if (!field) {
    const near = key.length >= 3 ? suggestFilter(key) : undefined;
    if (near === undefined) return null;
    const end = readValue(text, p)?.end ?? text.length;
    return errorAt(
      { start, end },
      keyStart + 1,
      `unknown filter \`${key}:\` at column ${keyStart + 1} — did you mean \`${near}:\`?`,
      `to search for the text, quote it: "${text.slice(start, end).replace(/["\\]/g, '\\$&')}"`,
    );
  }
  const read = readValue(text, p);
  if (!read) return unterminated(text, start, p);
  if (read.value === '') {
    return errorAt(
      { start, end: read.end },
      keyStart + 1,
      `filter \`${key}:\` needs a value`,
      `e.g. \`${filterSpec(field).example}\``,
    );
  }
  const check = checkFilterValue(field, key, read.value);
  if (!check.ok)
    return { ...errorAt({ start, end: read.end }, p + 1, check.message, check.suggestion), valueStart: p };
  return {
    t: 'filter',
    start,
    end: read.end,
    field,
    key,
    keyStart,
    valueStart: p,
    value: check.value,
    negated,
  };
}

function lexOne(text: string, i: number): Lexeme {
  const c = text[i];
  if (c === ')') return { t: 'close', start: i, end: i + 1 };
  if (c === '(') {
    const scanned = scanBare(text, i);
    return scanned.depth === 0
      ? { t: 'word', start: i, end: scanned.end }
      : { t: 'open', start: i, end: i + 1 };
  }
  const negated = c === '-';
  const d = negated ? text[i + 1] : c;
  if (d === '"') return lexQuoted(text, i, negated);
  if (d === '/') {
    const regex = lexRegex(text, i, negated);
    if (regex) return regex;
  }
  const filter = lexFilter(text, i);
  if (filter) return filter;
  const end = scanBare(text, i).end;
  const word = text.slice(i, end);
  if (word === 'AND' || word === 'OR' || word === 'NOT') return { t: 'op', op: word, start: i, end };
  return { t: 'word', start: i, end };
}

/** The query's lexemes in order; whitespace between them is dropped. Never throws. */
export function lexQuery(text: string): Lexeme[] {
  const out: Lexeme[] = [];
  let i = 0;
  while (i < text.length) {
    if (isSpace(text[i])) {
      i++;
      continue;
    }
    const lexeme = lexOne(text, i);
    out.push(lexeme);
    i = lexeme.end;
  }
  return out;
}

/**
 * TOML for manifests (Cargo.toml, pyproject.toml), read by smol-toml, plus what smol-toml does
 * not do: go on past an error. A document smol-toml rejects has the statement it stopped in
 * blanked (a key/value with the lines of its value; a `[header]` with its keys, which belong to
 * no table now) and is read again, so a caller gets whatever could be read and one
 * `line N: what could not be read` per statement dropped, in the order met. It never throws.
 * Integers too big for a number are bigints; dates are smol-toml's TomlDate.
 */
import { parse, TomlDate, TomlError, type TomlTable, type TomlValue } from 'smol-toml';

export type { TomlTable, TomlValue } from 'smol-toml';

export interface TomlResult {
  value: TomlTable;
  /** `line N: what could not be read`, in the order met. */
  errors: string[];
}

/** Statements dropped before giving up on the document (its value is then empty). */
const MAX_ERRORS = 50;
const KEY_PART = `(?:[A-Za-z0-9_-]+|"[^"\\n]*"|'[^'\\n]*')`;
/** A `[table]` / `[[table]]` header line, or a broken one (`[name` unclosed); not an array's `[1, 2],` or `[` line. */
const HEADER = /^\s*\[(?!\s*\[?\s*$)(?:[^\],"'#]|"[^"\n]*"|'[^'\n]*')*(?:\]\]?)?\s*(?:#.*)?$/;
/** A line that begins a statement: a header or `key =`. */
const STATEMENT_START = new RegExp(`${HEADER.source}|^\\s*${KEY_PART}(?:\\s*\\.\\s*${KEY_PART})*\\s*=`);

type Attempt = { value: TomlTable } | { line: number; message: string };

function attempt(text: string): Attempt {
  try {
    // maxDepth: nesting deeper than this is an error, not a stack overflow
    return { value: parse(text, { integersAsBigInt: 'asNeeded', maxDepth: 100 }) };
  } catch (e) {
    if (e instanceof TomlError)
      return { line: e.line, message: e.message.replace(/^Invalid TOML document: /, '').split('\n')[0] };
    return { line: 1, message: e instanceof Error ? e.message : String(e) }; // not expected: smol-toml throws TomlErrors
  }
}

/** Whether `v` is a table: not a scalar, an array or a date. */
export function isTomlTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === 'object' && !Array.isArray(v) && !(v instanceof TomlDate);
}

export function parseToml(text: string): TomlResult {
  const lines = text.split('\n');
  const errors: string[] = [];
  for (;;) {
    const got = attempt(lines.join('\n'));
    if ('value' in got) return { value: got.value, errors };
    errors.push(`line ${got.line}: ${got.message}`);
    const [from, to] = culprit(lines, got.line - 1);
    if (errors.length >= MAX_ERRORS || !lines.slice(from, to).some((l) => l.trim() !== ''))
      return { value: {}, errors };
    lines.fill('', from, to);
  }
}

/**
 * The lines [from, to) of the statement to drop for an error at line index `at`: the statement
 * holding that line, unless the lines before it do not read either (a value left open ran into
 * it), then the statement holding the line where those fail.
 */
function culprit(lines: string[], at: number): [number, number] {
  let line = Math.min(at, lines.length - 1);
  const start = statementStart(lines, line);
  if (start === line && line > 0) {
    const before = attempt(lines.slice(0, line).join('\n'));
    if (!('value' in before)) line = statementStart(lines, Math.min(before.line - 1, line - 1));
  }
  const from = statementStart(lines, line);
  const ends = HEADER.test(lines[from]) ? HEADER : STATEMENT_START;
  let to = from + 1;
  while (to < lines.length && !ends.test(lines[to])) to++;
  return [from, to];
}

function statementStart(lines: string[], line: number): number {
  let i = line;
  while (i > 0 && !STATEMENT_START.test(lines[i])) i--;
  return i;
}

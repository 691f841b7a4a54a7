/**
 * Test oracle: re2js (RE2 semantics, linear time) run directly on each line with the user's
 * original pattern, iterated the way RE2/Go/Rust iterate matches. Used only by the tests.
 */
import { RE2JS } from 're2js';

export interface OracleOptions {
  insensitive?: boolean;
  wholeWord?: boolean;
}

/** The lines of a text with their start offsets (a final '\n' ends the last line). */
export function linesOf(text: string): Array<{ line: string; start: number }> {
  if (text === '') return [];
  const parts = text.split('\n');
  if (text.endsWith('\n')) parts.pop();
  const out: Array<{ line: string; start: number }> = [];
  let pos = 0;
  for (const line of parts) {
    out.push({ line, start: pos });
    pos += line.length + 1;
  }
  return out;
}

function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function width(s: string, i: number): number {
  const c = s.codePointAt(i);
  return c !== undefined && c > 0xffff ? 2 : 1;
}

/** Hits of `pattern` in one line, RE2 semantics. Throws when re2js rejects the pattern. */
export function oracleLine(pattern: string, line: string, opts: OracleOptions = {}): Array<[number, number]> {
  const flags = opts.insensitive ? RE2JS.CASE_INSENSITIVE : 0;
  const out: Array<[number, number]> = [];
  const n = line.length;
  if (!opts.wholeWord) {
    const m = RE2JS.compile(pattern, flags).matcher(line);
    let pos = 0;
    let prevEnd = -1;
    while (pos <= n && m.find(pos)) {
      const s = m.start();
      const e = m.end();
      if (s === e) {
        if (s !== prevEnd) out.push([s, e]);
        pos = e + (e < n ? width(line, e) : 1);
      } else {
        out.push([s, e]);
        pos = e;
      }
      prevEnd = e;
    }
    return out;
  }
  // Whole word, brute force: try each start in order; a start is valid when the char before it is
  // not a word char, and then the leftmost-first match of `(P)(?:$|\W)` starting exactly there
  // (if any) gives the hit.
  const m = RE2JS.compile(`(${pattern})(?:$|[^0-9A-Za-z_])`, flags).matcher(line);
  let pos = 0;
  let prevEnd = -1;
  let s = 0;
  while (s <= n) {
    if (s < pos || (s > 0 && isWord(line.charCodeAt(s - 1)))) {
      s += s < n ? width(line, s) : 1;
      continue;
    }
    if (!m.find(s) || m.start() !== s) {
      s += s < n ? width(line, s) : 1;
      continue;
    }
    const e = m.end(1);
    if (e === s) {
      if (s !== prevEnd) out.push([s, e]);
      pos = e + 1;
    } else {
      out.push([s, e]);
      pos = e;
    }
    prevEnd = e;
    s = pos;
  }
  return out;
}

/** Hits of `pattern` in a multi-line text (offsets into the text). */
export function oracleHits(pattern: string, text: string, opts: OracleOptions = {}): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const { line, start } of linesOf(text)) {
    for (const [s, e] of oracleLine(pattern, line, opts)) out.push([start + s, start + e]);
  }
  return out;
}

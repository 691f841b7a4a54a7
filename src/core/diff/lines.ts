/**
 * Text as lines for diffing. A line keeps a trailing '\r' (a CRLF line differs from an LF line,
 * as in git); the last line may lack its newline, and then it differs from the same text with
 * one ("\ No newline at end of file"). Lines become small integer ids through one interner, so
 * the diff compares numbers, and blame can reuse ids across a file's versions.
 */

export interface SplitText {
  /** The lines, without '\n' (a CRLF line keeps its '\r'). */
  lines: string[];
  /** The last line has no newline after it. */
  noEol: boolean;
}

export function splitLines(text: string): SplitText {
  if (text === '') return { lines: [], noEol: false };
  const lines = text.split('\n');
  const noEol = lines[lines.length - 1] !== '';
  if (!noEol) lines.pop();
  return { lines, noEol };
}

/** A line as shown: without its '\r'. */
export function displayLine(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Whether any line ends with CRLF, and whether every line does. */
export function lineEndings(split: SplitText): 'none' | 'lf' | 'crlf' | 'mixed' {
  const n = split.noEol ? split.lines.length - 1 : split.lines.length;
  if (n <= 0) return 'none';
  let crlf = 0;
  for (let i = 0; i < n; i++) if (split.lines[i].endsWith('\r')) crlf++;
  return crlf === 0 ? 'lf' : crlf === n ? 'crlf' : 'mixed';
}

/** Equal lines get equal ids (0, 1, 2...); the last line without a newline is its own line. */
export class LineInterner {
  private readonly ids = new Map<string, number>();

  idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }

  /** The ids of a text's lines. */
  ids32(split: SplitText, count = split.lines.length): Int32Array {
    const out = new Int32Array(count);
    const last = split.lines.length - 1;
    for (let i = 0; i < count; i++) {
      // '\n' never occurs inside a line, so it marks "no newline after" unambiguously
      out[i] = this.idOf(i === last && split.noEol ? `${split.lines[i]}\n` : split.lines[i]);
    }
    return out;
  }

  get size(): number {
    return this.ids.size;
  }
}

/**
 * The viewer's caret, as in VS Code's editor without editing: a line (1-based) and a column
 * (0-based UTF-16 offset into the line's text, never inside a surrogate pair), moved by the
 * arrows (Ctrl+←/→ by words), Home (to the first non-blank, again to the line's start), End,
 * PageUp/PageDown and Ctrl+Home/End. Up and down keep the column the caret wants (`goal`), so
 * a short line in between does not pull it left for good.
 */

export interface Caret {
  line: number;
  col: number;
}

/** A key as the caret reads it (a KeyboardEvent fits). */
export interface CaretKey {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

export interface CaretMove {
  caret: Caret;
  /** The column up and down aim for (kept across vertical moves). */
  goal: number;
}

const WORD = /[\p{L}\p{N}_$]/u;
const isLow = (ch: string | undefined) => !!ch && ch.charCodeAt(0) >= 0xdc00 && ch.charCodeAt(0) <= 0xdfff;

/** `col` inside `text`, moved off the second half of a surrogate pair. */
export function clampColumn(text: string, col: number): number {
  const c = Math.max(0, Math.min(col, text.length));
  return c > 0 && c < text.length && isLow(text[c]) ? c - 1 : c;
}

/** The caret kept inside the text: a line that exists, a column on it. */
export function clampCaret(lines: readonly string[], caret: Caret): Caret {
  const line = Math.max(1, Math.min(caret.line, Math.max(1, lines.length)));
  return { line, col: clampColumn(lines[line - 1] ?? '', caret.col) };
}

function firstNonBlank(text: string): number {
  const m = /\S/.exec(text);
  return m ? m.index : text.length;
}

/** The next word's end to the right of `col` (Ctrl+→), or the line's end. */
function wordRight(text: string, col: number): number {
  let c = col;
  while (c < text.length && !WORD.test(text[c])) c++;
  while (c < text.length && WORD.test(text[c])) c++;
  return c;
}

/** The start of the word to the left of `col` (Ctrl+←), or the line's start. */
function wordLeft(text: string, col: number): number {
  let c = col;
  while (c > 0 && !WORD.test(text[c - 1])) c--;
  while (c > 0 && WORD.test(text[c - 1])) c--;
  return c;
}

/** Where `key` moves the caret to, or null when it is not a caret key (or needs a selection). */
export function moveCaret(
  lines: readonly string[],
  from: Caret,
  goal: number | null,
  key: CaretKey,
  pageRows: number,
): CaretMove | null {
  if (key.altKey || key.metaKey || key.shiftKey || !lines.length) return null;
  const c = clampCaret(lines, from);
  const text = (n: number) => lines[n - 1] ?? '';
  const last = lines.length;
  const cur = text(c.line);
  const at = (line: number, col: number): CaretMove => ({ caret: { line, col }, goal: col });
  const vertical = (line: number): CaretMove => {
    const want = goal ?? c.col;
    if (line < 1) return { caret: { line: 1, col: 0 }, goal: 0 };
    if (line > last) return at(last, text(last).length);
    return { caret: { line, col: clampColumn(text(line), want) }, goal: want };
  };
  const page = Math.max(1, pageRows - 1);
  switch (key.key) {
    case 'ArrowLeft':
      if (c.col === 0) return c.line > 1 ? at(c.line - 1, text(c.line - 1).length) : at(1, 0);
      if (key.ctrlKey) return at(c.line, wordLeft(cur, c.col));
      return at(c.line, c.col - (isLow(cur[c.col - 1]) ? 2 : 1));
    case 'ArrowRight':
      if (c.col >= cur.length) return c.line < last ? at(c.line + 1, 0) : at(c.line, cur.length);
      if (key.ctrlKey) return at(c.line, wordRight(cur, c.col));
      return at(c.line, c.col + (isLow(cur[c.col + 1]) ? 2 : 1));
    case 'ArrowUp':
      return key.ctrlKey ? null : vertical(c.line - 1);
    case 'ArrowDown':
      return key.ctrlKey ? null : vertical(c.line + 1);
    case 'PageUp':
      return vertical(Math.max(1, c.line - page));
    case 'PageDown':
      return vertical(Math.min(last, c.line + page));
    case 'Home': {
      if (key.ctrlKey) return at(1, 0);
      const first = firstNonBlank(cur);
      return at(c.line, c.col === first ? 0 : first);
    }
    case 'End':
      return key.ctrlKey ? at(last, text(last).length) : at(c.line, cur.length);
    default:
      return null;
  }
}

/** "12", "12:5" or "12,5" (line and 1-based column) from a Go to line prompt; null when it is neither. */
export function parseLineColumn(input: string): { line: number; col: number } | null {
  const m = /^\s*(\d{1,9})\s*(?:[:,]\s*(\d{1,9})\s*)?$/.exec(input);
  if (!m) return null;
  const line = Number(m[1]);
  return line > 0 ? { line, col: m[2] ? Math.max(1, Number(m[2])) : 0 } : null;
}

/**
 * The fallback chunker: blocks of lines for any text file without a parser (Perl, Tcl, SQL,
 * Makefiles, shell, plain text, ...). Every chunk is a 'block'. Pure: text in, chunks out.
 *
 * RULES.
 * 1. Raw blocks. A blank line (whitespace only) ends a block. Within a run of non-blank lines a
 *    line starts a new block when its indentation is below that of the block's first line, or
 *    equal to it after deeper lines (the next `sub`, `proc` or statement at the same level).
 *    When that line closes something (it starts with `}` `)` `]` `</`, or is `end...`, `fi`,
 *    `done`, `esac`) it belongs to the block it closes and ends it instead, unless it also opens
 *    again (`} else {`, `end else begin`: it ends with `{` `(` `[`), then the block goes on.
 *    A line at the block's indentation that opens a definition (rule 4) starts a new block too,
 *    with the comment lines directly above it (`use strict;` then `# doc` then `sub first {`).
 *    A tab counts to the next multiple of 4 columns.
 * 2. Caps. A raw block over MAX_LINES lines or MAX_CHARS characters is cut into pieces of
 *    balanced size within both caps. A cut starts the next piece at the least indented line (a
 *    blank one before all) after the first half of a balanced piece, the one nearest the balanced
 *    size on a tie, so pieces begin at statements, not in the middle of an expression. A single line over
 *    MAX_CHARS cannot be cut (a chunk is whole lines): it is a piece of its own.
 * 3. Merging. Consecutive raw blocks within the caps are merged while the merged span (the blank
 *    lines between them included) stays within TARGET_LINES lines and TARGET_CHARS characters,
 *    except that a block that opens with a definition starts a new chunk when the current one
 *    already holds a definition and has MIN_LINES lines or more, so definitions of a useful size
 *    keep their own chunk and name. Pieces of a cut block are never merged with anything.
 * 4. Names. A block's definition name is the word after a definition keyword (`sub`, `proc`,
 *    `function`, `def`, `class`, `package`, `CREATE TABLE`, ... after modifiers such as
 *    `public`/`static`) on its first line that is not a comment. Otherwise its name is the first
 *    identifier-like word of its first lines (comment markers and punctuation skipped; `::`,
 *    `.` and `-` join parts, so `Foo::Bar` and `build-all` stay whole). A merged chunk is named
 *    by its first definition, else by its first block; a piece of a cut block by the block's
 *    definition, else by its own first word. '' when there is no word at all.
 *
 * Every non-blank line belongs to exactly one chunk; chunks start and end on non-blank lines
 * and never overlap; blank lines between chunks belong to none. Output is in line order.
 *
 * SIZES. TARGET 40 lines / 4,000 characters is about one screen, the size of an ordinary
 * function chunk from the tree-sitter chunkers, so block chunks rank on equal terms with the
 * symbol chunks they compete with (BM25 normalises by length) and the first 360 characters
 * shown as a snippet say what the chunk is about. MAX 100 lines / 8,000 characters is a long
 * function (80 characters a line); longer chunks are mostly unrelated text to find_related and
 * flatten ranking. A 1 MB file gives at least 125 chunks, typically several hundred, not a
 * thousand 1-line ones. Characters are UTF-16 code units, each line counted with its newline.
 */
import type { Chunk, ChunkType } from './types';

/** Merged blocks stop growing at this many lines (the span, blank lines included). */
export const TARGET_LINES = 40;
/** ... or this many characters. */
export const TARGET_CHARS = 4_000;
/** No chunk is longer than this many lines ... */
export const MAX_LINES = 100;
/** ... or this many characters (except a single line longer than that). */
export const MAX_CHARS = 8_000;
/** A definition starts its own chunk once the current chunk has a definition and this many lines. */
export const MIN_LINES = 8;

const TAB_WIDTH = 4;
const NAME_SCAN_LINES = 5;
const MAX_NAME = 100;

/**
 * The lines of `text` as the chunkers see them: split on '\n' only, a final newline ends the
 * last line (no empty line after it), a '\r' before the newline and a leading BOM removed.
 */
export function linesOf(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  if (lines.length > 0 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
  return lines;
}

export function isBlank(line: string): boolean {
  return /^\s*$/.test(line);
}

/** Leading spaces and tabs, in columns. */
export function indentOf(line: string): number {
  let col = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x20) col++;
    else if (c === 0x09) col += TAB_WIDTH - (col % TAB_WIDTH);
    else break;
  }
  return col;
}

/** The fallback chunks of a whole file. */
export function chunkBlocks(path: string, text: string): Chunk[] {
  const lines = linesOf(text);
  return blocksInRange(path, lines, 0, lines.length - 1);
}

/** The fallback chunks of lines[from..to] (0-based, inclusive), as 1-based chunks. */
export function blocksInRange(path: string, lines: readonly string[], from: number, to: number): Chunk[] {
  const out: Chunk[] = [];
  let group: Group | null = null;
  const flush = () => {
    if (group)
      out.push({
        path,
        startLine: group.start + 1,
        endLine: group.end + 1,
        symbolName: group.def ?? group.word,
        chunkType: 'block',
      });
    group = null;
  };
  for (const [start, end] of rawBlocks(lines, from, to)) {
    const chars = charsOf(lines, start, end);
    const name = blockName(lines, start, end);
    if (end - start + 1 > MAX_LINES || chars > MAX_CHARS) {
      flush();
      for (const [s, e] of cutLines(lines, start, end)) {
        out.push({
          path,
          startLine: s + 1,
          endLine: e + 1,
          symbolName: name.def ?? blockName(lines, s, e).word,
          chunkType: 'block',
        });
      }
      continue;
    }
    const g: Group | null = group;
    if (g && canMerge(g, lines, start, end, chars, name.def !== null)) {
      g.chars += charsOf(lines, g.end + 1, start - 1) + chars;
      g.end = end;
      g.def ??= name.def;
      continue;
    }
    flush();
    group = { start, end, chars, def: name.def, word: name.word };
  }
  flush();
  return out;
}

interface Group {
  start: number;
  end: number;
  chars: number;
  def: string | null;
  word: string;
}

function canMerge(
  g: Group,
  lines: readonly string[],
  start: number,
  end: number,
  chars: number,
  isDefinition: boolean,
): boolean {
  if (end - g.start + 1 > TARGET_LINES) return false;
  if (g.chars + charsOf(lines, g.end + 1, start - 1) + chars > TARGET_CHARS) return false;
  return !(isDefinition && g.def !== null && g.end - g.start + 1 >= MIN_LINES);
}

/** Rule 1: [start, end] pairs of non-blank runs split by indentation, in order. */
function rawBlocks(lines: readonly string[], from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = Math.max(0, from);
  const last = Math.min(to, lines.length - 1);
  while (i <= last) {
    if (isBlank(lines[i])) {
      i++;
      continue;
    }
    const start = i;
    const base = indentOf(lines[i]);
    let deepest = base;
    let end = i;
    for (let j = i + 1; j <= last; j++) {
      const line = lines[j];
      if (isBlank(line)) break;
      const indent = indentOf(line);
      if (indent < base || (indent === base && deepest > base)) {
        if (!closes(line)) break;
        end = j;
        if (!opensAgain(line)) break;
        continue;
      }
      if (indent === base && definitionName(line.trim()) !== null) {
        // `use strict;` then `sub first {`: the definition starts a block, with its comments
        let k = j;
        while (k - 1 >= start && indentOf(lines[k - 1]) === base && COMMENT_LINE.test(lines[k - 1].trim()))
          k--;
        if (k > start) {
          end = k - 1;
          break;
        }
      }
      if (indent > deepest) deepest = indent;
      end = j;
    }
    out.push([start, end]);
    i = end + 1;
  }
  return out;
}

const CLOSER =
  /^(?:[}\])]|<\/|(?:end|end(?:if|for|foreach|while|switch|case|select|function|sub|procedure|module|def|macro|loop)|fi|done|esac)(?![\w-]))/i;

function closes(line: string): boolean {
  return CLOSER.test(line.trimStart());
}

function opensAgain(line: string): boolean {
  return /[{([]\s*$/.test(line);
}

/** Characters of lines[from..to], each with its newline (0 for an empty range). */
function charsOf(lines: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i <= to; i++) n += lines[i].length + 1;
  return n;
}

/**
 * Rule 2: lines[from..to] cut into pieces within MAX_LINES and MAX_CHARS (0-based, inclusive),
 * each starting and ending on a non-blank line (blank lines at a cut belong to no piece).
 * Lines within the caps give one piece (trimmed of blank lines at both ends); all blank, none.
 */
export function cutLines(lines: readonly string[], from: number, to: number): Array<[number, number]> {
  while (from <= to && isBlank(lines[from])) from++;
  while (to >= from && isBlank(lines[to])) to--;
  if (from > to) return [];
  const total = to - from + 1;
  const want = Math.ceil(total / Math.ceil(total / MAX_LINES));
  const out: Array<[number, number]> = [];
  let s = from;
  while (s <= to) {
    // The longest piece the caps allow ...
    let e = s;
    let chars = lines[s].length + 1;
    while (e < to && e - s + 1 < MAX_LINES && chars + lines[e + 1].length + 1 <= MAX_CHARS)
      chars += lines[++e].length + 1;
    if (e < to) {
      // ... cut so the next piece starts at the least indented line (a blank one first) after
      // the first half of a balanced piece, the one nearest the balanced size on a tie.
      const aim = s + Math.min(want, e - s + 1);
      let best = e + 1;
      let bestIndent = shallowness(lines[best]);
      for (let k = e; k > s + Math.floor((aim - s) / 2); k--) {
        const ind = shallowness(lines[k]);
        if (ind < bestIndent || (ind === bestIndent && Math.abs(k - aim) < Math.abs(best - aim))) {
          best = k;
          bestIndent = ind;
        }
      }
      e = best - 1;
    }
    let pieceEnd = e;
    while (pieceEnd > s && isBlank(lines[pieceEnd])) pieceEnd--;
    out.push([s, pieceEnd]);
    s = e + 1;
    while (s <= to && isBlank(lines[s])) s++;
  }
  return out;
}

function shallowness(line: string): number {
  return isBlank(line) ? -1 : indentOf(line);
}

const COMMENT_LINE = /^(?:#|\/\/|\/\*|\*|--|;|%|<!--|'|rem\b|::)/i;
const MODIFIERS =
  '(?:(?:export|public|private|protected|internal|static|async|local|global|abstract|final|pub|extern|inline|virtual|override|declare)\\s+)*';
const KEYWORDS =
  '(?:sub|proc|function|func|fn|def|defun|defmacro|method|procedure|class|module|package|namespace|interface|struct|enum|trait|macro)';
const DEFINITION = new RegExp(`^\\(?${MODIFIERS}${KEYWORDS}\\s+([^\\s(){};,<=]+)`);
/** Visual Basic's capitalised keywords want the parenthesis, so prose ("Function names are ...") is no definition. */
const VB_DEFINITION =
  /^(?:(?:Public|Private|Friend|Protected|Shared|Static|Overrides|Overridable)\s+)*(?:Sub|Function)\s+([\p{L}_][\p{L}\p{N}_]*)\s*\(/u;
const SQL_DEFINITION =
  /^create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary|unique|materialized|global|local|virtual|external|recursive)\s+)*(?:table|view|function|procedure|index|trigger|type|schema|sequence|database|domain|extension)(?:\s+if\s+not\s+exists)?\s+([^\s(){};,<=]+)/i;
const WORD = /[\p{L}_][\p{L}\p{N}_]*(?:(?:::|[.-])[\p{L}\p{N}_]+)*/u;

/** Rule 4: the definition name and first word of lines[start..end]. */
export function blockName(
  lines: readonly string[],
  start: number,
  end: number,
): { def: string | null; word: string } {
  const last = Math.min(end, start + NAME_SCAN_LINES - 1);
  let def: string | null = null;
  for (let i = start; i <= last; i++) {
    const t = lines[i].trim();
    if (t === '' || COMMENT_LINE.test(t)) continue;
    def = definitionName(t);
    break;
  }
  let word = '';
  for (let i = start; i <= last && word === ''; i++)
    if (!lines[i].startsWith('#!')) word = WORD.exec(lines[i])?.[0] ?? ''; // not a shebang's `usr`
  if (word === '') word = WORD.exec(lines[start])?.[0] ?? '';
  return { def, word: word.slice(0, MAX_NAME) };
}

/** The name a (trimmed) line defines, or null. */
function definitionName(trimmed: string): string | null {
  const m = DEFINITION.exec(trimmed) ?? SQL_DEFINITION.exec(trimmed) ?? VB_DEFINITION.exec(trimmed);
  return m ? cleanName(m[1]) : null;
}

/** `"users"` -> users, `[dbo].[t]` -> dbo.t, `::ns::p` -> ns::p, `Foo:` -> Foo; null without a letter. */
function cleanName(raw: string): string | null {
  const name = raw
    .replace(/["'`[\]]/g, '')
    .replace(/^:+/, '')
    .replace(/[:.]+$/, '');
  return /[\p{L}_]/u.test(name) ? name.slice(0, MAX_NAME) : null;
}

/** Chunks of `type` named `name` for lines[from..to] (0-based), cut within the caps. */
export function cutChunks(
  path: string,
  lines: readonly string[],
  from: number,
  to: number,
  name: string,
  chunkType: ChunkType,
): Chunk[] {
  return cutLines(lines, from, to).map(([s, e]) => ({
    path,
    startLine: s + 1,
    endLine: e + 1,
    symbolName: name,
    chunkType,
  }));
}

/** offset -> 0-based line of `text` (lines split on '\n'), by binary search over the line starts. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => lineAtOffset(starts, offset);
}

/** The 0-based line holding `offset`, given each line's start offset (ascending, starting at 0). */
export function lineAtOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

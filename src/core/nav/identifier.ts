/**
 * Identifiers in a line of code, as navigation reads them: the word under a column, and the
 * short name a symbol is looked up by.
 */

/** Letters, digits, `_` and `$` (JavaScript), in any script. */
const WORD = /[\p{L}\p{N}_$]/u;

/** The identifier covering `column` (UTF-16, 0-based) of `line`, with its range; null off a word or on a number. */
export function identifierAt(
  line: string,
  column: number,
): { name: string; start: number; end: number } | null {
  if (column < 0 || column > line.length) return null;
  let start = column;
  let end = column;
  while (start > 0 && WORD.test(line[start - 1])) start--;
  while (end < line.length && WORD.test(line[end])) end++;
  if (end === start) return null;
  const name = line.slice(start, end);
  if (/^\p{N}/u.test(name)) return null; // 42, 0x1f: not a name
  return { name, start, end };
}

/** Whether `name` can be looked up: one identifier, not a number. */
export function isIdentifier(name: string): boolean {
  return name.length > 0 && name.length <= 200 && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name);
}

/**
 * The name a symbol is called by: the last segment of a chunk's symbol name (`Owner.method`
 * and `A::f` give `method` and `f`; a Go receiver `(*T).M` gives `M`).
 */
export function shortName(symbolName: string): string {
  const m = /([\p{L}_$][\p{L}\p{N}_$]*)\W*$/u.exec(symbolName);
  return m ? m[1] : symbolName;
}

/** UTF-16 ranges of `name` as a whole word in `line`. */
export function wholeWordRanges(line: string, name: string): [number, number][] {
  const out: [number, number][] = [];
  if (!name) return out;
  for (let i = line.indexOf(name); i !== -1; i = line.indexOf(name, i + 1)) {
    const end = i + name.length;
    if ((i === 0 || !WORD.test(line[i - 1])) && (end === line.length || !WORD.test(line[end])))
      out.push([i, end]);
  }
  return out;
}

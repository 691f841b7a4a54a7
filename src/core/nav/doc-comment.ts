/**
 * What a hover card says about a definition, read from its file's lines: its signature (the
 * name's line up to where the body starts, continued while brackets are open) and its doc
 * comment (the comment block directly above it, past decorators and attributes, or a Python
 * docstring under it). Plain text with the comment markers taken off; never markup.
 */

/** Lines of a signature at most, and characters. */
const SIGNATURE_LINES = 8;
const SIGNATURE_CHARS = 400;
/** Lines of a doc comment at most, and characters. */
const DOC_LINES = 40;
const DOC_CHARS = 2000;

/** A decorator or attribute between a doc comment and its name (`@Injectable()`, `#[derive(..)]`, `[Obsolete]`). */
const DECORATOR = /^\s*(@[\p{L}_$]|#\[|\[[\p{L}_])/u;
/** A line comment: `//`, `///`, `//!`, `#` (not `#include`, `#[`, `#!`), `--`. */
const LINE_COMMENT =
  /^\s*(\/\/[/!]?|#(?![[!]|\s*(include|define|if|ifdef|ifndef|endif|else|pragma)\b)|--(?!-))/;
/** A line that continues a signature onto the next: an open bracket's or an operator's end. */
const CONTINUES = /([,(=|&<]|=>)\s*$/;

export interface SymbolDoc {
  /** The definition's signature ('' when the line cannot be read). */
  signature: string;
  /** Its doc comment without comment markers ('' when there is none). */
  doc: string;
}

/** The signature starting on `line` (1-based): up to the body's `{` or a `;` outside brackets. */
export function signatureAt(lines: readonly string[], line: number): { text: string; lastLine: number } {
  const out: string[] = [];
  let depth = 0;
  let last = line;
  for (let l = line; l <= lines.length && l < line + SIGNATURE_LINES; l++) {
    const text = lines[l - 1];
    last = l;
    let cut = -1;
    for (let i = 0; i < text.length && cut < 0; i++) {
      const ch = text[i];
      if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0 && (ch === '{' || ch === ';')) cut = i;
      else if (depth === 0 && ch === '/' && text[i + 1] === '/') cut = i; // a trailing comment
    }
    if (cut >= 0) {
      const head = text.slice(0, cut).trimEnd();
      if (head.trim() || !out.length) out.push(head);
      // `{` on the line after the signature (Allman style) or a line comment: the signature ended
      if (text[cut] !== '/' || depth === 0) break;
      continue;
    }
    out.push(text.trimEnd());
    if (depth === 0 && !CONTINUES.test(text)) break;
  }
  return { text: dedent(out).join('\n').slice(0, SIGNATURE_CHARS).trim(), lastLine: last };
}

/** Lines with their common indentation taken off. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(common));
}

/** The text of a block comment's lines without `/**`, `*\/` and the leading `*` of each line. */
function blockText(lines: readonly string[]): string[] {
  return lines.map((l, i) => {
    let t = l;
    if (i === 0) t = t.replace(/^\s*\/\*+!?/, '');
    if (i === lines.length - 1) t = t.replace(/\*+\/\s*$/, '');
    if (i > 0) t = t.replace(/^\s*\*(?!\/)\s?/, '');
    return t.trimEnd();
  });
}

/** The comment block ending on the line above `line` (past decorators), as lines without markers. */
function commentAbove(lines: readonly string[], line: number): string[] {
  let l = line - 1;
  while (l >= 1 && DECORATOR.test(lines[l - 1])) l--;
  if (l < 1) return [];
  const end = lines[l - 1];
  if (/\*\/\s*$/.test(end)) {
    let start = l;
    while (start >= 1 && !/^\s*\/\*/.test(lines[start - 1]) && l - start < DOC_LINES) start--;
    if (start < 1 || !/^\s*\/\*/.test(lines[start - 1])) return [];
    return blockText(lines.slice(start - 1, l));
  }
  const out: string[] = [];
  while (l >= 1 && LINE_COMMENT.test(lines[l - 1]) && out.length < DOC_LINES) {
    out.unshift(lines[l - 1].replace(LINE_COMMENT, '').replace(/^ /, '').trimEnd());
    l--;
  }
  return out;
}

/** A Python docstring opening on the first non-blank line after `line`. */
function docstringAfter(lines: readonly string[], line: number): string[] {
  let l = line + 1;
  while (l <= lines.length && !lines[l - 1].trim()) l++;
  const m = l <= lines.length ? /^\s*[rRuU]?("""|''')/.exec(lines[l - 1]) : null;
  if (!m) return [];
  const quote = m[1];
  const first = lines[l - 1].slice(m[0].length);
  const close = first.indexOf(quote);
  if (close >= 0) return [first.slice(0, close)];
  const out = [first];
  for (let k = l + 1; k <= lines.length && out.length < DOC_LINES; k++) {
    const at = lines[k - 1].indexOf(quote);
    if (at >= 0) {
      out.push(lines[k - 1].slice(0, at));
      break;
    }
    out.push(lines[k - 1]);
  }
  return out;
}

/** The doc text: blank lines at either end dropped, indentation in common taken off, capped. */
function tidy(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a].trim()) a++;
  while (b > a && !lines[b - 1].trim()) b--;
  const kept = lines.slice(a, b);
  // a docstring's first line may start right after its quotes: then it has no indentation to share
  const shared = /^\s/.test(kept[0] ?? '') ? kept : kept.slice(1);
  const indents = shared.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return kept
    .map((l, i) => (i === 0 ? l.trim() : l.slice(common)))
    .join('\n')
    .slice(0, DOC_CHARS)
    .trim();
}

/** The signature and doc comment of the definition whose name is on `nameLine` (1-based). */
export function symbolDoc(lines: readonly string[] | null, nameLine: number): SymbolDoc {
  if (!lines || nameLine < 1 || nameLine > lines.length) return { signature: '', doc: '' };
  const sig = signatureAt(lines, nameLine);
  let doc = commentAbove(lines, nameLine);
  if (!doc.some((l) => l.trim())) doc = docstringAfter(lines, sig.lastLine);
  return { signature: sig.text, doc: tidy(doc) };
}

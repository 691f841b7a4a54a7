/**
 * A deliberately naive reference searcher for the tests: it shares no code with the engine.
 * Each file is taken whole as text, split into lines by ripgrep's rules ('\n' separates; a
 * final '\n' does not start another line; a '\r' right before the '\n' is not part of the
 * line), and each line is tested on its own with a JavaScript RegExp.
 *
 * It speaks only the subset of patterns that a JS RegExp (flag 'u') reads exactly as the
 * engine's RE2 syntax does: literals, simple classes ([abc], [a-k], [^a], \w \d \s \W . and the
 * like), alternation and grouping, with no quantifier that lets a hit be empty; ASCII case
 * folding; whole word with ASCII word characters (as ripgrep -w and RE2's \b). Texts should
 * hold no U+212A or U+017F (RE2 and JS fold them differently from ASCII's point of view) and
 * no binary or non-UTF-8 bytes: callers give strings.
 *
 * What it returns follows GrepMatch, from that type's documentation: 1-based line numbers,
 * UTF-16 hit columns, each match with its own context lines, and with maxLineChars a line cut
 * to its first `cap` characters, or, when its first hit ends past them, a `cap`-character
 * window opening min(24, cap / 4) characters before that hit (not past the line's last `cap`
 * characters, not inside a surrogate pair) with `textStart` giving the window's column.
 */

export interface NaiveRequest {
  pattern: string;
  mode: 'literal' | 'regex';
  caseMode?: 'sensitive' | 'insensitive' | 'smart';
  wholeWord?: boolean;
  contextBefore?: number;
  contextAfter?: number;
  maxLineChars?: number;
}

export interface NaiveMatch {
  path: string;
  line: number;
  text: string;
  ranges: Array<[number, number]>;
  textStart?: number;
  contextBefore: string[];
  contextAfter: string[];
}

/** ripgrep's lines: '\n' separates, a final '\n' ends the last line, a '\r' before '\n' is dropped. */
export function naiveLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const terminated = lines[lines.length - 1] === '';
  if (terminated) lines.pop();
  // every line but an unterminated last one ended at a '\n': drop the '\r' before it
  return lines.map((l, i) => (l.endsWith('\r') && (terminated || i < lines.length - 1) ? l.slice(0, -1) : l));
}

const WORD = '[0-9A-Za-z_]';

/** The request as one JS RegExp ('gu'), whole-word bounds as lookarounds. */
export function naiveRegExp(req: NaiveRequest): RegExp {
  const body = req.mode === 'literal' ? req.pattern.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') : req.pattern;
  // smart case: insensitive unless the pattern has an uppercase letter of its own (not one
  // that names an escape such as \W or \S)
  const own = req.mode === 'literal' ? req.pattern : req.pattern.replace(/\\./g, '');
  const caseMode = req.caseMode ?? 'sensitive';
  const insensitive =
    caseMode === 'insensitive' || (caseMode === 'smart' && own.length > 0 && own === own.toLowerCase());
  const source = req.wholeWord ? `(?<!${WORD})(?:${body})(?!${WORD})` : body;
  return new RegExp(source, insensitive ? 'giu' : 'gu');
}

/** Hit columns of one line; the subset never matches empty, so plain global iteration is RE2's. */
export function naiveLineHits(re: RegExp, line: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of line.matchAll(re)) {
    if (m[0].length === 0) throw new Error(`naive searcher: pattern ${re} matched empty; keep to the subset`);
    out.push([m.index!, m.index! + m[0].length]);
  }
  return out;
}

function cut(
  line: string,
  ranges: Array<[number, number]>,
  cap: number | undefined,
): { text: string; ranges: Array<[number, number]>; textStart: number } {
  if (cap === undefined || line.length <= cap) return { text: line, ranges, textStart: 0 };
  let start = 0;
  if (cap > 0 && ranges[0][1] > cap) {
    start = Math.max(0, Math.min(ranges[0][0] - Math.min(24, Math.floor(cap / 4)), line.length - cap));
    const c = line.charCodeAt(start);
    if (start > 0 && c >= 0xdc00 && c <= 0xdfff) start--;
  }
  const end = start + cap;
  const kept = ranges
    .filter(([s, e]) => s < end && e > start)
    .map(([s, e]) => [Math.max(s, start) - start, Math.min(e, end) - start] as [number, number]);
  return { text: line.slice(start, end), ranges: kept, textStart: start };
}

/** Every match of `req` in `files` (path -> whole text), files in path order, lines in order. */
export function naiveSearch(files: Record<string, string>, req: NaiveRequest): NaiveMatch[] {
  const re = naiveRegExp(req);
  const before = req.contextBefore ?? 0;
  const after = req.contextAfter ?? 0;
  const cap = req.maxLineChars;
  const clip = (l: string) => (cap !== undefined && l.length > cap ? l.slice(0, cap) : l);
  const out: NaiveMatch[] = [];
  for (const path of Object.keys(files).sort()) {
    const lines = naiveLines(files[path]);
    lines.forEach((line, i) => {
      const hits = naiveLineHits(re, line);
      if (!hits.length) return;
      const shown = cut(line, hits, cap);
      out.push({
        path,
        line: i + 1,
        text: shown.text,
        ranges: shown.ranges,
        ...(shown.textStart > 0 ? { textStart: shown.textStart } : {}),
        contextBefore: lines.slice(Math.max(0, i - before), i).map(clip),
        contextAfter: lines.slice(i + 1, i + 1 + after).map(clip),
      });
    });
  }
  return out;
}

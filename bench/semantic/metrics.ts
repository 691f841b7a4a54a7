// Pure helpers for measuring semantic code search against a labelled question set
// (questions-*.json beside this file). No dependencies but core's hash, no I/O: callers read the files.

import { fnv1a } from '../../src/core/hash';

/**
 * One labelled question: `answers` are the repository-relative paths of the file (or the two
 * files) that answer `q`; in JSON, `"answer"` is one path or a list of one or two.
 */
export type Question = { q: string; answers: string[] };

/** Parses and checks a question file: a JSON array of `{ "q": string, "answer": string | string[] }`. */
export function loadQuestions(jsonText: string): Question[] {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch (err) {
    throw new Error(`questions: not valid JSON (${err instanceof Error ? err.message : String(err)})`, {
      cause: err,
    });
  }
  if (!Array.isArray(data)) throw new Error('questions: expected a JSON array of {"q", "answer"} objects');
  return data.map((entry: unknown, i): Question => {
    const where = `questions[${i}] ${describe(entry)}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new Error(`${where}: expected an object with "q" and "answer"`);
    const { q, answer } = entry as Record<string, unknown>;
    if (typeof q !== 'string' || q.trim() === '') throw new Error(`${where}: "q" must be a non-empty string`);
    const answers = Array.isArray(answer) ? answer : [answer];
    if (answers.length < 1 || answers.length > 2)
      throw new Error(`${where}: "answer" must be a path or a list of one or two paths`);
    for (const a of answers) {
      if (typeof a !== 'string' || a.trim() === '')
        throw new Error(`${where}: "answer" must be a non-empty string`);
      if (a !== a.trim() || a.startsWith('/') || a.includes('\\')) {
        throw new Error(
          `${where}: "answer" must be a relative path with forward slashes and no surrounding spaces`,
        );
      }
    }
    return { q, answers: answers as string[] };
  });
}

/**
 * Which part of its set a question is in, fixed by the question's own text (FNV-1a of it, one
 * in three held out), so adding questions never moves an old one between parts. The held-out
 * part is only scored: nothing is chosen by looking at it.
 */
export function partOf(q: string): 'tune' | 'held' {
  return fnv1a(q) % 3 === 0 ? 'held' : 'tune';
}

function describe(entry: unknown): string {
  const text = JSON.stringify(entry) ?? String(entry);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * 1-based rank of the first of `answers` among the distinct paths of `rankedPaths` (a path
 * repeated for several chunks counts once, at its first occurrence), or null when none is there.
 */
export function rankOfAnswer(
  rankedPaths: readonly string[],
  answers: string | readonly string[],
): number | null {
  const wanted = new Set(typeof answers === 'string' ? [answers] : answers);
  const seen = new Set<string>();
  for (const path of rankedPaths) {
    if (seen.has(path)) continue;
    seen.add(path);
    if (wanted.has(path)) return seen.size;
  }
  return null;
}

export type QualityRow = { recallAt1: number; recallAt5: number; mrrAt10: number; n: number };

/** recall@1, recall@5 and MRR@10 over one rank per question (null: the answer was not found). */
export function quality(ranks: readonly (number | null)[]): QualityRow {
  const n = ranks.length;
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  for (const rank of ranks) {
    if (rank === null) continue;
    if (!Number.isInteger(rank) || rank < 1)
      throw new RangeError(`quality: rank must be a positive integer or null, got ${rank}`);
    if (rank <= 1) hit1++;
    if (rank <= 5) hit5++;
    if (rank <= 10) rr += 1 / rank;
  }
  if (n === 0) return { recallAt1: 0, recallAt5: 0, mrrAt10: 0, n: 0 };
  return { recallAt1: hit1 / n, recallAt5: hit5 / n, mrrAt10: rr / n, n };
}

/** A plain-text table, one row per system, numbers to 3 decimals, columns aligned. */
export function formatQualityTable(rows: { name: string; row: QualityRow }[]): string {
  const header = ['system', 'recall@1', 'recall@5', 'MRR@10'];
  const body = rows.map(({ name, row }) => [
    name,
    row.recallAt1.toFixed(3),
    row.recallAt5.toFixed(3),
    row.mrrAt10.toFixed(3),
  ]);
  const widths = header.map((h, col) => Math.max(h.length, ...body.map((cells) => cells[col].length)));
  const line = (cells: string[]) =>
    cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Comment stripping

// A `/` after one of these words starts a regex literal (`return /x/.test(s)`), not a division.
const WORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

const isNewline = (c: string | undefined): boolean =>
  c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';
const isSpace = (c: string): boolean => /\s/.test(c);
const isIdentChar = (c: string | undefined): boolean =>
  c !== undefined && /[\p{ID_Continue}$\u200c\u200d]/u.test(c);

/**
 * Removes every comment (JSDoc `/** … *\/`, plain `/* … *\/` and `// …`) from JS/TS source. Each
 * removed character except line breaks becomes a space, so the result has the same length, lines
 * and columns as the input. String, template and regex literals are left alone; `/` is read as a
 * division after an identifier, a number, `)`, `]` or a literal, and as the start of a regex
 * anywhere else (after operators, `(`, `,`, `=`, `{`, `}`, `;`, `return`, …).
 */
export function stripDocComments(source: string): string {
  const out = source.split(''); // UTF-16 code units, like source indices
  const n = source.length;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (!isNewline(out[k])) out[k] = ' ';
  };
  const templateDepths: number[] = []; // one brace depth per open `${`
  let lastSig = -1; // index of the last significant code character
  let lastWasLiteral = false; // whether that character closed a string, template or regex

  const slashStartsRegex = (): boolean => {
    if (lastSig < 0) return true;
    if (lastWasLiteral) return false;
    const p = source[lastSig];
    if (p === ')' || p === ']') return false;
    if (!isIdentChar(p)) return true;
    let s = lastSig;
    while (s > 0 && isIdentChar(source[s - 1])) s--;
    if (!WORDS_BEFORE_REGEX.has(source.slice(s, lastSig + 1))) return false;
    let b = s - 1;
    while (b >= 0 && isSpace(out[b])) b--;
    return out[b] !== '.'; // `x.return / 2` is a property, not the keyword
  };

  // Scans template text from `j` (just past "`" or a closing `}` of `${}`); returns where the code resumes.
  const scanTemplate = (j: number): number => {
    while (j < n) {
      const c = source[j];
      if (c === '\\') j += 2;
      else if (c === '`') {
        lastSig = j;
        lastWasLiteral = true;
        return j + 1;
      } else if (c === '$' && source[j + 1] === '{') {
        templateDepths.push(0);
        lastSig = j + 1;
        lastWasLiteral = false;
        return j + 2;
      } else j++;
    }
    return n;
  };

  let i = 0;
  while (i < n) {
    const c = source[i];
    if (c === '/') {
      const next = source[i + 1];
      if (next === '/') {
        let j = i;
        while (j < n && !isNewline(source[j])) j++;
        blank(i, j);
        i = j;
        continue;
      }
      if (next === '*') {
        const close = source.indexOf('*/', i + 2);
        const end = close < 0 ? n : close + 2;
        blank(i, end);
        i = end;
        continue;
      }
      if (slashStartsRegex()) {
        const end = scanRegex(source, i);
        if (end > 0) {
          lastSig = end - 1;
          lastWasLiteral = true;
          i = end;
          continue;
        }
        // no closing `/` on this line: it was a division after all
      }
      lastSig = i;
      lastWasLiteral = false;
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = scanString(source, i);
      lastSig = end - 1;
      lastWasLiteral = true;
      i = end;
      continue;
    }
    if (c === '`') {
      i = scanTemplate(i + 1);
      continue;
    }
    if (templateDepths.length > 0 && (c === '{' || c === '}')) {
      const top = templateDepths.length - 1;
      if (c === '{') templateDepths[top]++;
      else if (templateDepths[top] > 0) templateDepths[top]--;
      else {
        templateDepths.pop();
        i = scanTemplate(i + 1);
        continue;
      }
    }
    if (!isSpace(c)) {
      lastSig = i;
      lastWasLiteral = false;
    }
    i++;
  }
  return out.join('');
}

/** End (exclusive) of the string literal opening at `start`; an unterminated one ends at its line break. */
function scanString(source: string, start: number): number {
  const quote = source[start];
  let j = start + 1;
  while (j < source.length) {
    const c = source[j];
    if (c === '\\') j += source[j + 1] === '\r' && source[j + 2] === '\n' ? 3 : 2;
    else if (c === quote) return j + 1;
    else if (isNewline(c)) return j;
    else j++;
  }
  return source.length;
}

/** End (exclusive, flags included) of the regex literal opening at `start`, or -1 when it cannot be one (the line ends first). */
function scanRegex(source: string, start: number): number {
  let inClass = false;
  let j = start + 1;
  while (j < source.length) {
    const c = source[j];
    if (isNewline(c)) return -1;
    if (c === '\\') {
      if (isNewline(source[j + 1])) return -1;
      j += 2;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '/') {
      // `/ 2 // note` or `/ 2 /* note */`: that slash opens a comment, so this was a division
      if (source[j + 1] === '/' || source[j + 1] === '*') return -1;
      j++;
      while (j < source.length && isIdentChar(source[j])) j++;
      return j;
    }
    j++;
  }
  return -1;
}

/**
 * Removes Python comments (`# …` outside strings) and docstrings (a triple-quoted string that is
 * a statement of its own: only whitespace before it on its line, nothing but whitespace or a
 * comment after it). Like stripDocComments, every removed character except line breaks becomes a
 * space. Other strings, triple-quoted values included (`x = """…"""`), are left alone.
 */
export function stripPythonComments(source: string): string {
  const out = source.split('');
  const n = source.length;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (!isNewline(out[k])) out[k] = ' ';
  };
  const lineStartsAt = (i: number): boolean => {
    let b = i - 1;
    while (b >= 0 && (source[b] === ' ' || source[b] === '\t')) b--;
    return b < 0 || isNewline(source[b]);
  };
  let i = 0;
  while (i < n) {
    const c = source[i];
    if (c === '#') {
      let j = i;
      while (j < n && !isNewline(source[j])) j++;
      blank(i, j);
      i = j;
      continue;
    }
    // a string literal, with an optional prefix (r, b, u, f and their pairs) read as part of it
    let q = i;
    while (q < n && q - i < 2 && /[rRbBuUfF]/.test(source[q]) && !isIdentChar(source[i - 1])) q++;
    const quote = source[q];
    if ((quote === '"' || quote === "'") && (q === i || !isIdentChar(source[i - 1]))) {
      const triple = source.startsWith(quote.repeat(3), q);
      const end = triple ? tripleEnd(source, q + 3, quote) : scanString(source, q);
      if (triple && lineStartsAt(i)) {
        let after = end;
        while (after < n && (source[after] === ' ' || source[after] === '\t')) after++;
        if (after >= n || isNewline(source[after]) || source[after] === '#') blank(i, end);
      }
      i = end;
      continue;
    }
    i = isIdentChar(c) ? skipIdent(source, i) : i + 1;
  }
  return out.join('');
}

function tripleEnd(source: string, from: number, quote: string): number {
  let j = from;
  while (j < source.length) {
    if (source[j] === '\\') j += 2;
    else if (source.startsWith(quote.repeat(3), j)) return j + 3;
    else j++;
  }
  return source.length;
}

function skipIdent(source: string, i: number): number {
  let j = i;
  while (j < source.length && isIdentChar(source[j])) j++;
  return j;
}

/**
 * Syntax colouring for the lines on screen only (a 50k-line file opens at once): a small
 * hand-written, single-pass tokenizer per language family — no regex backtracking, linear
 * in the line. Block comments and strings spanning lines are approximated (a line that
 * starts with `*` inside a doc comment is a comment), which is what a viewer needs.
 * Tokens and search hits are merged into segments; hits are rendered in <mark> elements.
 */
import { languageOfExtension, type Language as CoreLanguage } from '../core/source/languages';

export type TokenKind = 'kw' | 'str' | 'com' | 'num' | 'fn' | 'type' | 'punct' | 'plain';

export interface Token {
  start: number;
  end: number;
  kind: TokenKind;
}

export type Language = 'c-like' | 'hash' | 'json' | 'markup' | 'css' | 'plain';

/** The tokenizer of each language of core's extension table (source/languages.ts) that has one. */
const TOKENIZER: Partial<Record<CoreLanguage, Language>> = {
  typescript: 'c-like',
  tsx: 'c-like',
  javascript: 'c-like',
  jsx: 'c-like',
  java: 'c-like',
  go: 'c-like',
  rust: 'c-like',
  c: 'c-like',
  'c-header': 'c-like',
  cpp: 'c-like',
  'cpp-header': 'c-like',
  csharp: 'c-like',
  kotlin: 'c-like',
  swift: 'c-like',
  scala: 'c-like',
  dart: 'c-like',
  php: 'c-like',
  groovy: 'c-like',
  zig: 'c-like',
  python: 'hash',
  ruby: 'hash',
  shell: 'hash',
  zsh: 'hash',
  yaml: 'hash',
  toml: 'hash',
  r: 'hash',
  perl: 'hash',
  elixir: 'hash',
  makefile: 'hash',
  dockerfile: 'hash',
  ini: 'hash',
  json: 'json',
  html: 'markup',
  xml: 'markup',
  svg: 'markup',
  vue: 'markup',
  svelte: 'markup',
  css: 'css',
  scss: 'css',
  less: 'css',
};

export function languageOf(path: string): Language {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (name === 'dockerfile' || name === 'makefile') return 'hash';
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  const language = languageOfExtension(ext);
  return (language && TOKENIZER[language]) || 'plain';
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue default defer delete do else enum export extends ' +
    'false final finally fn for from func function go if impl implements import in instanceof interface let loop match ' +
    'mod module mut namespace new nil null package private protected pub public readonly return satisfies self static ' +
    'struct super switch this throw throws true try type typeof undefined use var void where while with yield ' +
    'def elif except lambda pass raise None True False and or not is del global nonlocal assert end then fi done esac ' +
    'int string bool boolean number float double char long short unsigned any unknown never object keyof declare'
  ).split(' '),
);

/** Lines longer than this are coloured only up to here (the rest stays plain). */
export const MAX_TOKENIZE_CHARS = 4000;

const isIdentStart = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
const isIdent = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

export function tokenizeLine(line: string, lang: Language): Token[] {
  if (lang === 'plain' || lang === 'markup') return lang === 'markup' ? tokenizeMarkup(line) : [];
  const tokens: Token[] = [];
  const n = Math.min(line.length, MAX_TOKENIZE_CHARS);
  const lineComment = lang === 'hash' ? '#' : lang === 'json' ? '' : '//';
  const trimmed = line.trimStart();
  if (lang === 'c-like' && (trimmed.startsWith('*') || trimmed.startsWith('/*'))) {
    const close = line.indexOf('*/');
    const end = close >= 0 ? close + 2 : line.length;
    tokens.push({ start: 0, end, kind: 'com' });
    if (close < 0) return tokens;
    return tokens.concat(tokenizeFrom(line, end, n, lang, lineComment));
  }
  return tokenizeFrom(line, 0, n, lang, lineComment);
}

function tokenizeFrom(line: string, from: number, n: number, lang: Language, lineComment: string): Token[] {
  const tokens: Token[] = [];
  let i = from;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (lineComment && line.startsWith(lineComment, i) && (lang !== 'c-like' || true)) {
      tokens.push({ start: i, end: line.length, kind: 'com' });
      return tokens;
    }
    if (lang !== 'hash' && lang !== 'json' && c === 47 && line.charCodeAt(i + 1) === 42) {
      const close = line.indexOf('*/', i + 2);
      const end = close < 0 ? line.length : close + 2;
      tokens.push({ start: i, end, kind: 'com' });
      i = end;
      continue;
    }
    if (c === 34 || c === 39 || c === 96) {
      let j = i + 1;
      while (j < line.length && line.charCodeAt(j) !== c) j += line.charCodeAt(j) === 92 ? 2 : 1;
      const end = Math.min(j + 1, line.length);
      tokens.push({ start: i, end, kind: 'str' });
      i = end;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isIdent(line.charCodeAt(j)) || line.charCodeAt(j) === 46)) j++;
      tokens.push({ start: i, end: j, kind: 'num' });
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdent(line.charCodeAt(j))) j++;
      const word = line.slice(i, j);
      let kind: TokenKind = 'plain';
      if (lang !== 'json' && KEYWORDS.has(word)) kind = 'kw';
      else if (lang === 'css') kind = 'plain';
      else if (line.charCodeAt(j) === 40) kind = 'fn';
      else if (c >= 65 && c <= 90) kind = 'type';
      if (kind !== 'plain') tokens.push({ start: i, end: j, kind });
      i = j;
      continue;
    }
    i++;
  }
  return tokens;
}

function tokenizeMarkup(line: string): Token[] {
  const tokens: Token[] = [];
  const n = Math.min(line.length, MAX_TOKENIZE_CHARS);
  let i = 0;
  while (i < n) {
    if (line.startsWith('<!--', i)) {
      const close = line.indexOf('-->', i + 4);
      const end = close < 0 ? line.length : close + 3;
      tokens.push({ start: i, end, kind: 'com' });
      i = end;
      continue;
    }
    const c = line.charCodeAt(i);
    if (c === 60) {
      let j = i + 1;
      if (line.charCodeAt(j) === 47) j++;
      const s = j;
      while (j < n && isIdent(line.charCodeAt(j))) j++;
      if (j > s) tokens.push({ start: s, end: j, kind: 'kw' });
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      const close = line.indexOf(String.fromCharCode(c), i + 1);
      const end = close < 0 ? line.length : close + 1;
      tokens.push({ start: i, end, kind: 'str' });
      i = end;
      continue;
    }
    i++;
  }
  return tokens;
}

export interface Segment {
  text: string;
  kind: TokenKind;
}

/** A run of segments, marked (a search hit) or not. Every hit becomes one <mark>. */
export interface Piece {
  mark: boolean;
  segments: Segment[];
}

/** Merge hit ranges (sorted, possibly overlapping) and tokens into marked/unmarked pieces. */
export function segmentLine(
  line: string,
  tokens: Token[],
  hits: readonly (readonly [number, number])[] = [],
): Piece[] {
  const merged: [number, number][] = [];
  for (const [s0, e0] of [...hits].sort((a, b) => a[0] - b[0])) {
    const s = Math.max(0, Math.min(s0, line.length));
    const e = Math.max(s, Math.min(e0, line.length));
    if (e === s && s0 !== e0) continue;
    const last = merged[merged.length - 1];
    if (last && s <= last[1] && e > s) last[1] = Math.max(last[1], e);
    else if (e > s) merged.push([s, e]);
  }
  const pieces: Piece[] = [];
  let pos = 0;
  const spans = (start: number, end: number): Segment[] => {
    const out: Segment[] = [];
    let p = start;
    for (const t of tokens) {
      if (t.end <= p) continue;
      if (t.start >= end) break;
      if (t.start > p) out.push({ text: line.slice(p, t.start), kind: 'plain' });
      const s = Math.max(t.start, p);
      const e = Math.min(t.end, end);
      out.push({ text: line.slice(s, e), kind: t.kind });
      p = e;
    }
    if (p < end) out.push({ text: line.slice(p, end), kind: 'plain' });
    return out;
  };
  for (const [s, e] of merged) {
    if (s > pos) pieces.push({ mark: false, segments: spans(pos, s) });
    pieces.push({ mark: true, segments: spans(s, e) });
    pos = e;
  }
  if (pos < line.length || !pieces.length) pieces.push({ mark: false, segments: spans(pos, line.length) });
  return pieces;
}

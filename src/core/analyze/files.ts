/**
 * What kind of file a path is (code, test, docs, config, other) and where the comments of
 * a non-JavaScript source file are (JavaScript and TypeScript use the parser instead).
 */
import { fileRole } from '../source/file-role';
import { extensionTable, type Language } from '../source/languages';
import { baseName, extensionOf } from '../source/types';

export type FileCategory = 'code' | 'test' | 'docs' | 'config' | 'other';

/** Extensions of code (source/languages.ts's languages of kind 'code'). */
const CODE_EXTENSIONS: ReadonlySet<string> = new Set(
  Object.keys(extensionTable((info) => (info.kind === 'code' ? true : undefined))),
);
const DOC_EXTENSIONS = new Set(['md', 'mdx', 'markdown', 'txt', 'rst', 'adoc']);
const CONFIG_EXTENSIONS = new Set([
  'json',
  'jsonc',
  'json5',
  'yaml',
  'yml',
  'toml',
  'ini',
  'properties',
  'env',
]);

/**
 * A test by the shared file-role rule (source/file-role.ts): a test file, or a snapshot or a
 * fixture written for tests (feature_status counts all three as test coverage).
 */
export function isTestPath(path: string): boolean {
  const role = fileRole(path);
  return role === 'test' || role === 'snapshot' || role === 'fixture';
}

export function categoryOf(path: string): FileCategory {
  if (isTestPath(path)) return 'test';
  const base = baseName(path);
  if (/^\.env(\.|$)/.test(base)) return 'config';
  const ext = extensionOf(path).toLowerCase();
  if (CODE_EXTENSIONS.has(ext)) return 'code';
  if (DOC_EXTENSIONS.has(ext) || /^(readme|changelog|license|contributing)$/i.test(base)) return 'docs';
  if (CONFIG_EXTENSIONS.has(ext)) return 'config';
  return 'other';
}

type CommentFamily = { line: string[]; block: Array<[string, string]>; quotes: string };

const C_LIKE: CommentFamily = { line: ['//'], block: [['/*', '*/']], quotes: `'"\`` };
const FAMILIES: Readonly<Record<string, CommentFamily>> = {
  c: C_LIKE,
  markup: {
    line: ['//'],
    block: [
      ['/*', '*/'],
      ['<!--', '-->'],
    ],
    quotes: `'"\``,
  },
  hash: { line: ['#'], block: [], quotes: `'"` },
  php: { line: ['//', '#'], block: [['/*', '*/']], quotes: `'"` },
  dash: { line: ['--'], block: [], quotes: `'"` },
  semicolon: { line: [';'], block: [], quotes: '"' },
};
const FAMILY_BY_LANGUAGE: Partial<Record<Language, keyof typeof FAMILIES>> = {
  java: 'c',
  kotlin: 'c',
  scala: 'c',
  swift: 'c',
  csharp: 'c',
  go: 'c',
  rust: 'c',
  dart: 'c',
  'objective-c': 'c',
  c: 'c',
  'c-header': 'c',
  cpp: 'c',
  'cpp-header': 'c',
  typescript: 'c',
  tsx: 'c',
  javascript: 'c',
  jsx: 'c',
  vue: 'markup',
  svelte: 'markup',
  astro: 'markup',
  python: 'hash',
  ruby: 'hash',
  elixir: 'hash',
  php: 'php',
  lua: 'dash',
  erlang: 'semicolon',
  clojure: 'semicolon',
};
const FAMILY_BY_EXTENSION = extensionTable((_, language) => FAMILY_BY_LANGUAGE[language]);

/**
 * Comment ranges [start, end) of a source file, by a small lexer that knows its language's
 * comment and string delimiters (strings are skipped so `"//"` is not a comment). Returns
 * [] for languages it does not know. A flat array: start0, end0, start1, end1, ...
 */
export function lexicalComments(path: string, text: string): number[] {
  const fam = FAMILIES[FAMILY_BY_EXTENSION[extensionOf(path).toLowerCase()] ?? ''];
  if (!fam) return [];
  const out: number[] = [];
  const n = text.length;
  let i = 0;
  outer: while (i < n) {
    const ch = text[i];
    if (fam.quotes.includes(ch)) {
      // a string: to the closing quote (backslash escapes), or the line end for ' and "
      let j = i + 1;
      while (j < n && text[j] !== ch) {
        if (text[j] === '\\') j++;
        else if (text[j] === '\n' && ch !== '`') break;
        j++;
      }
      i = j + 1;
      continue;
    }
    for (const marker of fam.line) {
      if (text.startsWith(marker, i)) {
        const e = text.indexOf('\n', i);
        const end = e === -1 ? n : e;
        out.push(i, end);
        i = end;
        continue outer;
      }
    }
    for (const [open, close] of fam.block) {
      if (text.startsWith(open, i)) {
        const e = text.indexOf(close, i + open.length);
        const end = e === -1 ? n : e + close.length;
        out.push(i, end);
        i = end;
        continue outer;
      }
    }
    i++;
  }
  return out;
}

/** Is offset inside one of the ranges (flat, sorted by start)? */
export function inRanges(ranges: readonly number[], offset: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = ranges[2 * mid];
    const e = ranges[2 * mid + 1];
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

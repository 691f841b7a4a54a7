/**
 * The language registry: which files have a symbol chunker, with which grammar, and which
 * module holds each language's rules. The rules themselves are written down where they are
 * implemented:
 *   TypeScript, TSX, JavaScript -> ecmascript.ts     Python -> python.ts
 *   Go -> go.ts      Rust -> rust.ts      Markdown -> markdown.ts (no grammar)
 *   C, C++ -> c-family.ts      Java, C#, Kotlin, Swift -> classful.ts
 *   Ruby, PHP, Bash -> scripting.ts      CSS (+ SCSS, Less) -> css.ts      HTML -> html.ts
 *   the query-driven chunker the issue-15 languages share (scope, naming) -> tags.ts
 *
 * A path's language is decided by its FINAL extension, case-sensitively (`a.TS` has none,
 * `a.d.ts` is TypeScript), by the one extension table (source/languages.ts, `chunker`: `.ts`,
 * `.mts`, `.cts` are TypeScript, `.pyi` Python, `.md` and `.markdown` Markdown, `.scss` and
 * `.less` CSS ...), or for a few extensionless names by the whole base name
 * (Rakefile, Gemfile). `.h` is C: a C++ header parsed as C still gives its functions,
 * structs, enums, typedefs and macros (classes and namespaces are lost), while a C header
 * parsed as C++ would be the worse mistake far more often.
 */
import type { Node } from 'web-tree-sitter';
import { C_ATTACH, C_TAGS, CPP_TAGS } from './c-family';
import {
  CSHARP_ATTACH,
  CSHARP_TAGS,
  JAVA_ATTACH,
  JAVA_TAGS,
  KOTLIN_ATTACH,
  KOTLIN_TAGS,
  SWIFT_ATTACH,
  SWIFT_TAGS,
} from './classful';
import type { AttachRules, ChunkCollector } from './collect';
import { chunkCss, CSS_ATTACH, stylesheetSource } from './css';
import { chunkEcmascript, ECMASCRIPT_ATTACH } from './ecmascript';
import { chunkGo, GO_ATTACH } from './go';
import { chunkHtml, HTML_ATTACH } from './html';
import { chunkPython, PYTHON_ATTACH } from './python';
import { chunkRust, RUST_ATTACH } from './rust';
import { BASH_ATTACH, BASH_TAGS, PHP_ATTACH, PHP_TAGS, RUBY_ATTACH, RUBY_TAGS } from './scripting';
import type { TagsSpec } from './tags';
import type { GrammarLanguageId, LanguageId } from './types';
import { extensionTable } from '../source/languages';
import { extensionOf } from '../source/types';

/** The chunker's view of source/languages.ts: the extensions whose language it chunks. */
const LANGUAGE_BY_EXTENSION: Readonly<Record<string, LanguageId>> = extensionTable((info) => info.chunker);

const LANGUAGE_BY_NAME: Readonly<Record<string, LanguageId>> = {
  Rakefile: 'ruby',
  Gemfile: 'ruby',
};

/** Every language with a tree-sitter grammar, in a stable order. */
export const GRAMMAR_LANGUAGES: readonly GrammarLanguageId[] = Object.freeze([
  'typescript',
  'tsx',
  'javascript',
  'python',
  'go',
  'rust',
  'c',
  'cpp',
  'java',
  'csharp',
  'kotlin',
  'swift',
  'ruby',
  'php',
  'bash',
  'css',
  'html',
] as const);

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The language of a path by its final extension (case-sensitive) or its extensionless name, or null. */
export function languageForPath(path: string): LanguageId | null {
  // '/' only separates: a backslash is part of a POSIX file name
  const ext = extensionOf(path);
  if (ext !== '') return has(LANGUAGE_BY_EXTENSION, ext) ? LANGUAGE_BY_EXTENSION[ext] : null;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return has(LANGUAGE_BY_NAME, base) ? LANGUAGE_BY_NAME[base] : null;
}

/** The grammar a path is parsed with, or null (no language, or Markdown, which needs none). */
export function grammarLanguageOf(path: string): GrammarLanguageId | null {
  const lang = languageForPath(path);
  return lang === null || lang === 'markdown' ? null : lang;
}

/** What a grammar's tree walk gets besides the root and the collector. */
export interface WalkContext {
  /** The text as handed to chunkFile (BOM as a space), before `source` changed it for parsing. */
  text: string;
  /** JSX node types the grammar has, or null. */
  jsxTypes: string[] | null;
}

/** How one grammar language is chunked: a tree walk, or the query-driven chunker of tags.ts. */
export type GrammarSpec = {
  attach: AttachRules;
  /** The text the parser gets (default: the file's text). Must keep every index where it is. */
  source?: (path: string, text: string) => string;
} & (
  | { walk: (root: Node, c: ChunkCollector, ctx: WalkContext) => void; tags?: undefined }
  | { tags: TagsSpec; walk?: undefined }
);

export const GRAMMAR_SPECS: Readonly<Record<GrammarLanguageId, GrammarSpec>> = {
  typescript: { attach: ECMASCRIPT_ATTACH, walk: (root, c, ctx) => chunkEcmascript(root, c, ctx.jsxTypes) },
  tsx: { attach: ECMASCRIPT_ATTACH, walk: (root, c, ctx) => chunkEcmascript(root, c, ctx.jsxTypes) },
  javascript: { attach: ECMASCRIPT_ATTACH, walk: (root, c, ctx) => chunkEcmascript(root, c, ctx.jsxTypes) },
  python: { attach: PYTHON_ATTACH, walk: (root, c) => chunkPython(root, c) },
  go: { attach: GO_ATTACH, walk: (root, c) => chunkGo(root, c) },
  rust: { attach: RUST_ATTACH, walk: (root, c) => chunkRust(root, c) },
  c: { attach: C_ATTACH, tags: C_TAGS },
  cpp: { attach: C_ATTACH, tags: CPP_TAGS },
  java: { attach: JAVA_ATTACH, tags: JAVA_TAGS },
  csharp: { attach: CSHARP_ATTACH, tags: CSHARP_TAGS },
  kotlin: { attach: KOTLIN_ATTACH, tags: KOTLIN_TAGS },
  swift: { attach: SWIFT_ATTACH, tags: SWIFT_TAGS },
  ruby: { attach: RUBY_ATTACH, tags: RUBY_TAGS },
  php: { attach: PHP_ATTACH, tags: PHP_TAGS },
  bash: { attach: BASH_ATTACH, tags: BASH_TAGS },
  css: { attach: CSS_ATTACH, source: stylesheetSource, walk: (root, c, ctx) => chunkCss(root, c, ctx.text) },
  html: { attach: HTML_ATTACH, walk: (root, c) => chunkHtml(root, c) },
};

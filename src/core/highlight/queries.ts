/**
 * Which highlight queries colour each grammar, as package paths, in precedence order: where two
 * patterns capture the same node the later one wins (the packages' files list generic patterns,
 * `(identifier) @variable`, before specific ones), so a grammar that extends another comes after
 * it. Kotlin's and Swift's grammar packages ship none: the viewer's hand-written colourer covers them.
 */
import type { GrammarLanguageId } from '../chunk/types';

const JS = 'tree-sitter-javascript/queries/highlights.scm';
const JSX = 'tree-sitter-javascript/queries/highlights-jsx.scm';
const TS = 'tree-sitter-typescript/queries/highlights.scm';
const C = 'tree-sitter-c/queries/highlights.scm';

export const HIGHLIGHT_QUERY_FILES: Readonly<Partial<Record<GrammarLanguageId, readonly string[]>>> = {
  typescript: [JS, TS],
  tsx: [JS, JSX, TS],
  javascript: [JS, JSX],
  python: ['tree-sitter-python/queries/highlights.scm'],
  go: ['tree-sitter-go/queries/highlights.scm'],
  rust: ['tree-sitter-rust/queries/highlights.scm'],
  c: [C],
  cpp: [C, 'tree-sitter-cpp/queries/highlights.scm'],
  java: ['tree-sitter-java/queries/highlights.scm'],
  csharp: ['tree-sitter-c-sharp/queries/highlights.scm'],
  ruby: ['tree-sitter-ruby/queries/highlights.scm'],
  php: ['tree-sitter-php/queries/highlights.scm'],
  bash: ['tree-sitter-bash/queries/highlights.scm'],
  css: ['tree-sitter-css/queries/highlights.scm'],
  html: ['tree-sitter-html/queries/highlights.scm'],
};

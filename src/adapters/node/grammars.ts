/**
 * GrammarLoader for Node (CLI, MCP, tests): reads web-tree-sitter's runtime wasm, the
 * grammar packages' wasm files and their `queries/tags.scm` from node_modules, resolved the
 * way `require` would. Nothing is read until the Chunker asks for that language.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { GrammarLanguageId, GrammarLoader } from '../../core/chunk/types';
import { HIGHLIGHT_QUERY_FILES } from '../../core/highlight/queries';

const require = createRequire(import.meta.url);

/** Package-relative wasm file per language (tree-sitter-typescript ships both typescript and tsx). */
const GRAMMAR_FILES: Record<GrammarLanguageId, string> = {
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  rust: 'tree-sitter-rust/tree-sitter-rust.wasm',
  c: 'tree-sitter-c/tree-sitter-c.wasm',
  cpp: 'tree-sitter-cpp/tree-sitter-cpp.wasm',
  java: 'tree-sitter-java/tree-sitter-java.wasm',
  csharp: 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm',
  // the grammar packages for Kotlin and Swift on npm ship no wasm (or only this one's): see DEPENDENCIES
  kotlin: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  swift: '@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm',
  ruby: 'tree-sitter-ruby/tree-sitter-ruby.wasm',
  php: 'tree-sitter-php/tree-sitter-php.wasm', // the one that parses the HTML around <?php ?>
  bash: 'tree-sitter-bash/tree-sitter-bash.wasm',
  css: 'tree-sitter-css/tree-sitter-css.wasm',
  html: 'tree-sitter-html/tree-sitter-html.wasm',
};

/** The packages' own tags queries (the languages whose package ships one). */
const TAGS_FILES: Partial<Record<GrammarLanguageId, string>> = {
  c: 'tree-sitter-c/queries/tags.scm',
  cpp: 'tree-sitter-cpp/queries/tags.scm',
  java: 'tree-sitter-java/queries/tags.scm',
  csharp: 'tree-sitter-c-sharp/queries/tags.scm',
  ruby: 'tree-sitter-ruby/queries/tags.scm',
  php: 'tree-sitter-php/queries/tags.scm',
};

async function readResolved(specifier: string): Promise<Uint8Array> {
  const file = require.resolve(specifier);
  const buf = await readFile(file);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export const nodeGrammarLoader: GrammarLoader = {
  runtimeWasm: () => readResolved('web-tree-sitter/web-tree-sitter.wasm'),
  grammarWasm: (lang) => readResolved(GRAMMAR_FILES[lang]),
  tagsQuery: async (lang) => {
    const file = TAGS_FILES[lang];
    return file ? readFile(require.resolve(file), 'utf8') : null;
  },
  highlightsQuery: async (lang) => {
    const files = HIGHLIGHT_QUERY_FILES[lang];
    if (!files) return null;
    return (await Promise.all(files.map((f) => readFile(require.resolve(f), 'utf8')))).join('\n');
  },
};

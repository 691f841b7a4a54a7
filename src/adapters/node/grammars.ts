/**
 * GrammarLoader for Node (CLI, MCP, tests): reads web-tree-sitter's runtime wasm and the
 * grammar packages' wasm files from node_modules, resolved the way `require` would.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { GrammarLanguageId, GrammarLoader } from '../../core/chunk/types';

const require = createRequire(import.meta.url);

/** Package-relative wasm file per language (tree-sitter-typescript ships both typescript and tsx). */
const GRAMMAR_FILES: Record<GrammarLanguageId, string> = {
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  rust: 'tree-sitter-rust/tree-sitter-rust.wasm',
};

async function readResolved(specifier: string): Promise<Uint8Array> {
  const file = require.resolve(specifier);
  const buf = await readFile(file);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export const nodeGrammarLoader: GrammarLoader = {
  runtimeWasm: () => readResolved('web-tree-sitter/web-tree-sitter.wasm'),
  grammarWasm: (lang) => readResolved(GRAMMAR_FILES[lang]),
};

/**
 * The browser's GrammarLoader: web-tree-sitter's runtime and the grammar wasm files are
 * emitted by Vite as the app's own assets (`?url`), fetched from the same origin (so they
 * load offline once the PWA has cached them). Nothing is fetched until the index is built.
 */
import type { GrammarLanguageId, GrammarLoader } from '../../core/chunk/types';
import runtimeUrl from 'web-tree-sitter/web-tree-sitter.wasm?url';
import typescriptUrl from 'tree-sitter-typescript/tree-sitter-typescript.wasm?url';
import tsxUrl from 'tree-sitter-typescript/tree-sitter-tsx.wasm?url';
import javascriptUrl from 'tree-sitter-javascript/tree-sitter-javascript.wasm?url';
import pythonUrl from 'tree-sitter-python/tree-sitter-python.wasm?url';
import goUrl from 'tree-sitter-go/tree-sitter-go.wasm?url';
import rustUrl from 'tree-sitter-rust/tree-sitter-rust.wasm?url';

const GRAMMAR_URLS: Record<GrammarLanguageId, string> = {
  typescript: typescriptUrl,
  tsx: tsxUrl,
  javascript: javascriptUrl,
  python: pythonUrl,
  go: goUrl,
  rust: rustUrl,
};

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Could not load ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

export const browserGrammarLoader: GrammarLoader = {
  runtimeWasm: () => fetchBytes(runtimeUrl),
  grammarWasm: (lang) => fetchBytes(GRAMMAR_URLS[lang]),
};

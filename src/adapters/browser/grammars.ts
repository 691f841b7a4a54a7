/**
 * The browser's GrammarLoader: web-tree-sitter's runtime and the grammar wasm files are
 * emitted by Vite as the app's own assets (`?url`), fetched from the same origin (so they
 * load offline once the PWA has cached them). Each grammar is a separate asset, fetched only
 * when the Chunker loads that language (the first file of it in a repository); the packages'
 * tags.scm queries are separate small chunks (`?raw`, dynamic import), loaded the same way.
 */
import type { GrammarLanguageId, GrammarLoader } from '../../core/chunk/types';
import runtimeUrl from 'web-tree-sitter/web-tree-sitter.wasm?url';
import typescriptUrl from 'tree-sitter-typescript/tree-sitter-typescript.wasm?url';
import tsxUrl from 'tree-sitter-typescript/tree-sitter-tsx.wasm?url';
import javascriptUrl from 'tree-sitter-javascript/tree-sitter-javascript.wasm?url';
import pythonUrl from 'tree-sitter-python/tree-sitter-python.wasm?url';
import goUrl from 'tree-sitter-go/tree-sitter-go.wasm?url';
import rustUrl from 'tree-sitter-rust/tree-sitter-rust.wasm?url';
import cUrl from 'tree-sitter-c/tree-sitter-c.wasm?url';
import cppUrl from 'tree-sitter-cpp/tree-sitter-cpp.wasm?url';
import javaUrl from 'tree-sitter-java/tree-sitter-java.wasm?url';
import csharpUrl from 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm?url';
import kotlinUrl from '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm?url';
import swiftUrl from '@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm?url';
import rubyUrl from 'tree-sitter-ruby/tree-sitter-ruby.wasm?url';
import phpUrl from 'tree-sitter-php/tree-sitter-php.wasm?url';
import bashUrl from 'tree-sitter-bash/tree-sitter-bash.wasm?url';
import cssUrl from 'tree-sitter-css/tree-sitter-css.wasm?url';
import htmlUrl from 'tree-sitter-html/tree-sitter-html.wasm?url';

const GRAMMAR_URLS: Record<GrammarLanguageId, string> = {
  typescript: typescriptUrl,
  tsx: tsxUrl,
  javascript: javascriptUrl,
  python: pythonUrl,
  go: goUrl,
  rust: rustUrl,
  c: cUrl,
  cpp: cppUrl,
  java: javaUrl,
  csharp: csharpUrl,
  kotlin: kotlinUrl,
  swift: swiftUrl,
  ruby: rubyUrl,
  php: phpUrl,
  bash: bashUrl,
  css: cssUrl,
  html: htmlUrl,
};

/** The packages' own tags queries, each its own lazily imported chunk. */
const TAGS: Partial<Record<GrammarLanguageId, () => Promise<{ default: string }>>> = {
  c: () => import('tree-sitter-c/queries/tags.scm?raw'),
  cpp: () => import('tree-sitter-cpp/queries/tags.scm?raw'),
  java: () => import('tree-sitter-java/queries/tags.scm?raw'),
  csharp: () => import('tree-sitter-c-sharp/queries/tags.scm?raw'),
  ruby: () => import('tree-sitter-ruby/queries/tags.scm?raw'),
  php: () => import('tree-sitter-php/queries/tags.scm?raw'),
};

/**
 * The packages' highlight queries, in core/highlight/queries.ts's order (written out here because
 * Vite needs each `?raw` import literally), each its own lazily imported chunk.
 */
const HIGHLIGHTS: Partial<Record<GrammarLanguageId, () => Promise<Array<{ default: string }>>>> = {
  typescript: () =>
    Promise.all([
      import('tree-sitter-javascript/queries/highlights.scm?raw'),
      import('tree-sitter-typescript/queries/highlights.scm?raw'),
    ]),
  tsx: () =>
    Promise.all([
      import('tree-sitter-javascript/queries/highlights.scm?raw'),
      import('tree-sitter-javascript/queries/highlights-jsx.scm?raw'),
      import('tree-sitter-typescript/queries/highlights.scm?raw'),
    ]),
  javascript: () =>
    Promise.all([
      import('tree-sitter-javascript/queries/highlights.scm?raw'),
      import('tree-sitter-javascript/queries/highlights-jsx.scm?raw'),
    ]),
  python: () => Promise.all([import('tree-sitter-python/queries/highlights.scm?raw')]),
  go: () => Promise.all([import('tree-sitter-go/queries/highlights.scm?raw')]),
  rust: () => Promise.all([import('tree-sitter-rust/queries/highlights.scm?raw')]),
  c: () => Promise.all([import('tree-sitter-c/queries/highlights.scm?raw')]),
  cpp: () =>
    Promise.all([
      import('tree-sitter-c/queries/highlights.scm?raw'),
      import('tree-sitter-cpp/queries/highlights.scm?raw'),
    ]),
  java: () => Promise.all([import('tree-sitter-java/queries/highlights.scm?raw')]),
  csharp: () => Promise.all([import('tree-sitter-c-sharp/queries/highlights.scm?raw')]),
  ruby: () => Promise.all([import('tree-sitter-ruby/queries/highlights.scm?raw')]),
  php: () => Promise.all([import('tree-sitter-php/queries/highlights.scm?raw')]),
  bash: () => Promise.all([import('tree-sitter-bash/queries/highlights.scm?raw')]),
  css: () => Promise.all([import('tree-sitter-css/queries/highlights.scm?raw')]),
  html: () => Promise.all([import('tree-sitter-html/queries/highlights.scm?raw')]),
};

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Could not load ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

export const browserGrammarLoader: GrammarLoader = {
  runtimeWasm: () => fetchBytes(runtimeUrl),
  grammarWasm: (lang) => fetchBytes(GRAMMAR_URLS[lang]),
  tagsQuery: async (lang) => {
    const load = TAGS[lang];
    return load ? (await load()).default : null;
  },
  highlightsQuery: async (lang) => {
    const load = HIGHLIGHTS[lang];
    return load ? (await load()).map((m) => m.default).join('\n') : null;
  },
};

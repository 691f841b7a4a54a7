/**
 * The shapes of the symbol chunker: what a chunk is, which languages have a chunker, and
 * the port through which core gets tree-sitter's wasm bytes without touching fs or fetch.
 */

export type ChunkType =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'const'
  | 'component'
  | 'struct'
  | 'trait'
  | 'impl'
  | 'module'
  | 'section'
  /** a CSS/SCSS rule set or at-rule block; symbolName is its selector or prelude */
  | 'rule'
  /** a top-level key of a JSON/YAML/TOML file (a TOML table too) */
  | 'key'
  /** an HTML element with an id (symbolName `#id`) */
  | 'element'
  /** a C/C++ preprocessor macro */
  | 'macro'
  /** the fallback chunker's block of lines (any text file without a parser) */
  | 'block';

/** One symbol of one file. Lines are 1-based and inclusive; the chunk's text is exactly those lines. */
export interface Chunk {
  path: string;
  startLine: number;
  endLine: number;
  symbolName: string;
  chunkType: ChunkType;
}

export type LanguageId =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'c'
  | 'cpp'
  | 'java'
  | 'csharp'
  | 'kotlin'
  | 'swift'
  | 'ruby'
  | 'php'
  | 'bash'
  /** .css, and .scss/.less parsed with the CSS grammar (see css.ts) */
  | 'css'
  | 'html'
  | 'markdown';

/** A language that needs a tree-sitter grammar (markdown is split by headings without one). */
export type GrammarLanguageId = Exclude<LanguageId, 'markdown'>;

/** Port: how core gets grammar bytes (Node reads files; the browser fetches Vite ?url assets). */
export interface GrammarLoader {
  /** The web-tree-sitter runtime (`web-tree-sitter.wasm`). */
  runtimeWasm(): Promise<Uint8Array>;
  /** One language grammar (`tree-sitter-<lang>.wasm`). */
  grammarWasm(lang: GrammarLanguageId): Promise<Uint8Array>;
  /**
   * The grammar package's own `queries/tags.scm` (its definitions, used by tags.ts), or null
   * when the package ships none. Fetched only when that language is loaded.
   */
  tagsQuery(lang: GrammarLanguageId): Promise<string | null>;
  /**
   * The grammar's highlight queries (core/highlight/queries.ts lists them), joined in precedence
   * order, or null when it has none. Optional: without it the viewer colours by language family.
   */
  highlightsQuery?(lang: GrammarLanguageId): Promise<string | null>;
}

/**
 * The one table of file extensions: which language or format a file is, by its final
 * extension. Everything that asks "what language is this path" derives its answer from it:
 *   chunk/languages.ts   the chunker (`chunker`: which language's rules, with which grammar)
 *   source/file-role.ts  the role rule's source code and explore's language families (`family`)
 *   analyze/parsers.ts   the analyzers' script parsers (the chunkers typescript, tsx, javascript)
 *   analyze/files.ts     code or not (`kind`) and, by language, its comment syntax
 *   ui/highlight.ts      the viewer's tokenizer, by language
 *   ui/shell/file-icons  the file icons, by language
 * Each of those keeps its own case rule (the chunker's is case-sensitive, most lower-case
 * first) and its own whole-name rules (Rakefile, Dockerfile); the extensions live here only.
 */
import type { LanguageId } from '../chunk/types';

/** A language family of source code, by extension (explore's analyzers and the role rule's "source code"). */
export type Lang =
  | 'ts'
  | 'js'
  | 'python'
  | 'go'
  | 'rust'
  | 'c'
  | 'cpp'
  | 'java'
  | 'kotlin'
  | 'csharp'
  | 'swift'
  | 'ruby'
  | 'php'
  | 'shell';

/** What a file of the language is: code, markup, a stylesheet, data, prose, or other. */
export type LanguageKind = 'code' | 'markup' | 'style' | 'data' | 'prose' | 'other';

export interface LanguageInfo {
  /** The name people call it by. */
  name: string;
  kind: LanguageKind;
  extensions: readonly string[];
  /** The chunker's language (symbol chunks), if it has one. */
  chunker?: LanguageId;
  /** The explore analyzers' family, if they read it. */
  family?: Lang;
}

const code = (name: string, extensions: string[], chunker?: LanguageId, family?: Lang): LanguageInfo => ({
  name,
  kind: 'code',
  extensions,
  chunker,
  family,
});
const other = (
  name: string,
  kind: LanguageKind,
  extensions: string[],
  chunker?: LanguageId,
): LanguageInfo => ({
  name,
  kind,
  extensions,
  chunker,
});

/** Every language and format Quarry tells apart, with its extensions (lower case). */
export const LANGUAGES = {
  typescript: code('TypeScript', ['ts', 'mts', 'cts'], 'typescript', 'ts'),
  tsx: code('TypeScript React', ['tsx'], 'tsx', 'ts'),
  javascript: code('JavaScript', ['js', 'mjs', 'cjs'], 'javascript', 'js'),
  jsx: code('JavaScript React', ['jsx'], 'javascript', 'js'),
  python: code('Python', ['py', 'pyi'], 'python', 'python'),
  go: code('Go', ['go'], 'go', 'go'),
  rust: code('Rust', ['rs'], 'rust', 'rust'),
  // `.h` is C: see chunk/languages.ts
  c: code('C', ['c'], 'c', 'c'),
  'c-header': code('C header', ['h'], 'c', 'c'),
  cpp: code('C++', ['cc', 'cpp', 'cxx'], 'cpp', 'cpp'),
  'cpp-header': code('C++ header', ['hpp', 'hh', 'hxx'], 'cpp', 'cpp'),
  java: code('Java', ['java'], 'java', 'java'),
  kotlin: code('Kotlin', ['kt', 'kts'], 'kotlin', 'kotlin'),
  csharp: code('C#', ['cs'], 'csharp', 'csharp'),
  swift: code('Swift', ['swift'], 'swift', 'swift'),
  ruby: code('Ruby', ['rb', 'rake', 'gemspec'], 'ruby', 'ruby'),
  php: code('PHP', ['php'], 'php', 'php'),
  shell: code('Shell', ['sh', 'bash'], 'bash', 'shell'),
  zsh: code('Shell', ['zsh']),
  fish: code('Shell', ['fish']),
  powershell: code('PowerShell', ['ps1']),
  vue: code('Vue', ['vue']),
  svelte: code('Svelte', ['svelte']),
  astro: code('Astro', ['astro']),
  scala: code('Scala', ['scala']),
  dart: code('Dart', ['dart']),
  'objective-c': code('Objective-C', ['m', 'mm']),
  elixir: code('Elixir', ['ex', 'exs']),
  erlang: code('Erlang', ['erl']),
  clojure: code('Clojure', ['clj', 'cljs']),
  lua: code('Lua', ['lua']),
  r: code('R', ['r']),
  perl: code('Perl', ['pl']),
  haskell: code('Haskell', ['hs']),
  zig: code('Zig', ['zig']),
  groovy: code('Groovy', ['groovy', 'gradle']),
  makefile: other('Makefile', 'other', ['mk']),
  dockerfile: other('Dockerfile', 'other', ['dockerfile']),
  html: other('HTML', 'markup', ['html', 'htm'], 'html'),
  xml: other('XML', 'markup', ['xml']),
  svg: other('SVG', 'markup', ['svg']),
  css: other('CSS', 'style', ['css'], 'css'),
  scss: other('Sass', 'style', ['scss'], 'css'),
  sass: other('Sass', 'style', ['sass']),
  less: other('Less', 'style', ['less'], 'css'),
  markdown: other('Markdown', 'prose', ['md', 'markdown'], 'markdown'),
  mdx: other('Markdown', 'prose', ['mdx']),
  json: other('JSON', 'data', ['json', 'jsonc', 'json5']),
  yaml: other('YAML', 'data', ['yml', 'yaml']),
  toml: other('TOML', 'data', ['toml']),
  ini: other('Settings', 'data', ['ini', 'cfg', 'conf']),
  dotenv: other('Settings', 'data', ['env']),
  csv: other('CSV', 'data', ['csv']),
  tsv: other('TSV', 'data', ['tsv']),
  sql: other('SQL', 'data', ['sql']),
  graphql: other('GraphQL', 'data', ['graphql', 'gql']),
  protobuf: other('Protocol Buffers', 'data', ['proto']),
  lockfile: other('Lockfile', 'data', ['lock']),
  wasm: other('WebAssembly', 'other', ['wasm']),
} as const satisfies Record<string, LanguageInfo>;

export type Language = keyof typeof LANGUAGES;

const BY_EXTENSION: ReadonlyMap<string, Language> = (() => {
  const map = new Map<string, Language>();
  for (const [language, info] of Object.entries(LANGUAGES) as [Language, LanguageInfo][])
    for (const ext of info.extensions) {
      if (map.has(ext)) throw new Error(`extension ${ext} listed twice`);
      map.set(ext, language);
    }
  return map;
})();

/** The language of an extension (without its dot) exactly as written: `TS` is none. */
export function languageOfExtension(ext: string): Language | null {
  return BY_EXTENSION.get(ext) ?? null;
}

/** An extension -> value table of the extensions whose language `pick` gives a value for. */
export function extensionTable<T>(
  pick: (info: LanguageInfo, language: Language) => T | undefined,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [ext, language] of BY_EXTENSION) {
    const v = pick(LANGUAGES[language], language);
    if (v !== undefined) out[ext] = v;
  }
  return out;
}

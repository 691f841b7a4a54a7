/**
 * Symbol chunks: the units `codebase_search` ranks and `find_related` compares (seed 004).
 * A chunk's text is exactly lines startLine..endLine (1-based, inclusive) of its file.
 *
 * Parsing is web-tree-sitter with each language's grammar wasm, handed in as bytes through
 * the GrammarLoader port, so this module never reads files or fetches (Node reads
 * node_modules, the browser fetches Vite `?url` assets). One parser per language is created
 * once per Chunker and reused for every file; each tree is deleted right after its walk.
 *
 * RULES — these define the index:
 *
 * TypeScript (.ts, incl. .d.ts), TSX (.tsx, tsx grammar), JavaScript (.js .jsx .mjs .cjs,
 * the javascript grammar, which parses JSX), at module level and inside namespace/module
 * bodies (never inside function bodies):
 *   - function declarations, plain, `export`, `export default`, async, generators, and
 *     overload/`declare` signatures                                   -> 'function'
 *   - `const`/`let`/`var` declarators whose value is an arrow function or function
 *     expression, exported or not                                      -> 'function'
 *   - `export default` of an arrow function / function expression     -> 'function'
 *     (named `default` when anonymous)
 *   - classes (also abstract, `export default class`, `const X = class {}`) -> 'class',
 *     and inside them each method, getter, setter, constructor, method signature and
 *     arrow-function field                                             -> 'method' `Class.name`
 *   - interfaces -> 'interface'; type aliases -> 'type'; enums -> 'enum'
 *   - namespaces, `module X {}`, `declare module 'x' {}` (named x), `declare global {}`
 *                                                                      -> 'module'
 *   - any other EXPORTED `const` declarator (`export const API_URL = "..."`) -> 'const'
 *     (`export let`/`var` with a non-function value, and unexported consts: no chunk)
 *   - a function/arrow whose name starts with A-Z and whose body contains JSX, directly or
 *     wrapped in memo(...)/forwardRef(...)/React.memo(...) (nested too) -> 'component'.
 *     A wrapped value without JSX is not a function: exported it is a 'const', otherwise
 *     no chunk. Only .tsx and the JS family can contain JSX; .ts never has components.
 * Python (.py): module-level `def` -> 'function'; `class` -> 'class'; `def` directly in a
 *   class body -> 'method' `Class.name` (nested classes recurse, methods use the innermost
 *   class name); a decorated definition starts at its first decorator.
 * Go (.go): `func` -> 'function'; a method with a receiver -> 'method' `Recv.Name` (`*`
 *   and type parameters stripped); `type X struct` -> 'struct'; `type X interface` ->
 *   'interface'; any other type spec or alias -> 'type'. A grouped `type ( ... )` gives
 *   one chunk per spec, each spanning its own spec (and the comments above it).
 * Rust (.rs): `fn` -> 'function', inside an impl or trait -> 'method' `Type.name` (the
 *   type's base name: `impl<T> Display for P<T>` gives `P.fmt`; in a trait `Trait.name`);
 *   impl -> 'impl' with symbolName the type, or `Trait for Type`, as written; struct ->
 *   'struct'; enum -> 'enum'; trait -> 'trait'; `mod` with a body -> 'module' (its items
 *   recurse); type alias -> 'type'.
 * Markdown (.md): a 'section' per ATX heading (`#`..`######`, not inside ``` or ~~~ fences
 *   or front matter), from the heading line to the line before the next heading of any
 *   level (or the last line); symbolName = the heading text.
 *
 * Ranges: a chunk starts at its declaration line (for an exported declaration, the
 * `export` line), or earlier at what is attached above it: decorators and Rust `#[...]`
 * attributes always; comments when they stand alone on their lines and no blank line
 * separates them from the declaration (a run of them attaches as a whole). It ends at the
 * node's last line. A JS/TS declaration with several declarators (`const a = ..., b = ...`)
 * gives one chunk per qualifying declarator, the first starting at the statement; a lone
 * declarator spans the whole statement.
 *
 * Containers and their members OVERLAP: a class chunk contains its method chunks, an impl
 * or trait its methods, a namespace/module its declarations (markdown sections never
 * overlap). `find_related` must therefore seed from the INNERMOST chunk containing a line
 * (the smallest range, the later start on a tie: `innermostChunkAt`). Lines before the
 * first chunk are the preamble and belong to no chunk; so do lines between chunks
 * (imports, plain statements, top-level calls).
 *
 * Output is sorted by startLine, then by the larger range first (endLine descending), then
 * in document order. Odd input never crashes: syntax errors keep every chunk tree-sitter
 * recovers (declarations inside top-level ERROR regions included), an empty file gives [],
 * CRLF and a leading BOM are fine (lines are split on \n only). Code that lives only
 * inside an IIFE or a function (bundles such as typescript.js) has no module-level symbols,
 * hence no chunks. chunkFile throws QuarryError('Unreadable') when the parser fails, runs
 * past `maxParseMs`, or the path's language has no loaded grammar or is not indexed; the
 * caller skips the file with that reason.
 */
import { Language, Parser } from 'web-tree-sitter';
import { QuarryError } from '../errors';
import { extensionOf } from '../source/types';
import { type AttachRules, ChunkCollector } from './collect';
import { chunkEcmascript, ECMASCRIPT_ATTACH } from './ecmascript';
import { chunkGo, GO_ATTACH } from './go';
import { chunkMarkdown } from './markdown';
import { chunkPython, PYTHON_ATTACH } from './python';
import { chunkRust, RUST_ATTACH } from './rust';
import type { Chunk, GrammarLanguageId, GrammarLoader, LanguageId } from './types';

export type { Chunk, ChunkType, GrammarLanguageId, GrammarLoader, LanguageId } from './types';

/** Seed 004's indexed final extensions. */
export const INDEXED_EXTENSIONS: readonly string[] = Object.freeze(['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'rs', 'md', 'py', 'go']);

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, LanguageId>> = {
  ts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  md: 'markdown',
};

export const GRAMMAR_LANGUAGES: readonly GrammarLanguageId[] = Object.freeze(['typescript', 'tsx', 'javascript', 'python', 'go', 'rust']);

/** The language of a path by its FINAL extension, case-sensitive (`a.TS` -> null, `a.d.ts` -> typescript). */
export function languageForPath(path: string): LanguageId | null {
  const ext = extensionOf(path.replace(/\\/g, '/'));
  return Object.prototype.hasOwnProperty.call(LANGUAGE_BY_EXTENSION, ext) ? LANGUAGE_BY_EXTENSION[ext] : null;
}

const ATTACH: Record<GrammarLanguageId, AttachRules> = {
  typescript: ECMASCRIPT_ATTACH,
  tsx: ECMASCRIPT_ATTACH,
  javascript: ECMASCRIPT_ATTACH,
  python: PYTHON_ATTACH,
  go: GO_ATTACH,
  rust: RUST_ATTACH,
};

const JSX_NODE_TYPES = ['jsx_element', 'jsx_self_closing_element', 'jsx_fragment'];

/**
 * The web-tree-sitter runtime is one module instance per realm: Parser.init() called again
 * would orphan the languages loaded into the previous instance, so it runs once.
 */
let runtimeReady: Promise<void> | null = null;

export function initRuntime(loader: GrammarLoader): Promise<void> {
  if (!runtimeReady) {
    runtimeReady = loader
      .runtimeWasm()
      .then((wasmBinary) => Parser.init({ wasmBinary }))
      .catch((err: unknown) => {
        runtimeReady = null;
        throw err;
      });
  }
  return runtimeReady;
}

interface Grammar {
  language: Language;
  parser: Parser | null;
  attach: AttachRules;
  /** JSX node types this grammar has, or null. */
  jsxTypes: string[] | null;
}

export interface ChunkerOptions {
  /** Grammars to load (default: all six). Files of other languages throw QuarryError('Unreadable'). */
  languages?: readonly GrammarLanguageId[];
  /**
   * Give up on one file after this much parsing (default: no limit) and throw
   * QuarryError('Unreadable', data.reason 'parse-timeout'). Pathological input runs at
   * ~0.1-0.3 MB/s against ~2-4 MB/s for ordinary code (see the throughput test).
   */
  maxParseMs?: number;
}

export class Chunker {
  private constructor(
    private readonly grammars: ReadonlyMap<GrammarLanguageId, Grammar>,
    private readonly maxParseMs: number | undefined,
  ) {}

  /** Loads the runtime and the grammars from the loader's bytes; after this, chunkFile is synchronous. */
  static async create(loader: GrammarLoader, options: ChunkerOptions = {}): Promise<Chunker> {
    await initRuntime(loader);
    const wanted = options.languages ?? GRAMMAR_LANGUAGES;
    const loaded = await Promise.all(
      wanted.map(async (id): Promise<[GrammarLanguageId, Grammar]> => {
        let language: Language;
        try {
          language = await Language.load(await loader.grammarWasm(id));
        } catch (err) {
          throw new QuarryError('Internal', `Could not load the ${id} grammar: ${err instanceof Error ? err.message : String(err)}`, { language: id });
        }
        const jsx = JSX_NODE_TYPES.filter((t) => language.idForNodeType(t, true) !== null && language.idForNodeType(t, true) !== 0);
        return [id, { language, parser: null, attach: ATTACH[id], jsxTypes: jsx.length > 0 ? jsx : null }];
      }),
    );
    return new Chunker(new Map(loaded), options.maxParseMs);
  }

  /** The symbol chunks of one file, sorted by startLine then larger range first. */
  chunkFile(path: string, text: string): Chunk[] {
    const lang = languageForPath(path);
    if (lang === null) throw new QuarryError('Unreadable', `Not an indexed file type: ${path}`, { path });
    const bom = text.charCodeAt(0) === 0xfeff;
    const chunks = lang === 'markdown' ? chunkMarkdown(path, bom ? text.slice(1) : text) : this.chunkWithGrammar(lang, path, bom ? ' ' + text.slice(1) : text); // a space keeps the columns
    return sortChunks(chunks);
  }

  private chunkWithGrammar(lang: GrammarLanguageId, path: string, text: string): Chunk[] {
    const grammar = this.grammars.get(lang);
    if (!grammar) throw new QuarryError('Unreadable', `No ${lang} grammar loaded for ${path}`, { path, language: lang });
    if (text.trim() === '') return [];
    let tree;
    let timedOut = false;
    try {
      grammar.parser ??= new Parser().setLanguage(grammar.language);
      const limit = this.maxParseMs;
      if (limit === undefined) tree = grammar.parser.parse(text);
      else {
        const deadline = performance.now() + limit;
        // web-tree-sitter cancels when the callback returns true (its .d.ts says void).
        const progressCallback = (() => (timedOut = performance.now() > deadline)) as () => void;
        tree = grammar.parser.parse(text, null, { progressCallback });
        if (!tree) grammar.parser.reset(); // a cancelled parser would otherwise resume next time
      }
    } catch (err) {
      // A parser that threw may be in any state: start the next file with a fresh one.
      try {
        grammar.parser?.delete();
      } catch {
        /* already unusable */
      }
      grammar.parser = null;
      throw new QuarryError('Unreadable', `Could not parse ${path}: ${err instanceof Error ? err.message : String(err)}`, { path, language: lang });
    }
    if (!tree) {
      if (timedOut) {
        throw new QuarryError('Unreadable', `Parsing ${path} took longer than ${this.maxParseMs} ms`, { path, language: lang, reason: 'parse-timeout' });
      }
      throw new QuarryError('Unreadable', `Could not parse ${path}`, { path, language: lang });
    }
    try {
      const c = new ChunkCollector(path, text, grammar.attach);
      const root = tree.rootNode;
      switch (lang) {
        case 'typescript':
        case 'tsx':
        case 'javascript':
          chunkEcmascript(root, c, grammar.jsxTypes);
          break;
        case 'python':
          chunkPython(root, c);
          break;
        case 'go':
          chunkGo(root, c);
          break;
        case 'rust':
          chunkRust(root, c);
          break;
      }
      return c.chunks;
    } finally {
      tree.delete();
    }
  }

  /** Frees the parsers (the languages stay with the runtime). */
  dispose(): void {
    for (const g of this.grammars.values()) {
      g.parser?.delete();
      g.parser = null;
    }
  }
}

/** startLine ascending, then endLine descending (containers before members), then document order. */
export function sortChunks(chunks: Chunk[]): Chunk[] {
  return chunks
    .map((chunk, i) => ({ chunk, i }))
    .sort((a, b) => a.chunk.startLine - b.chunk.startLine || b.chunk.endLine - a.chunk.endLine || a.i - b.i)
    .map((x) => x.chunk);
}

/** The innermost chunk containing `line` (what `find_related` seeds from), or null in the preamble/gaps. */
export function innermostChunkAt(chunks: readonly Chunk[], line: number): Chunk | null {
  let best: Chunk | null = null;
  for (const c of chunks) {
    if (c.startLine > line || c.endLine < line) continue;
    if (!best || c.endLine - c.startLine < best.endLine - best.startLine || (c.endLine - c.startLine === best.endLine - best.startLine && c.startLine > best.startLine))
      best = c;
  }
  return best;
}

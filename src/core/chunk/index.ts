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
 * TypeScript (.ts, incl. .d.ts), TSX (.tsx), JavaScript (.js .jsx .mjs .cjs): functions,
 *   classes and their methods, interfaces, types, enums, namespaces, components, exported
 *   consts, and value symbols (multi-line objects, arrays, defining calls) with their object
 *   methods, exported or not, CommonJS exports too; the rules in full are at the top of
 *   ecmascript.ts (values and object methods: ecmascript-values.ts).
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
 * C, C++, Java, C#, Kotlin, Swift, Ruby, PHP, Bash, CSS (+ SCSS, Less) and HTML: the rules
 *   are written in the modules that implement them (c-family.ts, classful.ts, scripting.ts,
 *   css.ts, html.ts; the scope and naming rules they share in tags.ts). Which path is which
 *   language: languages.ts.
 * Every other text file (JSON/YAML/TOML keys, Vue/Svelte sections and script blocks, HTML
 *   script blocks, blocks of lines where no parser knows the language): any.ts, the
 *   dispatch the index build uses, which also leaves minified and generated files to the
 *   text index.
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
 * or trait its methods, a namespace/module its declarations, a 'const' object its methods
 * (markdown sections never overlap). `find_related` must therefore seed from the INNERMOST chunk containing a line
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
 *
 * Grammars load LAZILY: Chunker.create loads the runtime and only the `languages` it is
 * given (none by default); `chunk(path, text)` loads the path's grammar the first time a
 * file of that language comes, so a repository without C++ never fetches the 3.4 MB C++
 * grammar. `load(lang)` is idempotent, concurrent calls share one load, and a failed load
 * is forgotten so the next call tries again. A loaded language (and its compiled queries)
 * is shared by every Chunker with the same loader.
 */
import { Language, Parser } from 'web-tree-sitter';
import { QuarryError } from '../errors';
import { BudgetSpent, ParseBudget } from './budget';
import { ChunkCollector } from './collect';
import { GRAMMAR_SPECS, type GrammarSpec, grammarLanguageOf, languageForPath } from './languages';
import { chunkMarkdown } from './markdown';
import { chunkTags, TagsQueries } from './tags';
import type { Chunk, GrammarLanguageId, GrammarLoader } from './types';

export type { Chunk, ChunkType, GrammarLanguageId, GrammarLoader, LanguageId } from './types';
export { GRAMMAR_LANGUAGES, grammarLanguageOf, languageForPath } from './languages';

/** Seed 004's indexed final extensions. */
export const INDEXED_EXTENSIONS: readonly string[] = Object.freeze([
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'rs',
  'md',
  'py',
  'go',
]);

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

/** A grammar as loaded once per loader: the language, what it has of JSX, its compiled queries. */
interface LoadedGrammar {
  language: Language;
  jsxTypes: string[] | null;
  queries: TagsQueries | null;
}

/** Loaded grammars per loader, shared by its Chunkers (a failed load is dropped, so it is retried). */
const loadedByLoader = new WeakMap<GrammarLoader, Map<GrammarLanguageId, Promise<LoadedGrammar>>>();

function loadGrammar(loader: GrammarLoader, id: GrammarLanguageId): Promise<LoadedGrammar> {
  let byId = loadedByLoader.get(loader);
  if (!byId) loadedByLoader.set(loader, (byId = new Map()));
  let loading = byId.get(id);
  if (!loading) {
    loading = (async (): Promise<LoadedGrammar> => {
      const spec: GrammarSpec | undefined = GRAMMAR_SPECS[id];
      if (!spec) throw new Error(`no such grammar language: ${String(id)}`);
      await initRuntime(loader);
      const [wasm, tags] = await Promise.all([
        loader.grammarWasm(id),
        spec.tags ? loader.tagsQuery(id) : null,
      ]);
      const language = await Language.load(wasm);
      const jsx = JSX_NODE_TYPES.filter(
        (t) => language.idForNodeType(t, true) !== null && language.idForNodeType(t, true) !== 0,
      );
      return {
        language,
        jsxTypes: jsx.length > 0 ? jsx : null,
        queries: spec.tags ? new TagsQueries(language, tags, spec.tags) : null,
      };
    })();
    const forget = () => {
      if (byId.get(id) === loading) byId.delete(id);
    };
    loading.catch(forget);
    byId.set(id, loading);
  }
  return loading;
}

interface Grammar extends LoadedGrammar {
  parser: Parser | null;
  spec: GrammarSpec;
}

export interface ChunkerOptions {
  /**
   * Grammars to load up front (default: none). Any other is loaded by `chunk()` or `load()`
   * when first needed; `chunkFile` on a language not loaded yet throws QuarryError('Unreadable').
   */
  languages?: readonly GrammarLanguageId[];
  /**
   * Give up on one file after this much time (default: no limit) and throw
   * QuarryError('Unreadable', data.reason 'parse-timeout'). The budget covers the parse, the
   * tags query and the walk of the tree (budget.ts): deeply nested code parses in a second but
   * its walk is quadratic. Pathological input runs at ~0.1-0.3 MB/s against ~2-4 MB/s for
   * ordinary code (see the throughput test).
   */
  maxParseMs?: number;
}

export class Chunker {
  private readonly grammars = new Map<GrammarLanguageId, Grammar>();
  private readonly loading = new Map<GrammarLanguageId, Promise<void>>();

  private constructor(
    private readonly loader: GrammarLoader,
    private readonly maxParseMs: number | undefined,
  ) {}

  /** Loads the runtime and the `languages` asked for (none by default). */
  static async create(loader: GrammarLoader, options: ChunkerOptions = {}): Promise<Chunker> {
    await initRuntime(loader);
    const chunker = new Chunker(loader, options.maxParseMs);
    await Promise.all((options.languages ?? []).map((id) => chunker.load(id)));
    return chunker;
  }

  /** The grammar languages loaded so far. */
  get loadedLanguages(): GrammarLanguageId[] {
    return [...this.grammars.keys()];
  }

  /**
   * Loads one grammar (its wasm, and its tags.scm where the language uses one). Idempotent;
   * concurrent calls share one load; a failure rejects with QuarryError('Internal') and is
   * not remembered, so the next call tries again.
   */
  load(id: GrammarLanguageId): Promise<void> {
    if (this.grammars.has(id)) return Promise.resolve();
    let pending = this.loading.get(id);
    if (!pending) {
      pending = loadGrammar(this.loader, id).then(
        (loaded) => {
          this.grammars.set(id, { ...loaded, parser: null, spec: GRAMMAR_SPECS[id] });
          this.loading.delete(id);
        },
        (err: unknown) => {
          this.loading.delete(id);
          throw new QuarryError(
            'Internal',
            `Could not load the ${id} grammar: ${err instanceof Error ? err.message : String(err)}`,
            { language: id },
          );
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }

  /**
   * The symbol chunks of one file, loading its grammar first if needed. Rejects with
   * QuarryError('Unreadable') as chunkFile does, and also when the grammar could not be
   * loaded (data.grammarUnavailable; the next file of that language tries again).
   */
  async chunk(path: string, text: string): Promise<Chunk[]> {
    const id = grammarLanguageOf(path);
    if (id !== null && !this.grammars.has(id)) {
      try {
        await this.load(id);
      } catch (err) {
        throw new QuarryError(
          'Unreadable',
          `${err instanceof Error ? err.message : String(err)} (for ${path})`,
          { path, language: id, grammarUnavailable: true },
        );
      }
    }
    return this.chunkFile(path, text);
  }

  /** The symbol chunks of one file whose grammar is loaded, sorted by startLine then larger range first. */
  chunkFile(path: string, text: string): Chunk[] {
    const lang = languageForPath(path);
    if (lang === null) throw new QuarryError('Unreadable', `Not an indexed file type: ${path}`, { path });
    const bom = text.charCodeAt(0) === 0xfeff;
    const chunks =
      lang === 'markdown'
        ? chunkMarkdown(path, bom ? text.slice(1) : text)
        : this.chunkWithGrammar(lang, path, bom ? ' ' + text.slice(1) : text); // a space keeps the columns
    return sortChunks(chunks);
  }

  private chunkWithGrammar(lang: GrammarLanguageId, path: string, text: string): Chunk[] {
    const grammar = this.grammars.get(lang);
    if (!grammar)
      throw new QuarryError('Unreadable', `No ${lang} grammar loaded for ${path}`, { path, language: lang });
    if (text.trim() === '') return [];
    const source = grammar.spec.source ? grammar.spec.source(path, text) : text;
    // one budget for the whole file: the parse, the query and the walk (see budget.ts)
    const budget = this.maxParseMs === undefined ? undefined : new ParseBudget(this.maxParseMs);
    let tree;
    try {
      grammar.parser ??= new Parser().setLanguage(grammar.language);
      if (!budget) tree = grammar.parser.parse(source);
      else {
        tree = grammar.parser.parse(source, null, { progressCallback: budget.progress });
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
      throw new QuarryError(
        'Unreadable',
        `Could not parse ${path}: ${err instanceof Error ? err.message : String(err)}`,
        { path, language: lang },
      );
    }
    if (!tree) {
      if (budget?.spent()) throw this.timedOut(path, lang);
      throw new QuarryError('Unreadable', `Could not parse ${path}`, { path, language: lang });
    }
    try {
      const c = new ChunkCollector(path, text, grammar.spec.attach, budget);
      if (grammar.queries) chunkTags(tree.rootNode, grammar.queries, c, budget);
      else grammar.spec.walk?.(tree.rootNode, c, { text, jsxTypes: grammar.jsxTypes });
      return c.chunks;
    } catch (err) {
      if (err instanceof BudgetSpent) throw this.timedOut(path, lang);
      throw err;
    } finally {
      tree.delete();
    }
  }

  private timedOut(path: string, lang: GrammarLanguageId): QuarryError {
    return new QuarryError('Unreadable', `Parsing ${path} took longer than ${this.maxParseMs} ms`, {
      path,
      language: lang,
      reason: 'parse-timeout',
    });
  }

  /** Frees the parsers (the languages and their queries stay with the runtime, shared). */
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
    if (
      !best ||
      c.endLine - c.startLine < best.endLine - best.startLine ||
      (c.endLine - c.startLine === best.endLine - best.startLine && c.startLine > best.startLine)
    )
      best = c;
  }
  return best;
}

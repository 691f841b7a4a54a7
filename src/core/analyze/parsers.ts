/**
 * Parsers for the analyzers: web-tree-sitter with the TypeScript, TSX and JavaScript
 * grammars, handed in as bytes through the chunker's GrammarLoader port (core never reads
 * files or fetches). The runtime is initialised once per realm by the chunker's
 * initRuntime, so the analyzers and the chunk index share one web-tree-sitter instance.
 *
 * Tools reach the parsers through ToolContext.parsers (a provider, so a context that never
 * runs an analyzer never loads a grammar); `sharedSourceParsers(loader)` is the memoised
 * provider the CLI, MCP server and worker hand in.
 */
import { Language, Parser, type Node } from 'web-tree-sitter';
import { initRuntime } from '../chunk';
import type { GrammarLoader } from '../chunk/types';
import { QuarryError } from '../errors';
import { extensionTable } from '../source/languages';
import { extensionOf } from '../source/types';

export type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

/** JavaScript-family extensions the analyzers parse (.ts/.mts/.cts without JSX; .js/.jsx with it). */
export const SCRIPT_LANGUAGE_BY_EXTENSION: Readonly<Record<string, ScriptLanguage>> = extensionTable(
  (info) =>
    info.chunker === 'typescript' || info.chunker === 'tsx' || info.chunker === 'javascript'
      ? info.chunker
      : undefined,
);

/** The script language of a path by its final extension (case-sensitive, `.d.ts` excluded), or null. */
export function scriptLanguageOf(path: string): ScriptLanguage | null {
  if (path.endsWith('.d.ts') || path.endsWith('.d.mts') || path.endsWith('.d.cts')) return null;
  const ext = extensionOf(path);
  return Object.prototype.hasOwnProperty.call(SCRIPT_LANGUAGE_BY_EXTENSION, ext)
    ? SCRIPT_LANGUAGE_BY_EXTENSION[ext]
    : null;
}

export interface SourceParsers {
  /**
   * Parse one script file and hand its root to `fn`; the tree is freed when `fn` returns, so
   * nodes must not escape. Throws QuarryError('Unreadable') when the path is not a script,
   * the parser fails, or parsing runs past maxParseMs.
   */
  withTree<T>(path: string, text: string, fn: (root: Node, language: ScriptLanguage) => T): T;
}

export interface SourceParsersOptions {
  /** Give up on one file after this much parsing (default 5000 ms; pathological input only). */
  maxParseMs?: number;
}

const LANGUAGES: readonly ScriptLanguage[] = ['typescript', 'tsx', 'javascript'];

class TreeSitterParsers implements SourceParsers {
  private readonly parsers = new Map<ScriptLanguage, Parser>();

  constructor(
    private readonly languages: ReadonlyMap<ScriptLanguage, Language>,
    private readonly maxParseMs: number,
  ) {}

  withTree<T>(path: string, text: string, fn: (root: Node, language: ScriptLanguage) => T): T {
    const lang = scriptLanguageOf(path);
    if (!lang) throw new QuarryError('Unreadable', `Not a script file: ${path}`, { path });
    // A BOM becomes a space so every column stays where the text has it.
    const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
    let parser = this.parsers.get(lang);
    let timedOut = false;
    let tree;
    try {
      if (!parser) {
        parser = new Parser().setLanguage(this.languages.get(lang)!);
        this.parsers.set(lang, parser);
      }
      const deadline = performance.now() + this.maxParseMs;
      // web-tree-sitter cancels when the callback returns true (its .d.ts says void).
      const progressCallback = (() => (timedOut = performance.now() > deadline)) as () => void;
      tree = parser.parse(source, null, { progressCallback });
      if (!tree) parser.reset();
    } catch (err) {
      try {
        parser?.delete();
      } catch {
        /* already unusable */
      }
      this.parsers.delete(lang);
      throw new QuarryError(
        'Unreadable',
        `Could not parse ${path}: ${err instanceof Error ? err.message : String(err)}`,
        { path, language: lang },
      );
    }
    if (!tree) {
      throw new QuarryError(
        'Unreadable',
        timedOut ? `Parsing ${path} took longer than ${this.maxParseMs} ms` : `Could not parse ${path}`,
        timedOut ? { path, language: lang, reason: 'parse-timeout' } : { path, language: lang },
      );
    }
    try {
      return fn(tree.rootNode, lang);
    } finally {
      tree.delete();
    }
  }
}

/** Load the runtime (shared with the chunker) and the three script grammars. */
export async function createSourceParsers(
  loader: GrammarLoader,
  options: SourceParsersOptions = {},
): Promise<SourceParsers> {
  await initRuntime(loader);
  const loaded = await Promise.all(
    LANGUAGES.map(async (id): Promise<[ScriptLanguage, Language]> => {
      try {
        return [id, await Language.load(await loader.grammarWasm(id))];
      } catch (err) {
        throw new QuarryError(
          'Internal',
          `Could not load the ${id} grammar: ${err instanceof Error ? err.message : String(err)}`,
          { language: id },
        );
      }
    }),
  );
  return new TreeSitterParsers(new Map(loaded), options.maxParseMs ?? 5000);
}

const shared = new WeakMap<GrammarLoader, Promise<SourceParsers>>();

/** One SourceParsers per loader for the life of the realm (grammars load once). */
export function sharedSourceParsers(loader: GrammarLoader): Promise<SourceParsers> {
  let p = shared.get(loader);
  if (!p) {
    p = createSourceParsers(loader);
    p.catch(() => shared.delete(loader));
    shared.set(loader, p);
  }
  return p;
}

/** The parsers from a tool context, or a clear error when the host gave none. */
export async function requireParsers(
  provider: (() => Promise<SourceParsers>) | undefined,
  tool: string,
): Promise<SourceParsers> {
  if (!provider) {
    throw new QuarryError(
      'EngineError',
      `${tool} needs the JavaScript/TypeScript parsers, and this host provides none`,
      { tool },
    );
  }
  return provider();
}

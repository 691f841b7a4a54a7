/**
 * Syntax colouring from the grammars' own `queries/highlights.scm` (tree-sitter's highlight
 * queries, shipped in each grammar package): exact in every language Quarry parses, where the
 * viewer's hand-written colourer only approximates by language family. The file is parsed
 * once (the tree kept for the next window), and only the lines asked for are coloured: a
 * viewer asks for what is on screen. Where two captures cover the same text the innermost
 * wins, and between captures of the same node the later pattern (the packages' files put
 * `(identifier) @variable` first and the specific patterns after it; queries.ts orders a
 * grammar that extends another after it).
 */
import { Language, Parser, Query, type Tree } from 'web-tree-sitter';
import { grammarLanguageOf } from '../chunk/languages';
import { initRuntime } from '../chunk/index';
import type { GrammarLanguageId, GrammarLoader } from '../chunk/types';
import { MAX_PARSE_MS } from '../limits';

/** The viewer's token kinds (ui/highlight.ts colours them). */
export type SyntaxKind = 'kw' | 'str' | 'com' | 'num' | 'fn' | 'type' | 'punct';

/** One line's coloured runs: [start column, end column, kind], in order, not overlapping. */
export type LineSpans = Array<[start: number, end: number, kind: SyntaxKind]>;

/** Files over this are left to the hand-written colourer (parsing them would hold the worker). */
export const SYNTAX_MAX_BYTES = 2 * 1024 * 1024;

/**
 * What a capture name means for the viewer (the first part decides: `function.method` is a
 * function). 'plain' is a capture the viewer does not colour (a variable, a property, embedded
 * code): it still takes part, so a variable inside a template string is not coloured as string.
 */
export function kindOfCapture(name: string): SyntaxKind | 'plain' {
  if (name === 'constant.builtin' || name === 'variable.builtin' || name === 'module.builtin') return 'kw';
  if (name === 'constructor' || name === 'tag') return 'type';
  const head = name.split('.')[0];
  switch (head) {
    case 'comment':
      return 'com';
    case 'string':
    case 'escape':
      return 'str';
    case 'number':
      return 'num';
    case 'keyword':
    case 'import':
    case 'media':
    case 'charset':
    case 'keyframes':
    case 'namespace':
    case 'supports':
      return 'kw';
    case 'function':
    case 'attribute':
      return 'fn';
    case 'type':
      return 'type';
    case 'operator':
    case 'punctuation':
    case 'delimiter':
      return 'punct';
    default:
      return 'plain'; // variables, properties, labels, modules, embedded code
  }
}

interface Loaded {
  language: Language;
  query: Query;
}

/** A parsed file whose lines can be coloured window by window. */
export interface ParsedSyntax {
  readonly language: GrammarLanguageId;
  /** Coloured runs of lines `from`..`to` (1-based, inclusive), one entry per line. */
  lines(from: number, to: number): LineSpans[];
  /** Free the tree (wasm memory). */
  dispose(): void;
}

export class SyntaxColourer {
  private readonly loaded = new Map<GrammarLanguageId, Promise<Loaded | null>>();
  private parser: Parser | null = null;

  constructor(private readonly loader: GrammarLoader) {}

  /** Whether a path's language has a grammar with a highlight query (without loading anything). */
  static covers(path: string): boolean {
    return grammarLanguageOf(path) !== null;
  }

  /** The language's grammar and compiled query, or null when it has no highlight query (or it does not compile). */
  private load(id: GrammarLanguageId): Promise<Loaded | null> {
    let p = this.loaded.get(id);
    if (!p) {
      p = (async () => {
        const source = await this.loader.highlightsQuery?.(id);
        if (!source) return null;
        await initRuntime(this.loader);
        const language = await Language.load(await this.loader.grammarWasm(id));
        try {
          return { language, query: new Query(language, source) };
        } catch {
          return null;
        }
      })();
      p.catch(() => this.loaded.delete(id));
      this.loaded.set(id, p);
    }
    return p;
  }

  /** Parse a file for colouring; null when its language has no grammar or query, it is too large, or parsing failed. */
  async parse(path: string, text: string): Promise<ParsedSyntax | null> {
    const id = grammarLanguageOf(path);
    if (!id || text.length > SYNTAX_MAX_BYTES) return null;
    const loaded = await this.load(id);
    if (!loaded) return null;
    const parser = (this.parser ??= new Parser());
    parser.setLanguage(loaded.language);
    const deadline = performance.now() + MAX_PARSE_MS;
    let tree: Tree | null;
    try {
      // web-tree-sitter cancels when the callback returns true
      const progressCallback = (() => performance.now() > deadline) as () => void;
      tree = parser.parse(text, null, { progressCallback });
    } catch {
      this.parser?.delete();
      this.parser = null;
      return null;
    }
    if (!tree) {
      parser.reset();
      return null;
    }
    return parsedSyntax(id, tree, loaded.query, text);
  }
}

function parsedSyntax(language: GrammarLanguageId, tree: Tree, query: Query, text: string): ParsedSyntax {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  let alive = true;
  return {
    language,
    lines(from, to) {
      const first = Math.max(1, from);
      const last = Math.min(lineStarts.length, to);
      if (!alive || last < first) return [];
      return colourLines(tree, query, text, lineStarts, first, last);
    },
    dispose() {
      if (alive) tree.delete();
      alive = false;
    },
  };
}

function colourLines(
  tree: Tree,
  query: Query,
  text: string,
  lineStarts: number[],
  first: number,
  last: number,
): LineSpans[] {
  const start = lineStarts[first - 1];
  const end = last < lineStarts.length ? lineStarts[last] - 1 : text.length;
  // per character of the window: the kind, and the span length and pattern that set it
  const kinds: Array<SyntaxKind | 'plain' | null> = new Array(end - start).fill(null);
  const width = new Array<number>(end - start).fill(Infinity);
  const pattern = new Array<number>(end - start).fill(-1);
  for (const c of query.captures(tree.rootNode, { startIndex: start, endIndex: end })) {
    const kind = kindOfCapture(c.name);
    // web-tree-sitter indexes are UTF-16 code units, as JavaScript strings are
    const s = Math.max(c.node.startIndex, start);
    const e = Math.min(c.node.endIndex, end);
    const w = c.node.endIndex - c.node.startIndex;
    for (let i = s; i < e; i++) {
      const k = i - start;
      if (w < width[k] || (w === width[k] && c.patternIndex >= pattern[k])) {
        kinds[k] = kind;
        width[k] = w;
        pattern[k] = c.patternIndex;
      }
    }
  }
  const out: LineSpans[] = [];
  for (let line = first; line <= last; line++) {
    const ls = lineStarts[line - 1];
    const le = line < lineStarts.length ? lineStarts[line] - 1 : text.length;
    const spans: LineSpans = [];
    let runStart = -1;
    let runKind: SyntaxKind | null = null;
    for (let i = ls; i <= le; i++) {
      const at = i < le ? kinds[i - start] : null;
      const k = at === 'plain' ? null : at;
      if (k === runKind) continue;
      if (runKind) spans.push([runStart - ls, i - ls, runKind]);
      runKind = k;
      runStart = i;
    }
    out.push(spans);
  }
  return out;
}

/**
 * The workspace's symbols by name, built once from the code index's chunks (every language the
 * index parses: tree-sitter `tags.scm` definitions where the grammar ships them, the chunkers'
 * own symbols otherwise). Lookups are by the short name a symbol is called by.
 */
import type { Chunk, ChunkType } from '../chunk/types';
import { shortName } from './identifier';

/** Chunk types that define a name code can refer to (not a fallback block, a heading, a JSON key, a CSS rule, an HTML id, or a Rust `impl` block, which names the type it is for). */
export const DEFINITION_TYPES: ReadonlySet<ChunkType> = new Set<ChunkType>([
  'function',
  'method',
  'class',
  'interface',
  'type',
  'enum',
  'const',
  'component',
  'struct',
  'trait',
  'module',
  'macro',
]);

export class SymbolTable {
  private readonly byName = new Map<string, Chunk[]>();
  /** Every definition, in the order added (the index's order). */
  readonly all: Chunk[] = [];

  static from(chunks: Iterable<Chunk>): SymbolTable {
    const table = new SymbolTable();
    for (const c of chunks) table.add(c);
    return table;
  }

  add(chunk: Chunk): void {
    if (!DEFINITION_TYPES.has(chunk.chunkType) || !chunk.symbolName) return;
    const name = shortName(chunk.symbolName);
    const list = this.byName.get(name);
    if (list) list.push(chunk);
    else this.byName.set(name, [chunk]);
    this.all.push(chunk);
  }

  /** The definitions called `name` (case-sensitive). */
  lookup(name: string): readonly Chunk[] {
    return this.byName.get(name) ?? [];
  }

  get size(): number {
    return this.all.length;
  }
}

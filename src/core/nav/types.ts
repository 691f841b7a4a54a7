/** The shapes of code navigation (plain data: they cross the worker boundary). */
import type { ChunkType } from '../chunk/types';

/** One definition of a name: a symbol chunk of the index, and the line its name is on. */
export interface SymbolDefinition {
  path: string;
  /** 1-based line of the name inside the chunk (the chunk's first line when the name is not found). */
  line: number;
  /** UTF-16 column range of the name on that line ([0, 0] when not found). */
  column: [start: number, end: number];
  startLine: number;
  endLine: number;
  /** The chunk's symbol name (`Owner.method` for a method). */
  symbolName: string;
  chunkType: ChunkType;
  /** Why it ranks where it does. */
  rank: DefinitionRank;
  /** The name's line, for the picker (cut to 200 characters). */
  text: string;
  /** The signature from the name's line on, for a hover card ('' when unread); see doc-comment.ts. */
  signature: string;
  /** The doc comment above it (or a Python docstring), markers taken off ('' when none). */
  doc: string;
}

/**
 * Ranked in this order: the file asked from, files it imports, its folder, then the rest; then,
 * when some definition has a body, the declarations (a header's prototype, an overload
 * signature, a `.d.ts`): see definitions.ts. The body behind an imported declaration ranks as imported.
 */
export type DefinitionRank = 'same file' | 'imported' | 'same folder' | 'workspace' | 'declaration';

export interface DefinitionsResult {
  name: string;
  definitions: SymbolDefinition[];
  /** Always true: found by name in the symbol index, not by a type checker. */
  searchBased: true;
}

/** One reference: a whole-word, case-sensitive occurrence of the name. */
export interface ReferenceLine {
  line: number;
  text: string;
  ranges: [number, number][];
  /** The line is one of the name's definitions. */
  definition?: boolean;
}

export interface ReferenceFile {
  path: string;
  lines: ReferenceLine[];
}

export interface ReferencesResult {
  name: string;
  /** Grouped by file: files holding a definition first, then the file asked from, then walk order. */
  files: ReferenceFile[];
  total: number;
  /** More occurrences exist than were listed. */
  limitHit: boolean;
  searchBased: true;
}

/** A node of a file's outline: a symbol and the symbols inside its range. */
export interface OutlineNode {
  name: string;
  chunkType: ChunkType;
  startLine: number;
  endLine: number;
  /** Line of the name (the first line of the range when not found). */
  line: number;
  children: OutlineNode[];
}

/** A hit of "Go to symbol in workspace". */
export interface WorkspaceSymbolHit {
  name: string;
  chunkType: ChunkType;
  path: string;
  line: number;
  score: number;
  /** Indexes into `name` of the characters that matched the query. */
  positions: number[];
}

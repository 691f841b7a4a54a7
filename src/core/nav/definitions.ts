/**
 * Go to definition, search-based: the symbol index's chunks called by the name, each placed on
 * the line its name is on, ranked the way a reader guesses — the file asked from, then the
 * files it imports, its folder, then the rest of the workspace (path order within a tier).
 * Definitions with a body come before declarations (declarations.ts: a header's prototype, an
 * overload signature, a `.d.ts`), which are then ranked 'declaration'; a body takes the best
 * tier of the declarations it implements (the source behind an imported header ranks as imported).
 */
import type { Chunk } from '../chunk/types';
import { definitionShape, implementsDeclaration } from './declarations';
import { symbolDoc } from './doc-comment';
import type { FileImports } from './file-imports';
import { wholeWordRanges } from './identifier';
import type { DefinitionRank, SymbolDefinition } from './types';

const TIERS: DefinitionRank[] = ['same file', 'imported', 'same folder', 'workspace'];
const TEXT_CHARS = 200;
/** A line that is only a comment (or the inside of a block comment / docstring) does not hold the definition's name. */
const COMMENT = /^\s*(\/\/|\/\*|\*|#(?!\s*(define|if|include))|--|;|"""|''')/;

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The line (1-based) and column range of `name` in a chunk: the first non-comment line that has it as a whole word. */
export function nameLine(
  chunk: Pick<Chunk, 'startLine' | 'endLine'>,
  name: string,
  lines: readonly string[] | null,
): { line: number; column: [number, number] } {
  if (lines) {
    let fallback: { line: number; column: [number, number] } | null = null;
    const last = Math.min(chunk.endLine, lines.length);
    for (let l = Math.max(chunk.startLine, 1); l <= last; l++) {
      const ranges = wholeWordRanges(lines[l - 1], name);
      if (!ranges.length) continue;
      if (!COMMENT.test(lines[l - 1])) return { line: l, column: ranges[0] };
      fallback ??= { line: l, column: ranges[0] };
    }
    if (fallback) return fallback;
  }
  return { line: chunk.startLine, column: [0, 0] };
}

export interface DefinitionQuery {
  name: string;
  /** The file the name was clicked in ('' when asked from nowhere, e.g. the symbol picker). */
  from: string;
  imports: FileImports;
}

/** Where a definition in `path` ranks for this query. */
export function definitionTier(query: DefinitionQuery, path: string): DefinitionRank {
  if (path === query.from) return 'same file';
  if (query.imports.files.has(path) || query.imports.dirs.has(dirOf(path))) return 'imported';
  return query.from && dirOf(path) === dirOf(query.from) ? 'same folder' : 'workspace';
}

/** Candidates in rank order before their lines are read (tier, path, line): cut this list, then read only what is kept. */
export function byTier<T extends Pick<Chunk, 'path' | 'startLine'>>(
  query: DefinitionQuery,
  candidates: readonly T[],
): T[] {
  const keyed = candidates.map((c) => ({ c, t: TIERS.indexOf(definitionTier(query, c.path)) }));
  keyed.sort(
    (a, b) =>
      a.t - b.t || (a.c.path < b.c.path ? -1 : a.c.path > b.c.path ? 1 : 0) || a.c.startLine - b.c.startLine,
  );
  return keyed.map((k) => k.c);
}

export function rankDefinitions(
  query: DefinitionQuery,
  candidates: readonly Chunk[],
  linesOf: (path: string) => readonly string[] | null,
): SymbolDefinition[] {
  const seen = new Set<string>();
  const found: { def: SymbolDefinition; tier: number; declaration: boolean; fileLocal: boolean }[] = [];
  for (const c of candidates) {
    const lines = linesOf(c.path);
    const at = nameLine(c, query.name, lines);
    const key = `${c.path}\n${at.line}`;
    if (seen.has(key)) continue; // the same name line reached through nested chunks
    seen.add(key);
    const rank = definitionTier(query, c.path);
    const def: SymbolDefinition = {
      path: c.path,
      line: at.line,
      column: at.column,
      startLine: c.startLine,
      endLine: c.endLine,
      symbolName: c.symbolName,
      chunkType: c.chunkType,
      rank,
      text: (lines?.[at.line - 1] ?? '').trim().slice(0, TEXT_CHARS),
      ...symbolDoc(lines, at.line),
    };
    found.push({ def, tier: TIERS.indexOf(rank), ...definitionShape(c, lines) });
  }
  // with a body to go to, declarations follow every body, and a body ranks with the declarations it implements
  const bodies = found.some((f) => !f.declaration);
  if (bodies) {
    for (const f of found) {
      if (!f.declaration)
        for (const d of found)
          if (
            d.declaration &&
            d.tier < f.tier &&
            implementsDeclaration({ path: f.def.path, fileLocal: f.fileLocal }, d.def)
          )
            f.tier = d.tier;
    }
    for (const f of found) f.def.rank = f.declaration ? 'declaration' : TIERS[f.tier];
  }
  const last = (f: (typeof found)[number]) => (bodies && f.declaration ? 1 : 0);
  found.sort(
    (a, b) =>
      last(a) - last(b) ||
      a.tier - b.tier ||
      (a.def.path < b.def.path ? -1 : a.def.path > b.def.path ? 1 : 0) ||
      a.def.line - b.def.line,
  );
  return found.map((f) => f.def);
}

/**
 * `type:symbol`: the symbol table's definitions whose names match the query's pattern, ranked
 * as Go to Symbol (Ctrl+T) ranks them for a literal (the fuzzy match of core/nav/fuzzy.ts:
 * word starts, runs, short names first), and by the regex's hits for a /regex/; the query's
 * file:, lang: and root: filters narrow by path.
 */
import type { Chunk } from '../chunk/types';
import { compileMatcher, type CaseMode } from '../grep/regex';
import { fuzzyScore, preparePath, type PreparedPath } from '../nav/fuzzy';
import type { SymbolTable } from '../nav/symbol-table';
import type { PathTest } from '../walk/glob';
import type { LeafPattern } from './plan';

/** One root's symbols; `prepared` is filled on first use and may be kept by the caller. */
export interface SymbolSource {
  prefix: string;
  table: SymbolTable;
  prepared?: { chunk: Chunk; name: PreparedPath }[];
}

export interface SymbolMatch {
  chunk: Chunk;
  prefix: string;
  /** Workspace path (with the root's prefix). */
  path: string;
  score: number;
  /** Indexes into the symbol's name of the characters that matched. */
  positions: number[];
}

export interface SymbolSearchOptions {
  /** Tested on the root-relative path. */
  pathTest: PathTest | null;
  caseMode: CaseMode;
  limit: number;
}

function scorer(name: LeafPattern | null, caseMode: CaseMode) {
  if (!name) return (_n: PreparedPath) => ({ score: 0, positions: [] as number[] });
  if (name.mode === 'literal') return (n: PreparedPath) => fuzzyScore(n, name.pattern);
  const matcher = compileMatcher(name.pattern, { mode: 'regex', caseMode });
  return (n: PreparedPath) => {
    const hits = matcher.lineHits(n.path);
    if (!hits.length) return null;
    const positions: number[] = [];
    for (const [a, b] of hits) for (let i = a; i < b; i++) positions.push(i);
    // a hit that is the whole name first, then at a word start, then shorter names
    const [a, b] = hits[0];
    return {
      score: (a === 0 && b === n.path.length ? 2 : a === 0 ? 1 : 0) * 100 - n.path.length / 100,
      positions,
    };
  };
}

/** The best `limit` symbols matching `name` (every symbol when null) under the path test. */
export function searchSymbols(
  sources: SymbolSource[],
  name: LeafPattern | null,
  opts: SymbolSearchOptions,
): SymbolMatch[] {
  const score = scorer(name, opts.caseMode);
  const hits: SymbolMatch[] = [];
  for (const source of sources) {
    source.prepared ??= source.table.all.map((chunk) => ({ chunk, name: preparePath(chunk.symbolName) }));
    for (const { chunk, name: prepared } of source.prepared) {
      if (opts.pathTest && !opts.pathTest(chunk.path)) continue;
      const hit = score(prepared);
      if (!hit) continue;
      hits.push({
        chunk,
        prefix: source.prefix,
        path: source.prefix + chunk.path,
        score: hit.score,
        positions: hit.positions,
      });
    }
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      a.chunk.symbolName.length - b.chunk.symbolName.length ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.chunk.startLine - b.chunk.startLine,
  );
  return hits.slice(0, opts.limit);
}

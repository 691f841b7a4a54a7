/**
 * Find references, search-based: the name's whole-word, case-sensitive occurrences (the text
 * search with the trigram index), grouped by file — the files holding a definition first, then
 * the file asked from, then the search's walk order — with definition lines marked. Files
 * arrive one at a time (the panel fills as the search goes); the order is kept as they come.
 */
import type { GrepFileResult } from '../grep/types';
import type { ReferenceFile, ReferencesResult, SymbolDefinition } from './types';

/** A searched file as a group of references, its definition lines marked and leading. */
export function referenceFile(r: GrepFileResult, definitionLines: ReadonlySet<string>): ReferenceFile {
  const lines = r.matches.map((m) => ({
    line: m.line,
    text: m.text,
    ranges: m.ranges.map(([a, b]) => [a, b] as [number, number]),
    ...(definitionLines.has(`${r.path}\n${m.line}`) ? { definition: true } : {}),
  }));
  lines.sort((a, b) => Number(!!b.definition) - Number(!!a.definition) || a.line - b.line);
  return { path: r.path, lines };
}

/** `path\nline` of each definition, for referenceFile. */
export function definitionLines(
  definitions: readonly Pick<SymbolDefinition, 'path' | 'line'>[],
): Set<string> {
  return new Set(definitions.map((d) => `${d.path}\n${d.line}`));
}

/**
 * Files with a definition first (in `rank` order when given: the definitions' ranking by
 * path), then the file asked from, then the rest; arrival order within each.
 */
export function orderReferenceFiles(
  files: readonly ReferenceFile[],
  from: string,
  rank?: ReadonlyMap<string, number>,
): ReferenceFile[] {
  const tier = (f: ReferenceFile) => (f.lines.some((l) => l.definition) ? 0 : f.path === from ? 1 : 2);
  const r = (f: ReferenceFile) => rank?.get(f.path) ?? Number.MAX_SAFE_INTEGER;
  return files
    .map((f, i) => ({ f, i, t: tier(f) }))
    .sort((a, b) => a.t - b.t || (a.t === 0 ? r(a.f) - r(b.f) : 0) || a.i - b.i)
    .map((x) => x.f);
}

/** Each definition file's first place in a ranked definitions list. */
export function definitionRanks(definitions: readonly Pick<SymbolDefinition, 'path'>[]): Map<string, number> {
  const rank = new Map<string, number>();
  definitions.forEach((d, i) => rank.has(d.path) || rank.set(d.path, i));
  return rank;
}

export function groupReferences(
  name: string,
  from: string,
  results: readonly GrepFileResult[],
  definitions: readonly SymbolDefinition[],
  summary: { total: number; limitHit: boolean },
): ReferencesResult {
  const marks = definitionLines(definitions);
  const files = results.map((r) => referenceFile(r, marks));
  return {
    name,
    files: orderReferenceFiles(files, from, definitionRanks(definitions)),
    total: summary.total,
    limitHit: summary.limitHit,
    searchBased: true,
  };
}

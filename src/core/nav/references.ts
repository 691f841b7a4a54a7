/**
 * Find references, search-based: the name's whole-word, case-sensitive occurrences (the text
 * search with the trigram index), grouped by file — the files holding a definition first, then
 * the file asked from, then the search's walk order — with definition lines marked.
 */
import type { GrepFileResult } from '../grep/types';
import type { ReferenceFile, ReferencesResult, SymbolDefinition } from './types';

export function groupReferences(
  name: string,
  from: string,
  results: readonly GrepFileResult[],
  definitions: readonly SymbolDefinition[],
  summary: { total: number; limitHit: boolean },
): ReferencesResult {
  const defLines = new Set(definitions.map((d) => `${d.path}\n${d.line}`));
  const defFiles = new Map<string, number>();
  definitions.forEach((d, i) => {
    if (!defFiles.has(d.path)) defFiles.set(d.path, i);
  });
  const files: ReferenceFile[] = results.map((r) => ({
    path: r.path,
    lines: r.matches.map((m) => ({
      line: m.line,
      text: m.text,
      ranges: m.ranges.map(([a, b]) => [a, b] as [number, number]),
      ...(defLines.has(`${r.path}\n${m.line}`) ? { definition: true } : {}),
    })),
  }));
  const order = (f: ReferenceFile, i: number): [number, number] => [defFiles.has(f.path) ? 0 : f.path === from ? 1 : 2, defFiles.get(f.path) ?? i];
  const keyed = files.map((f, i) => ({ f, k: order(f, i) }));
  keyed.sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1]);
  // within a definition's file, its definition line leads
  for (const { f } of keyed) f.lines.sort((a, b) => Number(!!b.definition) - Number(!!a.definition) || a.line - b.line);
  return { name, files: keyed.map((x) => x.f), total: summary.total, limitHit: summary.limitHit, searchBased: true };
}

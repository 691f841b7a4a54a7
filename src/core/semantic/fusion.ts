/**
 * Hybrid ranking: the identifier-aware Ranked list (rank/people.ts) and the vector list
 * merged by balanced interleaving, one fixed method with nothing to tune per repository:
 * the best chunk of the Ranked list, then the best of the vector list not yet taken, then the
 * Ranked list's next, and so on (each list's top FUSION_DEPTH). A chunk's place is never
 * worse than about twice its place in either list, so whichever list is right on a question
 * (they are right on different questions) puts its answer near the top; the Ranked list
 * goes first because its best hit is right more often. Chosen on the tuning set (lodash) over
 * reciprocal rank fusion (k = 60 and k = 1) and score sums (min-max and z normalised); see
 * docs/design.md.
 * Exact identifiers come first: a chunk whose symbol name is an identifier the query spells
 * out (`writeBlob`, `user_id`, `KeepAlive.setup`, or the whole query as one identifier) is
 * never below a chunk that only resembles the question; those chunks keep the lexical order.
 * A hit's score is 1 / its place in the merged list.
 */
import type { IndexedChunk } from '../rank/bm25';
import type { RankedChunkHit } from '../rank/ranked';
import type { SemanticHit } from './index';

export const FUSION_DEPTH = 50;

export interface FusedHit {
  chunk: IndexedChunk;
  score: number;
  /** 1-based ranks in each list, when the chunk is in its top FUSION_DEPTH */
  lexicalRank?: number;
  semanticRank?: number;
  similarity?: number;
  /** the index terms the lexical ranking matched */
  terms: string[];
  exactIdentifier: boolean;
}

/** Identifiers the query spells out: code-shaped tokens (camelCase, snake_case, dotted, `$`, digits), or the query itself when it is one word. */
export function queryIdentifiers(query: string): string[] {
  const tokens = query.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*/g) ?? [];
  const single = query.trim().split(/\s+/).length === 1;
  return [
    ...new Set(tokens.filter((t) => single || /[a-z][A-Z]|[A-Z]{2}[a-z]|_|\$|\.|::|#|[A-Za-z][0-9]/.test(t))),
  ];
}

const key = (c: IndexedChunk) => `${c.path}\0${c.startLine}\0${c.endLine}`;

/** True when the chunk's symbol (whole, or its last segment) is one of the identifiers (case-insensitive). */
export function isExactIdentifier(chunk: IndexedChunk, identifiers: readonly string[]): boolean {
  if (!identifiers.length || !chunk.symbolName) return false;
  const name = chunk.symbolName.toLowerCase();
  const last = name.split(/\.|::|#/).pop() ?? name;
  return identifiers.some((id) => {
    const i = id.toLowerCase();
    return i === name || i === last || (i.includes('.') && name.endsWith('.' + i));
  });
}

export function fuse(
  query: string,
  lexical: readonly RankedChunkHit[],
  semantic: readonly SemanticHit[],
  limit: number,
): FusedHit[] {
  const ids = queryIdentifiers(query);
  const byKey = new Map<string, FusedHit>();
  const entry = (chunk: IndexedChunk): FusedHit => {
    const k = key(chunk);
    let e = byKey.get(k);
    if (!e)
      byKey.set(k, (e = { chunk, score: 0, terms: [], exactIdentifier: isExactIdentifier(chunk, ids) }));
    return e;
  };
  const lex = lexical.slice(0, FUSION_DEPTH);
  const vec = semantic.slice(0, FUSION_DEPTH);
  lex.forEach((h, i) => {
    const e = entry(h.chunk);
    e.lexicalRank = i + 1;
    e.terms = [...new Set(h.components.flatMap((c) => c.via))];
    if (h.exactSymbol) e.exactIdentifier = true;
  });
  vec.forEach((h, i) => {
    const e = entry(h.chunk);
    e.semanticRank = i + 1;
    e.similarity = h.similarity;
  });
  // interleaved: Ranked's next, then the vectors' next, skipping chunks already placed
  const merged: FusedHit[] = [];
  const placed = new Set<FusedHit>();
  const take = (list: readonly { chunk: IndexedChunk }[], at: { i: number }) => {
    while (at.i < list.length) {
      const e = byKey.get(key(list[at.i++].chunk))!;
      if (placed.has(e)) continue;
      placed.add(e);
      merged.push(e);
      return;
    }
  };
  const li = { i: 0 };
  const vi = { i: 0 };
  while (li.i < lex.length || vi.i < vec.length) {
    take(lex, li);
    take(vec, vi);
  }
  // exact identifiers first (in the lexical order), the rest as merged
  const exact = merged
    .filter((e) => e.exactIdentifier)
    .sort((a, b) => (a.lexicalRank ?? Infinity) - (b.lexicalRank ?? Infinity));
  const out = [...exact, ...merged.filter((e) => !e.exactIdentifier)].slice(0, limit);
  out.forEach((e, i) => (e.score = 1 / (i + 1)));
  return out;
}

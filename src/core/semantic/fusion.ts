/**
 * Hybrid ranking: the identifier-aware Ranked list (rank/people.ts) and the vector list
 * fused by Reciprocal Rank Fusion, one fixed method with no weights to tune per repository:
 *   score(chunk) = 1 / (RRF_K + lexical rank) + 1 / (RRF_K + semantic rank)
 * over the top FUSION_DEPTH of each list (a list the chunk is not in adds nothing). Ranks
 * are 1-based. RRF_K = 60 is the constant of Cormack, Clarke and Büttcher (2009).
 * Exact identifiers come first: a chunk whose symbol name is an identifier the query spells
 * out (`writeBlob`, `user_id`, `KeepAlive.setup`, or the whole query as one identifier) is
 * never below a chunk that only resembles the question; those chunks keep the lexical order.
 */
import type { IndexedChunk } from '../rank/bm25';
import type { PeopleHit } from '../rank/people';
import type { SemanticHit } from './index';

export const RRF_K = 60;
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
  return [...new Set(tokens.filter((t) => single || /[a-z][A-Z]|[A-Z]{2}[a-z]|_|\$|\.|::|#|[A-Za-z][0-9]/.test(t)))];
}

const key = (c: IndexedChunk) => `${c.path}\0${c.startLine}\0${c.endLine}`;

/** True when the chunk's symbol (whole, or its last segment) is one of the identifiers (case-insensitive). */
export function isExactIdentifier(chunk: IndexedChunk, identifiers: readonly string[]): boolean {
  if (!identifiers.length || !chunk.symbolName) return false;
  const name = chunk.symbolName.toLowerCase();
  const last = name.split(/\.|::|#/).pop() ?? name;
  return identifiers.some((id) => {
    const i = id.toLowerCase();
    return i === name || i === last || (i.includes('.') && name.endsWith(i));
  });
}

export function fuse(query: string, lexical: readonly PeopleHit[], semantic: readonly SemanticHit[], limit: number): FusedHit[] {
  const ids = queryIdentifiers(query);
  const byKey = new Map<string, FusedHit>();
  const entry = (chunk: IndexedChunk): FusedHit => {
    const k = key(chunk);
    let e = byKey.get(k);
    if (!e) byKey.set(k, (e = { chunk, score: 0, terms: [], exactIdentifier: isExactIdentifier(chunk, ids) }));
    return e;
  };
  lexical.slice(0, FUSION_DEPTH).forEach((h, i) => {
    const e = entry(h.chunk);
    e.lexicalRank = i + 1;
    e.score += 1 / (RRF_K + i + 1);
    e.terms = [...new Set(h.components.flatMap((c) => c.via))];
    if (h.exactSymbol) e.exactIdentifier = true;
  });
  semantic.slice(0, FUSION_DEPTH).forEach((h, i) => {
    const e = entry(h.chunk);
    e.semanticRank = i + 1;
    e.similarity = h.similarity;
    e.score += 1 / (RRF_K + i + 1);
  });
  const all = [...byKey.values()];
  all.sort(
    (a, b) =>
      Number(b.exactIdentifier) - Number(a.exactIdentifier) ||
      (a.exactIdentifier && b.exactIdentifier ? (a.lexicalRank ?? Infinity) - (b.lexicalRank ?? Infinity) : 0) ||
      b.score - a.score ||
      (a.lexicalRank ?? Infinity) - (b.lexicalRank ?? Infinity) ||
      (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : a.chunk.startLine - b.chunk.startLine),
  );
  return all.slice(0, limit);
}

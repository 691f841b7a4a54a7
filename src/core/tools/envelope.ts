/**
 * Seed 004's success envelope, shared by codebase_search and find_related. Field names,
 * route strings and the nested search.route ("rust-tfidf" for both tools) are the seed's,
 * so a client written against that contract works unchanged; product and engine name Quarry.
 */
import type { RefreshStats } from '../rank/service';
import { ENGINE, PRODUCT, PRODUCT_VERSION } from '../version';

export const ROUTE_TFIDF = 'rust-tfidf';
export const ROUTE_RELATED = 'rust-related';

export interface EnvelopeHit {
  path: string;
  startLine: number;
  endLine: number;
  /** Absent for a chunk that is a whole file (chunkType 'file'). */
  symbolName?: string;
  chunkType: string;
  score: number;
  matchedTerms: string[];
  scoreComponents: Array<{
    term: string;
    termFrequency: number;
    documentFrequency: number;
    idf: number;
    bm25: number;
  }>;
  snippet: string | null;
}

export interface Envelope {
  envelope_version: '1';
  status: 'ok';
  tool: string;
  product: string;
  product_version: string;
  engine: string;
  route: string;
  warnings: string[];
  gaps: string[];
  confidence: { kind: 'deterministic'; notes: string[] };
  query: string;
  results: EnvelopeHit[];
  search: { elapsedMs: number; route: string };
  index: {
    filesScanned: number;
    chunksIndexed: number;
    elapsedMs: number;
    refreshMode: RefreshStats['refreshMode'];
    filesChanged: number;
    filesRemoved: number;
  };
}

export function envelope(
  tool: string,
  route: string,
  query: string,
  results: EnvelopeHit[],
  searchMs: number,
  stats: RefreshStats,
): Envelope {
  return {
    envelope_version: '1',
    status: 'ok',
    tool,
    product: PRODUCT,
    product_version: PRODUCT_VERSION,
    engine: ENGINE,
    route,
    warnings: [],
    gaps: [],
    confidence: { kind: 'deterministic', notes: [] },
    query,
    results,
    search: { elapsedMs: searchMs, route: ROUTE_TFIDF },
    index: {
      filesScanned: stats.filesScanned,
      chunksIndexed: stats.chunksIndexed,
      elapsedMs: stats.elapsedMs,
      refreshMode: stats.refreshMode,
      filesChanged: stats.filesChanged,
      filesRemoved: stats.filesRemoved,
    },
  };
}

/**
 * Ranked across roots, the one way every host does it: each root ranks its own chunks with its
 * own statistics (as zoekt scores each shard), and the hits merge by score, ties broken by
 * workspace path, then line. ranked_search, the app's Ranked mode and explore's focus use it.
 */
import type { ChunkIndex } from '../rank/bm25';
import type { IndexedChunk } from '../rank/indexed-chunk';
import { rankChunks, type RankedChunkHit } from '../rank/ranked';

export interface RankedPart {
  /** What the part's paths need in front to be workspace paths. */
  prefix: string;
  index: ChunkIndex;
}

export interface MergedHit<P extends RankedPart> {
  hit: RankedChunkHit;
  part: P;
  /** Workspace path. */
  path: string;
}

export function rankAcrossRoots<P extends RankedPart>(
  parts: readonly P[],
  query: string,
  limit: number,
  filter?: (part: P, chunk: IndexedChunk) => boolean,
): Array<MergedHit<P>> {
  return parts
    .flatMap((part) =>
      rankChunks(part.index, query, limit, filter ? (c) => filter(part, c) : undefined).map((hit) => ({
        hit,
        part,
        path: part.prefix + hit.chunk.path,
      })),
    )
    .sort(
      (a, b) =>
        b.hit.score - a.hit.score ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : a.hit.chunk.startLine - b.hit.chunk.startLine),
    )
    .slice(0, limit);
}

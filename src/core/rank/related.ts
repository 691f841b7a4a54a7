/**
 * The Related panel's one step: the innermost chunk at `line` is the seed, its text (the
 * file's lines as indexed) feeds relatedChunks (related-people.ts: similarity normalised
 * for size, siblings before containers). find_related itself answers from seed 004's engine,
 * and ChunkIndex.related() keeps the seed's formula.
 * null when there is no seed: a path not in the index, a preamble line, an unreadable file.
 */
import { chunkText, type ChunkIndex, type IndexedChunk } from './bm25';
import { relatedChunks, type RelatedChunkHit } from './related-ranked';

export interface RelatedAtLine {
  seed: IndexedChunk;
  related: RelatedChunkHit[];
}

export async function relatedAtLine(
  index: ChunkIndex,
  path: string,
  line: number,
  readLines: () => Promise<string[] | null>,
  limit: number,
): Promise<RelatedAtLine | null> {
  const seed = index.chunkAt(path, line);
  if (!seed) return null;
  const lines = await readLines();
  if (!lines) return null;
  return {
    seed,
    related: relatedChunks(index, seed, chunkText(lines, seed.startLine, seed.endLine), limit),
  };
}

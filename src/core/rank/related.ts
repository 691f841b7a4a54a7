/**
 * find_related's one step, shared by the tool and the worker's Related panel: the innermost
 * chunk at `line` is the seed, its text (the file's lines as indexed) feeds index.related().
 * null when there is no seed: a path not in the index, a preamble line, an unreadable file.
 */
import { chunkText, type ChunkIndex, type IndexedChunk } from './bm25';

export interface RelatedAtLine {
  seed: IndexedChunk;
  related: ReturnType<ChunkIndex['related']>;
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
  return { seed, related: index.related(seed, chunkText(lines, seed.startLine, seed.endLine), limit) };
}

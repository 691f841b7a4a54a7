/**
 * What the chunk index stores per chunk and per file, and the chunk texts it is built from:
 * a chunk's text (its lines joined by '\n'), its snippet, and strings that do not keep a
 * whole file's text alive.
 */
import type { Chunk } from '../chunk/types';

export const SNIPPET_CHARS = 360;

export interface IndexedChunk extends Chunk {
  /** Tokens in the chunk text, with repeats (BM25's document length). */
  tokenCount: number;
  /** Distinct tokens (find_related's set size). */
  uniqueCount: number;
  /** First SNIPPET_CHARS characters of the chunk text. */
  snippet: string;
}

export interface FileMeta {
  size: number;
  mtimeMs: number;
}

export interface FileEntry extends FileMeta {
  chunkIds: number[];
  /** Distinct term ids of the file's chunks, so removal touches only their postings. */
  terms: number[];
}

/** The first SNIPPET_CHARS characters of chunkText(lines, startLine, endLine), as an own string. */
export function snippetOf(lines: string[], startLine: number, endLine: number): string {
  let out = '';
  const last = Math.min(endLine, lines.length);
  for (
    let l = Math.max(startLine, 1) - 1, first = true;
    l < last && out.length < SNIPPET_CHARS;
    l++, first = false
  ) {
    if (!first) out += '\n';
    const line = lines[l];
    out += line.length > SNIPPET_CHARS - out.length ? line.slice(0, SNIPPET_CHARS - out.length) : line;
  }
  return ownString(out.slice(0, SNIPPET_CHARS));
}

/** Lines startLine..endLine (1-based, inclusive) of pre-split file lines, joined by '\n'. */
export function chunkText(lines: string[], startLine: number, endLine: number): string {
  return lines.slice(startLine - 1, endLine).join('\n');
}

/**
 * A string that does not keep a larger one alive. V8 makes substrings of 13+ characters
 * "sliced" views of their parent (a whole file's text, via the chunker's symbol names or a
 * chunk's joined lines), so a stored slice would retain the parent; concatenation then slice
 * flattens into a fresh copy of just these characters.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Shared by the chunker's table-driven tests: the fixtures and expected chunks written as rows. */
import { readFileSync } from 'node:fs';
import type { Chunk, ChunkType } from './types';

/** A hand-written fixture under fixtures/ (stored with a `.txt` suffix so tsc and lint leave it alone). */
export const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}.txt`, import.meta.url), 'utf8');

/** One expected chunk, written `[start, end, type, name]`. */
export type Row = [number, number, ChunkType, string];

export const chunksOf = (path: string, rows: Row[]): Chunk[] =>
  rows.map(([startLine, endLine, chunkType, symbolName]) => ({
    path,
    startLine,
    endLine,
    symbolName,
    chunkType,
  }));

/**
 * A deterministic stand-in for the sentence model in semantic tests: a text's words (lowercase
 * letters and digits) hashed into `dims` buckets with a sign per word, then normalised, so
 * texts that share words are similar and texts that share none are close to orthogonal. It
 * counts the texts it is asked to embed. Also: a tiny code index over in-memory files (a line
 * `function NAME`, `def NAME`, `func NAME` or `fn NAME` starts a chunk that runs to the next).
 */
import type { Chunk } from '../chunk/types';
import { fnv1a } from '../hash';
import { ChunkIndex } from '../rank/bm25';
import { splitLinesForIndex } from '../rank/lines';
import type { EmbeddingModel } from './port';

export const FAKE_MODEL_ID = 'fake-bag-of-words';
export const FAKE_DIMS = 64;

export function fakeWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** The fake model's unit vector for one text (all zeros for a text without words). */
export function fakeVector(text: string, dims = FAKE_DIMS): Float32Array {
  const v = new Float64Array(dims);
  for (const w of fakeWords(text)) {
    const h = fnv1a(w);
    v[h % dims] += (h >>> 16) & 1 ? 1 : -1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return Float32Array.from(v, (x) => (norm ? x / norm : 0));
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export class FakeModel implements EmbeddingModel {
  readonly id: string;
  readonly dims: number;
  /** texts embedded so far, in the order asked */
  readonly embedded: string[] = [];
  calls = 0;
  /** called with each batch before it is answered (a test can abort a signal here) */
  onEmbed?: (batch: readonly string[]) => void;

  constructor(options: { id?: string; dims?: number; onEmbed?: (batch: readonly string[]) => void } = {}) {
    this.id = options.id ?? FAKE_MODEL_ID;
    this.dims = options.dims ?? FAKE_DIMS;
    this.onEmbed = options.onEmbed;
  }

  /** How many texts it has embedded. */
  get texts(): number {
    return this.embedded.length;
  }

  async embed(texts: readonly string[]): Promise<Float32Array> {
    this.calls++;
    this.embedded.push(...texts);
    this.onEmbed?.(texts);
    const out = new Float32Array(texts.length * this.dims);
    texts.forEach((t, i) => out.set(fakeVector(t, this.dims), i * this.dims));
    return out;
  }
}

const DEFINITION = /^\s*(?:export\s+)?(?:async\s+)?(?:function|def|func|fn)\s+(\w+)/;

/** One chunk per definition line, to the line before the next definition (or the end of the file). */
export function fakeChunks(path: string, lines: readonly string[]): Chunk[] {
  const out: Chunk[] = [];
  lines.forEach((l, i) => {
    const m = DEFINITION.exec(l);
    if (!m) return;
    if (out.length) out[out.length - 1].endLine = i;
    out.push({ path, startLine: i + 1, endLine: lines.length, symbolName: m[1], chunkType: 'function' });
  });
  return out;
}

/** Sets (or replaces) one file of the index from its text. */
export function setText(index: ChunkIndex, path: string, text: string, mtimeMs = 1): void {
  const lines = splitLinesForIndex(text);
  index.setFile(path, { size: text.length, mtimeMs }, fakeChunks(path, lines), lines);
}

export function indexFiles(files: Readonly<Record<string, string>>, mtimeMs = 1): ChunkIndex {
  const index = new ChunkIndex();
  for (const [path, text] of Object.entries(files)) setText(index, path, text, mtimeMs);
  return index;
}

/** readLines for SemanticIndex.sync over the files as they are when it reads (null: no such file). */
export function linesReader(
  files: Readonly<Record<string, string>>,
): (path: string) => Promise<string[] | null> {
  return async (path) =>
    Object.prototype.hasOwnProperty.call(files, path) ? splitLinesForIndex(files[path]) : null;
}

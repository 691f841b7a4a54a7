/**
 * The chunk index as plain data, for persistence (persist.ts and service.ts store it): the
 * live chunks and terms only, ids renumbered densely. A state holds the seed tokenizer's
 * terms; it is valid for no other tokenizer (ChunkIndex refuses to make one with another).
 */
import type { Chunk } from '../chunk/types';
import { CompoundParts } from './compound-parts';
import type { FileEntry, IndexedChunk } from './indexed-chunk';
import { PostingStore } from './postings';
import { TermTable } from './term-table';
import { seedTerm } from './tokenize';

export interface ChunkIndexState {
  chunks: Array<
    [
      path: string,
      startLine: number,
      endLine: number,
      symbolName: string,
      chunkType: string,
      tokenCount: number,
      uniqueCount: number,
      snippet: string,
    ]
  >;
  files: Array<[path: string, size: number, mtimeMs: number, chunkIds: number[], termIds: number[]]>;
  terms: string[];
  totalTokens: number;
  /** compound terms' identifier parts (the people analyzer) */
  compounds?: Array<[termId: number, parts: string[]]>;
  /** postings, term by term: lengths[t] entries of ids/tfs */
  lengths: Uint32Array;
  ids: Uint32Array;
  tfs: Uint32Array;
}

/** What a chunk index holds (tombstones are null chunks). */
export interface IndexContents {
  chunks: Array<IndexedChunk | null>;
  files: Map<string, FileEntry>;
  table: TermTable;
  post: PostingStore;
  compounds: CompoundParts;
  totalTokens: number;
}

/** Plain data of an index's contents; tombstones are dropped and ids renumbered. */
export function stateOf({
  chunks: all,
  files: fileMap,
  table,
  post,
  compounds: parts,
  totalTokens,
}: IndexContents): ChunkIndexState {
  const remap = new Int32Array(all.length).fill(-1);
  const chunks: ChunkIndexState['chunks'] = [];
  all.forEach((c, id) => {
    if (!c) return;
    remap[id] = chunks.length;
    chunks.push([
      c.path,
      c.startLine,
      c.endLine,
      c.symbolName,
      c.chunkType,
      c.tokenCount,
      c.uniqueCount,
      c.snippet,
    ]);
  });
  // only live terms are stored; term ids are renumbered densely
  const allTerms = table.terms;
  const termRemap = new Int32Array(allTerms.length).fill(-1);
  const terms: string[] = [];
  let n = 0;
  for (let t = 0; t < allTerms.length; t++) {
    const df = post.df(t);
    if (!df) continue;
    termRemap[t] = terms.length;
    terms.push(allTerms[t]);
    n += df;
  }
  const files: ChunkIndexState['files'] = [...fileMap].map(([path, f]) => [
    path,
    f.size,
    f.mtimeMs,
    f.chunkIds.map((id) => remap[id]),
    Array.from(f.terms, (t) => termRemap[t]).filter((t) => t >= 0),
  ]);
  const lengths = new Uint32Array(terms.length);
  const ids = new Uint32Array(n);
  const tfs = new Uint32Array(n);
  let k = 0;
  for (let t = 0; t < allTerms.length; t++) {
    if (termRemap[t] < 0) continue;
    lengths[termRemap[t]] = post.df(t);
    post.forEach(t, all, (id, tf) => {
      ids[k] = remap[id];
      tfs[k] = tf;
      k++;
    });
  }
  const compounds: Array<[number, string[]]> = [];
  for (const [t, ps] of parts.entries()) if (termRemap[t] >= 0) compounds.push([termRemap[t], ps]);
  return { chunks, files, terms, totalTokens, lengths, ids, tfs, compounds };
}

/** The contents of a stored state (the seed tokenizer's); the postings are copied. */
export function contentsOf(state: Omit<ChunkIndexState, 'tfs'> & { tfs: ArrayLike<number> }): IndexContents {
  const chunks: IndexedChunk[] = state.chunks.map(
    ([path, startLine, endLine, symbolName, chunkType, tokenCount, uniqueCount, snippet]) => ({
      path,
      startLine,
      endLine,
      symbolName,
      chunkType: chunkType as Chunk['chunkType'],
      tokenCount,
      uniqueCount,
      snippet,
    }),
  );
  const files = new Map<string, FileEntry>();
  for (const [path, size, mtimeMs, chunkIds, terms] of state.files)
    files.set(path, { size, mtimeMs, chunkIds, terms });
  // only the loaded terms are "seen": ids added later (an incremental refresh) still get their parts noted
  const compounds = CompoundParts.loaded(seedTerm, state.terms.length, state.compounds ?? []);
  const post = new PostingStore();
  const termCount = state.terms.length;
  post.start = new Uint32Array(termCount + 1);
  let k = 0;
  for (let t = 0; t < termCount; t++) {
    post.start[t] = k;
    k += state.lengths[t];
  }
  post.start[termCount] = k;
  post.ids = new Uint32Array(state.ids); // a copy: the state may view a loaded buffer
  post.tfs = new Uint16Array(state.tfs);
  post.dead = new Int32Array(termCount);
  post.baseTerms = termCount;
  post.resetTail(termCount);
  return {
    chunks,
    files,
    table: TermTable.from(state.terms),
    post,
    compounds,
    totalTokens: state.totalTokens,
  };
}

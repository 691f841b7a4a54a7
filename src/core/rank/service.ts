/**
 * Keeps a workspace's indexes fresh: the chunk index (BM25, find_related) over seed 004's
 * indexed extensions, and the trigram index over every text file the walk policy admits
 * (files up to 1 MiB). refresh() compares each file's (size, mtime) with the stored table:
 *   nothing changed -> "cache_hit"; some files -> "incremental" (only they are re-chunked);
 *   no usable index (none stored, unreadable, other format version) -> "full".
 * A full build fills new indexes that replace the old ones only when complete; an incremental
 * refresh computes its changes aside and applies them in one synchronous step. Either way a
 * reader never sees a half-refreshed index, and a failed or cancelled refresh leaves the old
 * one intact.
 * A minified file (chunk/minified.ts) is in the trigram index but gets no chunks, and every
 * refresh reports it as skipped with reason 'minified'.
 */
import { minifiedDetail } from '../chunk/minified';
import type { Chunk } from '../chunk/types';
import { QuarryError, toQuarryError } from '../errors';
import { createYielder, elapsedSince, now, unlessAborted, type Yielder } from '../jobs/yielder';
import { extensionOf } from '../source/types';
import type { Workspace } from '../source/workspace';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../walk/policy';
import { readText, walkFiles } from '../walk/walk';
import { applyIndexBudget } from './budget';
import { splitLinesForIndex } from './lines';
import { ChunkIndex } from './bm25';
import { decodeIndex, encodeIndex, fromJsonParts, jsonParts, packU16, unpackU16, type IndexStore } from './persist';
import { seedTokenizer, type Tokenizer } from './tokenize';
import { TrigramIndex } from './trigram';

/** Seed 004: indexed final extensions. */
export const INDEXED_EXTENSIONS: readonly string[] = ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'rs', 'md', 'py', 'go'];

export type RefreshMode = 'cache_hit' | 'incremental' | 'full';

export interface RefreshStats {
  refreshMode: RefreshMode;
  filesScanned: number;
  chunksIndexed: number;
  elapsedMs: number;
  filesChanged: number;
  filesRemoved: number;
  skipped: Skipped[];
}

export interface ChunkerLike {
  chunkFile(path: string, text: string): Chunk[];
}

export interface RefreshProgress {
  phase: 'scanning' | 'indexing' | 'saving';
  loaded: number;
  total: number;
}

export interface RefreshOptions {
  signal?: AbortSignal;
  yielder?: Yielder;
  onProgress?: (p: RefreshProgress) => void;
  /** Rebuild from scratch even when an index exists. */
  force?: boolean;
}

interface FileRow {
  size: number;
  mtimeMs: number;
  /** Set for a minified file (text only, no chunks): why, as the skip's detail says it. */
  minified?: string;
}

export class CodeIndexService {
  index: ChunkIndex | null = null;
  trigrams: TrigramIndex | null = null;
  /** every file in the indexes (text files of any extension), with what refresh compares */
  private table: Map<string, FileRow> | null = null;
  lastStats: RefreshStats | null = null;
  private loadedFromStore = false;
  private chunker: ChunkerLike | null = null;

  /** Files the last refresh left out of the indexes for the text budget (searched by scanning). */
  private overBudget = -1; // unknown until a refresh: no direct path

  constructor(
    readonly workspace: Workspace,
    private readonly getChunker: () => Promise<ChunkerLike>,
    private readonly store?: IndexStore,
    private readonly storeKey = 'index',
    private readonly options: {
      segmentChars?: number;
      /** The chunk index's tokenizer (default seed 004's). With another one, nothing is loaded from or saved to the store. */
      tokenizer?: Tokenizer;
      /** The text budget (default INDEX_MAX_TEXT_BYTES): files past it are searched by scanning. */
      maxTextBytes?: number;
    } = {},
  ) {}

  /** The store, when the index may use it: a stored index holds the seed tokenizer's terms only. */
  private get usableStore(): IndexStore | undefined {
    const t = this.options.tokenizer;
    return t === undefined || t === seedTokenizer ? this.store : undefined;
  }

  private async loadStored(): Promise<void> {
    const store = this.usableStore;
    if (this.loadedFromStore || this.index || !store) return;
    this.loadedFromStore = true;
    const bytes = await store.load(this.storeKey).catch(() => null);
    if (!bytes) return;
    try {
      const { json, sections } = decodeIndex(bytes);
      const j = json as StoredJson;
      const [lengths, ids, tfsPacked, triKeys, triOffsets, triPool, triSegments] = sections;
      if (!j || !Array.isArray(j.parts) || j.parts.length !== 6 || sections.length !== BINARY_SECTIONS + j.parts.reduce((a, b) => a + b, 0)) {
        throw new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
      }
      let at = BINARY_SECTIONS;
      const next = <T>(k: number): T[] => {
        const part = sections.slice(at, at + j.parts[k]);
        at += j.parts[k];
        return fromJsonParts<T>(part);
      };
      const chunks = next<ChunkState['chunks'][number]>(0);
      const files = next<ChunkState['files'][number]>(1);
      const terms = next<string>(2);
      const compounds = next<[number, string[]]>(3);
      const trigramFiles = next<string>(4);
      const table = next<[path: string, size: number, mtimeMs: number, minified?: string]>(5);
      const tfs = unpackU16(tfsPacked, ids.length);
      this.index = ChunkIndex.fromState({ chunks, files, terms, compounds, totalTokens: j.totalTokens, lengths, ids, tfs });
      // the sections are views into the loaded bytes: copy what the index keeps (ChunkIndex copies its own)
      this.trigrams = TrigramIndex.fromState(
        { files: trigramFiles, segments: triSegments.slice(), keys: triKeys.slice(), offsets: triOffsets.slice(), pool: triPool.slice(), poolBytes: j.trigramPoolBytes },
        this.options.segmentChars,
      );
      this.table = new Map(table.map(([path, size, mtimeMs, minified]) => [path, typeof minified === 'string' ? { size, mtimeMs, minified } : { size, mtimeMs }]));
    } catch (err) {
      if (toQuarryError(err).code !== 'IndexVersionMismatch') throw err;
      this.index = null; // quietly rebuild
      this.trigrams = null;
      this.table = null;
    }
  }

  private async save(): Promise<void> {
    const store = this.usableStore;
    if (!store || !this.index || !this.trigrams || !this.table) return;
    const c = this.index.toState();
    const t = this.trigrams.toState();
    const groups = [
      jsonParts(c.chunks),
      jsonParts(c.files),
      jsonParts(c.terms),
      jsonParts(c.compounds ?? []),
      jsonParts(t.files),
      jsonParts([...this.table].map(([path, r]) => (r.minified === undefined ? [path, r.size, r.mtimeMs] : [path, r.size, r.mtimeMs, r.minified]))),
    ];
    const json: StoredJson = { totalTokens: c.totalTokens, trigramPoolBytes: t.poolBytes, parts: groups.map((g) => g.length) };
    await store.save(this.storeKey, encodeIndex({ json, sections: [c.lengths, c.ids, packU16(c.tfs), t.keys, t.offsets, t.pool, t.segments, ...groups.flat()] }));
  }

  async refresh(options: RefreshOptions = {}): Promise<RefreshStats> {
    const t0 = now();
    const yielder = options.yielder ?? createYielder();
    if (!options.force) await this.loadStored();
    const usable = !options.force && this.index && this.trigrams && this.table;
    const oldTable = usable ? this.table! : null;
    const skipped: Skipped[] = [];
    const seen = new Map<string, { rootIndex: number; rel: string; size: number; mtimeMs: number }>();
    const ws = this.workspace;
    for (let r = 0; r < ws.roots.length; r++) {
      const prefix = ws.multiRoot ? ws.names[r] + '/' : '';
      for await (const f of walkFiles(ws.roots[r], {
        maxFileBytes: DEFAULT_MAX_FILE_BYTES,
        signal: options.signal,
        onSkip: (s) => skipped.push(prefix ? { ...s, path: prefix + s.path } : s),
      })) {
        seen.set(prefix + f.path, { rootIndex: r, rel: f.path, size: f.size, mtimeMs: f.mtimeMs });
        if (seen.size % 500 === 0) options.onProgress?.({ phase: 'scanning', loaded: seen.size, total: 0 });
      }
    }
    const before = skipped.length;
    applyIndexBudget(seen, skipped, this.options.maxTextBytes);
    // takes effect with the indexes it describes (prefilter() may be asked while this refresh runs)
    const overBudget = skipped.length - before;
    const isIndexed = (p: string) => INDEXED_EXTENSIONS.includes(extensionOf(p));
    const changed: string[] = [];
    for (const [path, f] of seen) {
      const row = oldTable?.get(path);
      if (!row || row.size !== f.size || row.mtimeMs !== f.mtimeMs) changed.push(path);
    }
    const removed = oldTable ? [...oldTable.keys()].filter((p) => !seen.has(p)) : [];
    const mode: RefreshMode = !oldTable ? 'full' : changed.length || removed.length ? 'incremental' : 'cache_hit';

    if (mode !== 'cache_hit') {
      // loading the parsers takes seconds and cannot be interrupted: a cancel ends the refresh at once
      if (changed.some(isIndexed)) this.chunker ??= await unlessAborted(this.getChunker(), options.signal, cancelledError);
      // Compute aside. A full build fills new indexes that nobody reads until they replace the
      // old ones below, so it adds each file as soon as it is read (yielding between files, and
      // holding no texts); an incremental refresh changes the live indexes, so it prepares every
      // file first and applies them in one synchronous step.
      const index = mode === 'full' ? new ChunkIndex({ tokenizer: this.options.tokenizer }) : this.index!;
      const trigrams = mode === 'full' ? new TrigramIndex(this.options.segmentChars) : this.trigrams!;
      const table = mode === 'full' ? new Map<string, FileRow>() : this.table!;
      type Prepared = { path: string; row: FileRow; text: string | null; chunks: Chunk[] | null; lines: string[] | null };
      const apply = (p: Prepared): void => {
        table.set(p.path, p.row);
        if (p.text === null) {
          // binary or unreadable now: in the table (so it is not re-read until it changes), in no index
          index.removeFile(p.path);
          trigrams.removeFile(p.path);
          return;
        }
        trigrams.addFile(p.path, p.text, p.row.size);
        if (p.chunks && p.lines) index.setFile(p.path, p.row, p.chunks, p.lines);
        else index.removeFile(p.path);
      };
      const prepared: Prepared[] = [];
      const keep = mode === 'full' ? apply : (p: Prepared) => void prepared.push(p);
      let done = 0;
      for (const path of changed) {
        if (options.signal?.aborted) throw cancelledError();
        const f = seen.get(path)!;
        const row: FileRow = { size: f.size, mtimeMs: f.mtimeMs };
        const text = await readText(ws.roots[f.rootIndex], f.rel);
        if (!text.ok) {
          skipped.push({ ...text.skipped, path });
          keep({ path, row, text: null, chunks: null, lines: null });
          continue;
        }
        let chunks: Chunk[] | null = null;
        let lines: string[] | null = null;
        const minified = isIndexed(path) ? minifiedDetail(path, text.text) : null;
        if (minified !== null) {
          row.minified = minified; // in the trigram index only
        } else if (isIndexed(path)) {
          try {
            chunks = this.chunker!.chunkFile(path, text.text);
            lines = splitLinesForIndex(text.text);
          } catch (err) {
            skipped.push({ path, reason: 'unreadable', detail: `parser failed: ${toQuarryError(err).message}` });
          }
        }
        keep({ path, row, text: text.text, chunks, lines });
        done++;
        if (done % 100 === 0) options.onProgress?.({ phase: 'indexing', loaded: done, total: changed.length });
        const y = yielder.maybeYield();
        if (y) await y;
      }
      if (options.signal?.aborted) throw cancelledError();
      // an incremental refresh: apply in one synchronous step
      for (const p of removed) {
        index.removeFile(p);
        trigrams.removeFile(p);
        table.delete(p);
      }
      for (const p of prepared) apply(p);
      if (mode === 'full') {
        // a fresh build goes straight to the compact forms
        trigrams.compact();
        index.compact();
      }
      this.index = index;
      this.trigrams = trigrams;
      this.table = table;
      this.overBudget = overBudget;
      if (this.usableStore) {
        options.onProgress?.({ phase: 'saving', loaded: 0, total: 1 });
        await this.save();
      }
    }
    this.overBudget = overBudget; // a cache hit: the stored indexes were built with this same cut
    // every refresh, a cache hit too, says which files are in the text index only
    for (const [path, row] of this.table!) if (row.minified !== undefined) skipped.push({ path, reason: 'minified', detail: row.minified });
    let filesScanned = 0;
    for (const p of seen.keys()) if (isIndexed(p)) filesScanned++;
    const stats: RefreshStats = {
      refreshMode: mode,
      filesScanned,
      chunksIndexed: this.index!.chunkCount,
      elapsedMs: elapsedSince(t0),
      filesChanged: mode === 'cache_hit' ? 0 : changed.filter(isIndexed).length,
      filesRemoved: removed.filter(isIndexed).length,
      skipped,
    };
    this.lastStats = stats;
    return stats;
  }

  /** A search prefilter over the trigram index (valid right after refresh()). */
  prefilter() {
    const t = this.trigrams;
    const table = this.table;
    if (!t || !table) return undefined;
    return {
      candidates: (plan: { requiredLiterals: string[] | null }) => t.candidates(plan),
      has: (p: string) => t.has(p),
      sizeOf: (p: string) => (t.has(p) ? table.get(p)?.size : undefined),
      mtimeOf: (p: string) => (t.has(p) ? table.get(p)?.mtimeMs : undefined),
      // the direct path (candidates only, no walk) needs an index of every file: not when the budget left some out
      ...(this.overBudget === 0 ? { maxIndexedBytes: DEFAULT_MAX_FILE_BYTES } : {}),
    };
  }
}

const cancelledError = () => new QuarryError('Cancelled', 'Indexing was cancelled');

type ChunkState = ReturnType<ChunkIndex['toState']>;

/** The stored binary sections before the JSON parts (see StoredJson). */
const BINARY_SECTIONS = 7;

/**
 * The stored JSON head; the records are in JSON-part sections after the seven binary ones
 * (postings lengths, ids, tfs as packed Uint16; trigram keys, offsets, pool, segments), `parts` giving
 * how many sections each of chunks, files, terms, compounds, trigram files and the file
 * table takes, in that order.
 */
interface StoredJson {
  totalTokens: number;
  trigramPoolBytes: number;
  parts: number[];
}

/**
 * Keeps a workspace's indexes fresh: the chunk index (BM25, Related) over every text file the
 * walk policy admits (files up to 1 MiB), symbol chunks where a parser knows the language and
 * blocks of lines elsewhere (chunk/any.ts), and the trigram index over the same files.
 * refresh() compares each file's (size, mtime) with the stored table:
 *   nothing changed -> "cache_hit"; some files -> "incremental" (only they are re-chunked);
 *   no usable index (none stored, unreadable, other format or chunk rules) -> "full".
 * A full build (build.ts) makes the text index first and publishes it at once (onTextReady:
 * text search is indexed while the parsers run), then the chunk index, on a pool of parsing
 * threads when the chunker is one, applied in a fixed order so the index is the same on any
 * number of threads. The chunk index replaces the old one only when complete. An incremental
 * refresh computes its changes aside and applies them in one synchronous step. A reader never
 * sees a half-built index; a cancelled or failed refresh leaves the old chunk index (after a
 * cancelled full build the next refresh is full again).
 * Minified and generated files are in the trigram index but get no chunks, and every refresh
 * reports them as skipped with their reason, as it does files whose parser failed.
 */
import { asFileChunker, type SyncChunker } from '../chunk/any';
import type { Chunker } from '../chunk';
import type { FileChunker } from '../chunk/pool';
import { QuarryError, toQuarryError } from '../errors';
import { createYielder, elapsedSince, now, unlessAborted, type Yielder } from '../jobs/yielder';
import { DEFAULT_HELD_BUDGET_BYTES, HeldContents, type HeldStats } from '../source/held-contents';
import type { Workspace } from '../source/workspace';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../walk/policy';
import { readText, walkFiles, type TextResult } from '../walk/walk';
import { applyIndexBudget } from './budget';
import {
  applyPrepared,
  buildChunkIndex,
  buildTextIndex,
  cancelledError,
  coverageOf,
  prepareChanges,
  type BuildContext,
  type BuildProgress,
  type Coverage,
  type FileKind,
  type FileRow,
  ChunkStep,
  isRanked,
} from './build';
import { ChunkIndex } from './bm25';
import {
  decodeIndex,
  encodeIndex,
  fromJsonParts,
  jsonParts,
  packU16,
  unpackU16,
  type IndexStore,
} from './persist';
import { seedTokenizer, type Tokenizer } from './tokenize';
import { TrigramIndex, type TrigramPlanInput } from './trigram';

export type { Coverage } from './build';

/** Seed 004: indexed final extensions. */
export const INDEXED_EXTENSIONS: readonly string[] = [
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'rs',
  'md',
  'py',
  'go',
];

/**
 * Bumped whenever the chunker's rules change what a file's chunks are: a stored index built
 * under other rules is rebuilt (quietly, as a full build).
 */
export const CHUNK_RULES_VERSION = 4;

export type RefreshMode = 'cache_hit' | 'incremental' | 'full';

export interface RefreshStats {
  refreshMode: RefreshMode;
  /** Files in the ranked index (parsed or as blocks). */
  filesScanned: number;
  chunksIndexed: number;
  elapsedMs: number;
  filesChanged: number;
  filesRemoved: number;
  skipped: Skipped[];
  /** What the ranked index covers (absent from the seed-004 index's stats). */
  coverage?: Coverage;
}

/** What the build chunks with: a FileChunker (a pool, or this thread's), a bare Chunker (given the any-file dispatch), or a test's SyncChunker. */
export type ChunkerLike = FileChunker | Chunker | SyncChunker;

export type RefreshProgress = BuildProgress;

export interface RefreshOptions {
  signal?: AbortSignal;
  yielder?: Yielder;
  onProgress?: (p: RefreshProgress) => void;
  /** A full build's text index is complete and in use (prefilter() answers from it); the chunk index follows. */
  onTextReady?: () => void;
  /** Rebuild from scratch even when an index exists. */
  force?: boolean;
}

const STORED_KINDS: readonly FileKind[] = ['symbols', 'blocks', 'minified', 'generated', 'failed', 'none'];

export class CodeIndexService {
  index: ChunkIndex | null = null;
  trigrams: TrigramIndex | null = null;
  /** every file in the indexes (text files of any extension), with what refresh compares */
  private table: Map<string, FileRow> | null = null;
  lastStats: RefreshStats | null = null;
  private loadedFromStore = false;
  private chunker: FileChunker | null = null;
  /** A full build published its text index and table but not yet the chunk index that matches them. */
  private symbolsPending = false;

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
      /**
       * Hold the indexed files' bytes in memory, up to this many bytes (true: the default budget),
       * so the indexed search reads no file (held-contents.ts). Off by default: a one-shot CLI call
       * searches once.
       */
      holdContents?: boolean | number;
    } = {},
  ) {
    const hold = options.holdContents;
    this.contents = hold ? new HeldContents(hold === true ? DEFAULT_HELD_BUDGET_BYTES : hold) : null;
  }

  /** The indexed files' bytes, when held (holdContents). */
  readonly contents: HeldContents | null;

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
      if (
        !j ||
        !Array.isArray(j.parts) ||
        j.parts.length !== 6 ||
        sections.length !== BINARY_SECTIONS + j.parts.reduce((a, b) => a + b, 0)
      ) {
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
      const table = next<[path: string, size: number, mtimeMs: number, kind?: number, detail?: string]>(5);
      if (j.chunkRules !== CHUNK_RULES_VERSION)
        throw new QuarryError(
          'IndexVersionMismatch',
          'The stored index was built with other chunk rules',
          {},
        );
      const tfs = unpackU16(tfsPacked, ids.length);
      this.index = ChunkIndex.fromState({
        chunks,
        files,
        terms,
        compounds,
        totalTokens: j.totalTokens,
        lengths,
        ids,
        tfs,
      });
      // the sections are views into the loaded bytes: copy what the index keeps (ChunkIndex copies its own)
      this.trigrams = TrigramIndex.fromState(
        {
          files: trigramFiles,
          segments: triSegments.slice(),
          keys: triKeys.slice(),
          offsets: triOffsets.slice(),
          pool: triPool.slice(),
          poolBytes: j.trigramPoolBytes,
        },
        this.options.segmentChars,
      );
      this.table = new Map(
        table.map(([path, size, mtimeMs, kind = 0, detail]) => {
          const row: FileRow = { size, mtimeMs, kind: STORED_KINDS[kind] ?? 'none' };
          if (typeof detail === 'string') row.detail = detail;
          return [path, row];
        }),
      );
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
      jsonParts(
        [...this.table].map(([path, r]) => {
          const kind = STORED_KINDS.indexOf(r.kind);
          return r.detail !== undefined
            ? [path, r.size, r.mtimeMs, kind, r.detail]
            : kind
              ? [path, r.size, r.mtimeMs, kind]
              : [path, r.size, r.mtimeMs];
        }),
      ),
    ];
    const json: StoredJson = {
      totalTokens: c.totalTokens,
      trigramPoolBytes: t.poolBytes,
      chunkRules: CHUNK_RULES_VERSION,
      parts: groups.map((g) => g.length),
    };
    await store.save(
      this.storeKey,
      encodeIndex({
        json,
        sections: [c.lengths, c.ids, packU16(c.tfs), t.keys, t.offsets, t.pool, t.segments, ...groups.flat()],
      }),
    );
  }

  async refresh(options: RefreshOptions = {}): Promise<RefreshStats> {
    const t0 = now();
    const yielder = options.yielder ?? createYielder();
    if (!options.force) await this.loadStored();
    const usable = !options.force && !this.symbolsPending && this.index && this.trigrams && this.table;
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
    const changed: string[] = [];
    for (const [path, f] of seen) {
      const row = oldTable?.get(path);
      if (!row || row.size !== f.size || row.mtimeMs !== f.mtimeMs) changed.push(path);
    }
    const removed = oldTable ? [...oldTable.keys()].filter((p) => !seen.has(p)) : [];
    const removedRanked = removed.filter((p) => isRanked(oldTable!.get(p)!.kind)).length;
    const mode: RefreshMode = !oldTable
      ? 'full'
      : changed.length || removed.length
        ? 'incremental'
        : 'cache_hit';
    const read = this.reader(seen);
    const ctx: BuildContext = {
      read,
      chunker: async () =>
        (this.chunker ??= asFileChunker(
          await unlessAborted(this.getChunker(), options.signal, cancelledError),
        )),
      signal: options.signal,
      yielder,
      onProgress: options.onProgress,
      skipped,
      tokenizer: this.options.tokenizer,
      segmentChars: this.options.segmentChars,
    };
    const rows = changed.map((path): [string, FileRow] => [
      path,
      { size: seen.get(path)!.size, mtimeMs: seen.get(path)!.mtimeMs, kind: 'none' },
    ]);
    if (mode === 'full') {
      // text first: published as soon as it is complete, so text search is indexed while the parsers run
      const chunks = new ChunkStep(ctx);
      await chunks.prepare(changed);
      const text = await buildTextIndex(ctx, rows, chunks);
      this.symbolsPending = true; // until the chunk index below matches the table
      this.trigrams = text.trigrams;
      this.table = text.table;
      this.overBudget = overBudget;
      options.onTextReady?.();
      this.index = await buildChunkIndex(ctx, text.ranked, chunks);
      this.symbolsPending = false;
      const table = this.table;
      this.contents?.retainOnly((p) => table.has(p));
    } else if (mode === 'incremental') {
      const prepared = await prepareChanges(ctx, rows);
      // applied in one synchronous step: a reader never sees half of it
      const index = this.index!;
      const trigrams = this.trigrams!;
      const table = this.table!;
      for (const p of removed) {
        index.removeFile(p);
        trigrams.removeFile(p);
        table.delete(p);
        this.contents?.drop(p);
      }
      for (const p of prepared) applyPrepared(p, index, trigrams, table);
      this.overBudget = overBudget;
    }
    this.contents?.trim();
    if (mode !== 'cache_hit' && this.usableStore) {
      options.onProgress?.({ phase: 'saving', loaded: 0, total: 1 });
      await this.save();
    }
    this.overBudget = overBudget; // a cache hit: the stored indexes were built with this same cut
    // every refresh, a cache hit too, says which files are in the text index only, and why
    const coverage = coverageOf(this.table!, overBudget);
    for (const [path, row] of this.table!) {
      if (row.kind === 'minified' || row.kind === 'generated')
        skipped.push({ path, reason: row.kind, detail: row.detail });
      else if (row.kind === 'failed') skipped.push({ path, reason: 'parseFailed', detail: row.detail });
    }
    const stats: RefreshStats = {
      refreshMode: mode,
      filesScanned: coverage.symbols + coverage.blocks,
      chunksIndexed: this.index!.chunkCount,
      elapsedMs: elapsedSince(t0),
      filesChanged:
        mode === 'cache_hit' ? 0 : changed.filter((p) => isRanked(this.table!.get(p)?.kind)).length,
      filesRemoved: removedRanked,
      skipped,
      coverage,
    };
    this.lastStats = stats;
    return stats;
  }

  /**
   * How a refresh reads a walked file: from its source, or (holdContents) from the held bytes when
   * they are the file as walked (step 2 reads a ranked file again; an unchanged file held since the
   * last refresh), else read now and held.
   */
  private reader(
    seen: ReadonlyMap<string, { rootIndex: number; rel: string; size: number; mtimeMs: number }>,
  ) {
    const ws = this.workspace;
    const contents = this.contents;
    return (path: string): Promise<TextResult> => {
      const f = seen.get(path)!;
      const source = ws.roots[f.rootIndex];
      if (!contents) return readText(source, f.rel);
      const held = contents.get(path, f.size, f.mtimeMs);
      return readText(
        {
          read: async (rel) => {
            if (held) return held;
            const bytes = await source.read(rel);
            contents.hold(path, bytes, f.mtimeMs);
            return bytes;
          },
          decode: source.decode?.bind(source),
        },
        f.rel,
      ).then((r) => {
        if (!r.ok) contents.drop(path); // binary or unreadable: in no index
        return r;
      });
    };
  }

  /** A search prefilter over the trigram index (valid right after refresh()). */
  prefilter() {
    const t = this.trigrams;
    const table = this.table;
    if (!t || !table) return undefined;
    return {
      candidates: (plan: TrigramPlanInput) => t.candidates(plan),
      rarestClause: (plan: TrigramPlanInput) => t.rarestClause(plan),
      has: (p: string) => t.has(p),
      sizeOf: (p: string) => (t.has(p) ? table.get(p)?.size : undefined),
      mtimeOf: (p: string) => (t.has(p) ? table.get(p)?.mtimeMs : undefined),
      // the direct path (candidates only, no walk) needs an index of every file: not when the budget left some out
      ...(this.overBudget === 0 ? { maxIndexedBytes: DEFAULT_MAX_FILE_BYTES } : {}),
      ...(this.contents ? { contentOf: heldContentOf(this.contents, t, table) } : {}),
    };
  }

  /**
   * Hold the bytes of indexed files not held yet (after a stored index was reopened: a cache hit
   * reads no file), as they are now if they still have the size the index saw. Cancellable;
   * yields between files. Files changed since are left to the next refresh.
   */
  async holdIndexedContents(
    options: { signal?: AbortSignal; yielder?: Yielder } = {},
  ): Promise<HeldStats | null> {
    const contents = this.contents;
    const t = this.trigrams;
    const table = this.table;
    if (!contents || !t || !table) return null;
    const yielder = options.yielder ?? createYielder();
    const ws = this.workspace;
    for (const [path, row] of table) {
      if (options.signal?.aborted) throw cancelledError();
      if (!t.has(path) || contents.has(path) || this.table !== table) continue;
      const at = ws.locate(path);
      if (!at) continue;
      const bytes = await ws.roots[at.rootIndex].read(at.rel).catch(() => null);
      // (the table may have been replaced by a refresh meanwhile: that refresh holds what it read)
      if (bytes && bytes.byteLength === row.size && this.table === table && table.get(path) === row)
        contents.hold(path, bytes, row.mtimeMs);
      const y = yielder.maybeYield();
      if (y) await y;
    }
    contents.trim();
    return contents.stats();
  }
}

/** The held bytes of an indexed file, only as the index's row says it was (size and time). */
function heldContentOf(contents: HeldContents, trigrams: TrigramIndex, table: Map<string, FileRow>) {
  return (path: string): Uint8Array | undefined => {
    const row = trigrams.has(path) ? table.get(path) : undefined;
    return row ? contents.get(path, row.size, row.mtimeMs) : undefined;
  };
}

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
  chunkRules: number;
  trigramPoolBytes: number;
  parts: number[];
}

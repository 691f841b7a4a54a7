/**
 * Keeps a workspace's chunk index fresh. refresh() walks the workspace (seed 004's indexed
 * extensions, files up to 1 MiB), compares each file's (size, mtime) with the index:
 *   nothing changed -> "cache_hit"; some files -> "incremental" (only they are re-chunked);
 *   no usable index (none stored, unreadable, other format version) -> "full".
 * New chunk data is computed aside and applied in one synchronous step, so a reader never
 * sees a half-refreshed index, and a failed or cancelled refresh leaves the old one intact.
 */
import type { Chunk } from '../chunk/types';
import { QuarryError, toQuarryError } from '../errors';
import { createYielder, elapsedSince, now, NEVER_YIELD, type Yielder } from '../jobs/yielder';
import { extensionOf } from '../source/types';
import type { Workspace } from '../source/workspace';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../walk/policy';
import { readText, walkFiles } from '../walk/walk';
import { splitLinesForIndex } from './lines';
import { ChunkIndex, type ChunkIndexState } from './bm25';
import { decodeIndex, encodeIndex, type IndexStore } from './persist';

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

export class CodeIndexService {
  index: ChunkIndex | null = null;
  lastStats: RefreshStats | null = null;
  private loadedFromStore = false;
  private chunker: ChunkerLike | null = null;

  constructor(
    readonly workspace: Workspace,
    private readonly getChunker: () => Promise<ChunkerLike>,
    private readonly store?: IndexStore,
    private readonly storeKey = 'index',
  ) {}

  private async loadStored(): Promise<void> {
    if (this.loadedFromStore || this.index || !this.store) return;
    this.loadedFromStore = true;
    const bytes = await this.store.load(this.storeKey).catch(() => null);
    if (!bytes) return;
    try {
      this.index = ChunkIndex.fromState(decodeIndex(bytes) as ChunkIndexState);
    } catch (err) {
      if (toQuarryError(err).code !== 'IndexVersionMismatch') throw err;
      this.index = null; // quietly rebuild
    }
  }

  async refresh(options: RefreshOptions = {}): Promise<RefreshStats> {
    const t0 = now();
    const yielder = options.yielder ?? createYielder();
    if (!options.force) await this.loadStored();
    const old = options.force ? null : this.index;
    const skipped: Skipped[] = [];
    const seen = new Map<string, { rootIndex: number; rel: string; size: number; mtimeMs: number }>();
    const ws = this.workspace;
    for (let r = 0; r < ws.roots.length; r++) {
      const prefix = ws.multiRoot ? ws.names[r] + '/' : '';
      for await (const f of walkFiles(ws.roots[r], {
        maxFileBytes: DEFAULT_MAX_FILE_BYTES,
        signal: options.signal,
        acceptFile: (p) => INDEXED_EXTENSIONS.includes(extensionOf(p)),
        onSkip: (s) => skipped.push(prefix ? { ...s, path: prefix + s.path } : s),
      })) {
        seen.set(prefix + f.path, { rootIndex: r, rel: f.path, size: f.size, mtimeMs: f.mtimeMs });
        if (seen.size % 500 === 0) options.onProgress?.({ phase: 'scanning', loaded: seen.size, total: 0 });
      }
    }
    const changed: string[] = [];
    for (const [path, f] of seen) {
      const meta = old?.fileMeta(path);
      if (!meta || meta.size !== f.size || meta.mtimeMs !== f.mtimeMs) changed.push(path);
    }
    const removed = old ? old.paths().filter((p) => !seen.has(p)) : [];
    const mode: RefreshMode = !old ? 'full' : changed.length || removed.length ? 'incremental' : 'cache_hit';

    if (mode !== 'cache_hit') {
      this.chunker ??= await this.getChunker();
      // compute aside
      const prepared: Array<{ path: string; meta: { size: number; mtimeMs: number }; chunks: Chunk[]; lines: string[] } | { path: string; gone: true }> = [];
      let done = 0;
      for (const path of changed) {
        if (options.signal?.aborted) throw new QuarryError('Cancelled', 'Indexing was cancelled');
        const f = seen.get(path)!;
        const text = await readText(ws.roots[f.rootIndex], f.rel);
        if (!text.ok) {
          skipped.push({ ...text.skipped, path });
          prepared.push({ path, gone: true });
          continue;
        }
        let chunks: Chunk[];
        try {
          chunks = this.chunker.chunkFile(path, text.text);
        } catch (err) {
          skipped.push({ path, reason: 'unreadable', detail: `parser failed: ${toQuarryError(err).message}` });
          prepared.push({ path, gone: true });
          continue;
        }
        prepared.push({ path, meta: { size: f.size, mtimeMs: f.mtimeMs }, chunks, lines: splitLinesForIndex(text.text) });
        done++;
        if (done % 100 === 0) options.onProgress?.({ phase: 'indexing', loaded: done, total: changed.length });
        const y = yielder.maybeYield();
        if (y) await y;
      }
      // apply in one synchronous step
      const target = mode === 'full' ? new ChunkIndex() : old!;
      for (const p of removed) target.removeFile(p);
      for (const p of prepared) {
        if ('gone' in p) target.removeFile(p.path);
        else target.setFile(p.path, p.meta, p.chunks, p.lines);
      }
      this.index = target;
      if (this.store) {
        options.onProgress?.({ phase: 'saving', loaded: 0, total: 1 });
        await this.store.save(this.storeKey, encodeIndex(target.toState()));
      }
    }
    const stats: RefreshStats = {
      refreshMode: mode,
      filesScanned: seen.size,
      chunksIndexed: this.index!.chunkCount,
      elapsedMs: elapsedSince(t0),
      filesChanged: mode === 'cache_hit' ? 0 : changed.length,
      filesRemoved: removed.length,
      skipped,
    };
    this.lastStats = stats;
    return stats;
  }
}

export { NEVER_YIELD };

/**
 * Keeps a workspace's seed-004 index fresh, as the engine does: the files with the seed's
 * indexed extensions, under no `node_modules`, `dist`, `target` or `.git` segment, up to
 * 1,048,576 bytes. Unlike Quarry's own walk it honours no .gitignore, keeps binary files
 * (text that is not UTF-8 counts as empty) and does not walk into symlinked directories.
 * refresh() compares each file's (size, mtime) with the stored table: nothing changed ->
 * "cache_hit", some files -> "incremental", no usable index -> "full". A refresh builds aside
 * and swaps in one step, so a reader never sees half of one and a failed or cancelled one
 * leaves the old index.
 * Unlike the engine, a minified file (chunk/minified.ts: most of its text on long lines of code)
 * gets no chunks: it is reported on every refresh as skipped, reason 'minified' (a 1 MB one-line
 * bundle otherwise topped every find_related list). No file of the parity corpora is minified.
 */
import { QuarryError, toQuarryError } from '../errors';
import { createYielder, elapsedSince, now, type Yielder } from '../jobs/yielder';
import type { RefreshMode, RefreshStats } from '../rank/service';
import { applyIndexBudget } from '../rank/budget';
import { decodeIndex, encodeIndex, fromJsonParts, jsonParts, type IndexStore } from '../rank/persist';
import { extensionOf } from '../source/types';
import type { Workspace } from '../source/workspace';
import { minifiedDetail } from '../chunk/minified';
import { DEFAULT_MAX_FILE_BYTES, type Skipped } from '../walk/policy';
import { walkFiles } from '../walk/walk';
import { decodeSeedText, seedChunks, type CodebaseChunk } from './chunks';
import { CodebaseIndex, type SeedFileMeta, type SeedIndexState } from './codebase-index';
import { SharedRun } from '../jobs/shared-run';

/** Seed 004: indexed final extensions (case-sensitive: `TS` is not `ts`). */
export const SEED_EXTENSIONS: readonly string[] = [
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
/** Seed 004: skipped path segments. */
export const SEED_SKIPPED_SEGMENTS: readonly string[] = ['node_modules', 'dist', 'target', '.git'];

const STORE_KIND = 'seed004';
const STORE_VERSION = 3;

interface Walked {
  rootIndex: number;
  rel: string;
  size: number;
  mtimeMs: number;
}

export class CodebaseIndexService {
  index: CodebaseIndex | null = null;
  lastStats: RefreshStats | null = null;
  private loaded = false;
  /** The refresh concurrent callers share. */
  private readonly shared = new SharedRun<RefreshStats>('The index refresh was cancelled');

  constructor(
    readonly workspace: Workspace,
    private readonly store?: IndexStore,
    private readonly storeKey = 'seed004',
    /** The text budget (default INDEX_MAX_TEXT_BYTES): files past it are not ranked. */
    private readonly maxTextBytes?: number,
  ) {}

  /** Every indexed file of the workspace (workspace paths), with what refresh compares. */
  async walk(signal?: AbortSignal, skipped: Skipped[] = []): Promise<Map<string, Walked>> {
    const ws = this.workspace;
    const seen = new Map<string, Walked>();
    for (let r = 0; r < ws.roots.length; r++) {
      const prefix = ws.multiRoot ? ws.names[r] + '/' : '';
      for await (const f of walkFiles(ws.roots[r], {
        useIgnoreFiles: false,
        noisySegments: SEED_SKIPPED_SEGMENTS,
        maxFileBytes: DEFAULT_MAX_FILE_BYTES,
        followDirSymlinks: false,
        acceptFile: (p) => SEED_EXTENSIONS.includes(extensionOf(p)),
        signal,
        onSkip: (s) => skipped.push(prefix ? { ...s, path: prefix + s.path } : s),
      })) {
        seen.set(prefix + f.path, { rootIndex: r, rel: f.path, size: f.size, mtimeMs: f.mtimeMs });
      }
    }
    return seen;
  }

  /** A file's chunks as the index has them (workspace path); null when it cannot be read now. */
  async chunksOf(path: string): Promise<CodebaseChunk[] | null> {
    try {
      const resolved = this.workspace.locate(path); // an indexed path, taken literally
      if (!resolved) return null;
      return seedChunks(path, decodeSeedText(await resolved.source.read(resolved.rel)));
    } catch {
      return null;
    }
  }

  /**
   * Bring the index up to date. Concurrent callers share one refresh (a forced one runs on its
   * own); a caller's cancel ends its own wait, and the shared work stops only when every caller
   * waiting for it has cancelled.
   */
  refresh(options: { signal?: AbortSignal; yielder?: Yielder; force?: boolean } = {}): Promise<RefreshStats> {
    if (options.force) {
      if (options.signal?.aborted) return Promise.reject(cancelled());
      return this.run(options);
    }
    return this.shared.join(options.signal, (signal) => this.run({ ...options, signal }));
  }

  private async run(options: {
    signal?: AbortSignal;
    yielder?: Yielder;
    force?: boolean;
  }): Promise<RefreshStats> {
    const t0 = now();
    const yielder = options.yielder ?? createYielder();
    if (!options.force) await this.load();
    const old = options.force ? null : this.index;
    const skipped: Skipped[] = [];
    const seen = await this.walk(options.signal, skipped);
    applyIndexBudget(seen, skipped, this.maxTextBytes);
    const changed: string[] = [];
    for (const [path, f] of seen) {
      const meta = old?.fileMeta(path);
      if (!meta || meta.size !== f.size || meta.mtimeMs !== f.mtimeMs) changed.push(path);
    }
    const removed = old ? old.paths().filter((p) => !seen.has(p)) : [];
    const mode: RefreshMode = !old ? 'full' : changed.length || removed.length ? 'incremental' : 'cache_hit';
    if (mode !== 'cache_hit') {
      // read and chunk aside; apply in one synchronous step (a reader never sees half of it)
      const prepared: Array<{ path: string; meta: SeedFileMeta; chunks: CodebaseChunk[] }> = [];
      for (const path of changed) {
        if (options.signal?.aborted) throw cancelled();
        const f = seen.get(path)!;
        let text = '';
        try {
          text = decodeSeedText(await this.workspace.roots[f.rootIndex].read(f.rel));
        } catch (err) {
          skipped.push({ path, reason: 'unreadable', detail: toQuarryError(err).message });
        }
        // a minified file stays in the table (so it is not re-read until it changes) with no chunks
        const minified = minifiedDetail(path, text);
        if (minified !== null)
          prepared.push({ path, meta: { size: f.size, mtimeMs: f.mtimeMs, minified }, chunks: [] });
        else
          prepared.push({ path, meta: { size: f.size, mtimeMs: f.mtimeMs }, chunks: seedChunks(path, text) });
        await yielder.maybeYield();
      }
      if (options.signal?.aborted) throw cancelled();
      const index = mode === 'full' ? new CodebaseIndex() : old!;
      for (const p of removed) index.removeFile(p);
      for (const p of prepared) index.setFile(p.path, p.meta, p.chunks);
      index.commit();
      this.index = index;
      await this.save();
    }
    // every refresh, a cache hit too, says which files are in the index as minified (no chunks)
    for (const [path, detail] of this.index!.minifiedFiles())
      skipped.push({ path, reason: 'minified', detail });
    const stats: RefreshStats = {
      refreshMode: mode,
      filesScanned: seen.size,
      chunksIndexed: this.index!.chunkCount,
      elapsedMs: elapsedSince(t0),
      filesChanged: changed.length,
      filesRemoved: removed.length,
      skipped,
    };
    this.lastStats = stats;
    return stats;
  }

  private async load(): Promise<void> {
    if (this.loaded || this.index || !this.store) return;
    this.loaded = true;
    const bytes = await this.store.load(this.storeKey).catch(() => null);
    if (!bytes) return;
    try {
      const { json, sections } = decodeIndex(bytes);
      const j = json as { kind?: string; version?: number; parts?: number[] };
      if (
        j?.kind !== STORE_KIND ||
        j.version !== STORE_VERSION ||
        !Array.isArray(j.parts) ||
        j.parts.length !== 3
      )
        throw unreadable();
      const [offsets, ids, tfs, ...rest] = sections;
      if (!offsets || !ids || !tfs || rest.length !== j.parts[0] + j.parts[1] + j.parts[2])
        throw unreadable();
      const files = fromJsonParts<SeedIndexState['files'][number]>(rest.slice(0, j.parts[0]));
      const chunks = fromJsonParts<SeedIndexState['chunks'][number]>(
        rest.slice(j.parts[0], j.parts[0] + j.parts[1]),
      );
      const terms = fromJsonParts<string>(rest.slice(j.parts[0] + j.parts[1]));
      // the sections are views of the loaded bytes: copy what the index keeps
      this.index = CodebaseIndex.fromState({
        files,
        chunks,
        terms,
        offsets: offsets.slice(),
        ids: ids.slice(),
        tfs: tfs.slice(),
      });
    } catch {
      this.index = null; // unreadable, another version, inconsistent: quietly rebuilt
    }
  }

  private async save(): Promise<void> {
    if (!this.store || !this.index) return;
    const s = this.index.toState();
    const groups = [jsonParts(s.files), jsonParts(s.chunks), jsonParts(s.terms)];
    await this.store.save(
      this.storeKey,
      encodeIndex({
        json: { kind: STORE_KIND, version: STORE_VERSION, parts: groups.map((g) => g.length) },
        sections: [s.offsets, s.ids, s.tfs, ...groups.flat()],
      }),
    );
  }
}

const cancelled = () => new QuarryError('Cancelled', 'The index refresh was cancelled');
const unreadable = () =>
  new QuarryError('IndexVersionMismatch', 'The stored seed-004 index is not readable', {});

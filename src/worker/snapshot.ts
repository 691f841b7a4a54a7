/**
 * Reading a repository into an in-memory snapshot (streamed, with progress and cancel), and
 * the snapshot's file tree. A snapshot is built aside: a cancelled or failed read returns
 * nothing and the caller keeps what it had.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import { createYielder, elapsedSince, now } from '../core/jobs/yielder';
import { MemorySource } from '../core/source/memory';
import type { FileSource } from '../core/source/types';
import { decodeBytes } from '../core/walk/decode';
import type { Skipped } from '../core/walk/policy';
import { walkFiles, type WalkedFile } from '../core/walk/walk';
import { contentStamp } from '../adapters/browser/files';
import type { Progress, RepoSpec, RepoStats, TreeEntry } from './protocol';

export interface Snapshot {
  source: MemorySource;
  /** What the snapshot was read from: files it left out (binary: images) are read from it on demand. */
  raw?: FileSource;
  /** Text files, sorted. */
  textFiles: string[];
  /** Each text file's stamps as its in-memory copy carries them (stored as the listing: stored-listing.ts). */
  stamps: Map<string, { size: number; mtimeMs: number }>;
  /** Sorted by path. */
  skipped: Skipped[];
  /** The open's figures (the session adds its key and root name). */
  stats: Pick<RepoStats, 'elapsedMs' | 'ending' | 'name' | 'kind' | 'files' | 'bytes' | 'skippedByReason'>;
}

export interface ReadOptions {
  signal: AbortSignal;
  onProgress: (p: Progress, force?: boolean) => void;
  yieldBudgetMs?: number;
  /** Files read concurrently (hides File System Access latency). */
  readConcurrency?: number;
}

/** Every file of `raw` read into memory; null when cancelled. */
export async function readSnapshot(
  raw: FileSource,
  kind: RepoSpec['kind'],
  options: ReadOptions,
): Promise<Snapshot | null> {
  const { signal, onProgress: progress } = options;
  const t0 = now();
  const y = createYielder(options.yieldBudgetMs);
  const skipped: Skipped[] = [];
  const found: WalkedFile[] = [];
  let foundBytes = 0;
  progress({ phase: 'listing', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 }, true);
  try {
    for await (const f of walkFiles(raw, { signal, onSkip: (s) => skipped.push(s) })) {
      found.push(f);
      foundBytes += f.size;
      progress({ phase: 'listing', files: found.length, totalFiles: 0, bytes: foundBytes, totalBytes: 0 });
      const w = y.maybeYield();
      if (w) await w;
      if (signal.aborted) break;
    }
  } catch (err) {
    if (toQuarryError(err).code !== 'Cancelled') throw err;
  }
  if (signal.aborted) return null;

  const source = new MemorySource({}, { name: raw.name, absoluteRoot: raw.absoluteRoot });
  const textFiles: string[] = [];
  const stamps: Snapshot['stamps'] = new Map();
  let readFiles = 0;
  let readBytes = 0;
  let next = 0;
  // The demo and in-memory sources have no real modification times (a fresh Date.now() per
  // load): stamp them by content, so a reload finds the stored index current.
  const stampByContent = kind === 'demo' || kind === 'memory';
  const reader = async () => {
    while (next < found.length && !signal.aborted) {
      const f = found[next++];
      let bytes: Uint8Array;
      try {
        bytes = await raw.read(f.path);
      } catch (err) {
        skipped.push({
          path: f.path,
          reason: 'unreadable',
          detail: err instanceof Error ? err.message : String(err),
        });
        readFiles++;
        continue;
      }
      readFiles++;
      readBytes += bytes.byteLength;
      if (decodeBytes(bytes).binary) skipped.push({ path: f.path, reason: 'binary' });
      else {
        const mtimeMs = stampByContent ? contentStamp(bytes) : f.mtimeMs;
        source.write(f.path, bytes, mtimeMs);
        stamps.set(f.path, { size: bytes.byteLength, mtimeMs });
        textFiles.push(f.path);
      }
      progress({
        phase: 'reading',
        files: readFiles,
        totalFiles: found.length,
        bytes: readBytes,
        totalBytes: foundBytes,
      });
      const w = y.maybeYield();
      if (w) await w;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.readConcurrency ?? 8) }, reader));
  if (signal.aborted) return null;
  progress(
    {
      phase: 'indexing',
      files: readFiles,
      totalFiles: found.length,
      bytes: readBytes,
      totalBytes: foundBytes,
    },
    true,
  );

  textFiles.sort();
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const skippedByReason: Record<string, number> = {};
  for (const s of skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  const stats: Snapshot['stats'] = {
    elapsedMs: elapsedSince(t0),
    ending: 'complete',
    name: raw.name,
    kind,
    files: textFiles.length,
    bytes: readBytes,
    skippedByReason,
  };
  return { source, textFiles, stamps, skipped, stats, raw };
}

function compareEntries(a: TreeEntry, b: TreeEntry): number {
  if (a.kind !== b.kind) return a.kind === 'directory' ? -1 : 1;
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The explorer's tree of one snapshot: loaded files plus skipped entries (greyed), sorted per directory on first listing. */
export class FileTree {
  private readonly dirs = new Map<string, TreeEntry[]>([['', []]]);
  private readonly sorted = new Set<string>();

  constructor(files: string[], skipped: Skipped[]) {
    for (const f of files) this.add(f, { kind: 'file' });
    for (const s of skipped) {
      if (s.path === '') continue;
      if (s.directory && this.dirs.has(s.path)) continue;
      this.add(s.path, { kind: s.directory ? 'directory' : 'file', skipped: s.reason });
    }
  }

  private ensureDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    const i = dir.lastIndexOf('/');
    const parent = i < 0 ? '' : dir.slice(0, i);
    this.ensureDir(parent);
    this.dirs.set(dir, []);
    this.dirs.get(parent)!.push({ name: dir.slice(i + 1), path: dir, kind: 'directory' });
  }

  private add(path: string, entry: Omit<TreeEntry, 'name' | 'path'>): void {
    const i = path.lastIndexOf('/');
    const parent = i < 0 ? '' : path.slice(0, i);
    this.ensureDir(parent);
    this.dirs.get(parent)!.push({ name: path.slice(i + 1), path, ...entry });
  }

  /** The entries of a root-relative directory ('' for the root). */
  list(dir: string): TreeEntry[] {
    const entries = this.dirs.get(dir);
    if (!entries) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (!this.sorted.has(dir)) {
      entries.sort(compareEntries);
      for (const e of entries) if (e.kind === 'directory') e.childCount = this.dirs.get(e.path)?.length ?? 0;
      this.sorted.add(dir);
    }
    return entries;
  }
}

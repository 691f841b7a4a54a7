/**
 * The bytes of indexed files, held in memory so an indexed search reads no file (Zoekt's way):
 * packed one after another in large blocks (one allocation per block, not per file), each file
 * found by (block, offset, length) under its workspace path, with the size and modified time the
 * index read it at. A file replaced or dropped leaves a hole; holes are reclaimed by copying the
 * live files into fresh blocks once they are a third of what is held.
 *
 * A budget caps the bytes held: past it a file is not held and the search reads it from its
 * source as before (`missed` says how many, and how many bytes). Nothing here reads a file.
 */
import { INDEX_MAX_TEXT_BYTES } from '../limits';
import type { FileSource } from './types';

/** Bytes per block: files are packed into blocks of this size (a larger file gets a block of its own). */
export const HELD_BLOCK_BYTES = 16 * 1024 * 1024;

const MIN_BLOCK_BYTES = 1024 * 1024;

/** The default budget: the index's own text budget, so every file the index holds can be held. */
export const DEFAULT_HELD_BUDGET_BYTES = INDEX_MAX_TEXT_BYTES;

interface Entry {
  block: number;
  offset: number;
  length: number;
  size: number;
  mtimeMs: number;
}

export interface HeldStats {
  files: number;
  /** Bytes of held files. */
  bytes: number;
  /** Bytes allocated for them (blocks, holes included). */
  allocated: number;
  budget: number;
  /** Files offered but not held (over the budget) and their bytes: the search reads them from disk. */
  missedFiles: number;
  missedBytes: number;
}

export class HeldContents {
  private blocks: Uint8Array[] = [];
  /** Bytes used at the end of the last block. */
  private tail = 0;
  private readonly entries = new Map<string, Entry>();
  private liveBytes = 0;
  private missed = new Map<string, number>();

  constructor(
    readonly budget = DEFAULT_HELD_BUDGET_BYTES,
    private readonly blockBytes = HELD_BLOCK_BYTES,
  ) {}

  /** Hold `bytes` as `path`'s content at (size, mtimeMs); false when the budget leaves no room (then nothing is held for it). */
  hold(path: string, bytes: Uint8Array, mtimeMs: number): boolean {
    this.drop(path);
    const n = bytes.byteLength;
    if (this.liveBytes + n > this.budget) {
      this.missed.set(path, n);
      return false;
    }
    this.missed.delete(path);
    const at = this.place(n);
    this.blocks[at.block].set(bytes, at.offset);
    this.entries.set(path, { ...at, length: n, size: n, mtimeMs });
    this.liveBytes += n;
    return true;
  }

  /** The held bytes of `path` (a view; do not write to it), or undefined. With a stamp: only when it matches. */
  get(path: string, size?: number, mtimeMs?: number): Uint8Array | undefined {
    const e = this.entries.get(path);
    if (!e) return undefined;
    if (size !== undefined && e.size !== size) return undefined;
    if (mtimeMs !== undefined && e.mtimeMs !== mtimeMs) return undefined;
    return this.blocks[e.block].subarray(e.offset, e.offset + e.length);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Forget `path` (changed or removed). */
  drop(path: string): void {
    this.missed.delete(path);
    const e = this.entries.get(path);
    if (!e) return;
    this.entries.delete(path);
    this.liveBytes -= e.length;
    const used = this.allocated() - this.freeTail();
    if (used - this.liveBytes > Math.max(this.blockBytes, used / 3)) this.compact();
  }

  /**
   * Give back the free end of the last block (after a build or a fill: the blocks grow by up to
   * HELD_BLOCK_BYTES at a time, so up to that much would stay allocated and unused).
   */
  trim(): void {
    const last = this.blocks.length - 1;
    if (last < 0 || this.tail === this.blocks[last].byteLength) return;
    this.blocks[last] = this.blocks[last].slice(0, this.tail);
  }

  /** Forget every file `keep` says no to (a full rebuild's files that are gone). */
  retainOnly(keep: (path: string) => boolean): void {
    for (const path of [...this.entries.keys()]) if (!keep(path)) this.drop(path);
  }

  clear(): void {
    this.blocks = [];
    this.tail = 0;
    this.entries.clear();
    this.missed.clear();
    this.liveBytes = 0;
  }

  stats(): HeldStats {
    let missedBytes = 0;
    for (const n of this.missed.values()) missedBytes += n;
    return {
      files: this.entries.size,
      bytes: this.liveBytes,
      allocated: this.allocated(),
      budget: this.budget,
      missedFiles: this.missed.size,
      missedBytes,
    };
  }

  private allocated(): number {
    let n = 0;
    for (const b of this.blocks) n += b.byteLength;
    return n;
  }

  /** Free bytes at the end of the last block. */
  private freeTail(): number {
    const last = this.blocks[this.blocks.length - 1];
    return last ? last.byteLength - this.tail : 0;
  }

  /** Room for `n` bytes: at the end of the last block, else in a new one. */
  private place(n: number): { block: number; offset: number } {
    const last = this.blocks.length - 1;
    if (last >= 0 && this.blocks[last].byteLength - this.tail >= n) {
      const offset = this.tail;
      this.tail += n;
      return { block: last, offset };
    }
    // blocks grow with what is held (1 MiB, then as much again, up to blockBytes): a small repository
    // holds little; a file larger than a block gets one of its own (rare: the index holds files up to 1 MiB)
    const grown = Math.min(this.blockBytes, Math.max(MIN_BLOCK_BYTES, this.allocated()));
    this.blocks.push(new Uint8Array(Math.max(n, grown)));
    this.tail = n;
    return { block: this.blocks.length - 1, offset: 0 };
  }

  /** Copy the live files into fresh blocks, in the order they were held. */
  private compact(): void {
    const old = this.blocks;
    const live = [...this.entries];
    this.blocks = [];
    this.tail = 0;
    for (const [, e] of live) {
      const bytes = old[e.block].subarray(e.offset, e.offset + e.length);
      const at = this.place(e.length);
      this.blocks[at.block].set(bytes, at.offset);
      e.block = at.block;
      e.offset = at.offset;
    }
  }
}

/**
 * A root's source for one search that reads one file from memory: `use(bytes)` before each file
 * (the file the search reads next); everything else is the root's own source.
 */
export class HeldFileView implements FileSource {
  private bytes: Uint8Array = new Uint8Array(0);
  readonly name: string;
  readonly absoluteRoot: string;
  readonly decode?: FileSource['decode'];
  readonly decodeUtf8?: FileSource['decodeUtf8'];

  constructor(private readonly source: FileSource) {
    this.name = source.name;
    this.absoluteRoot = source.absoluteRoot;
    if (source.decode) this.decode = source.decode.bind(source);
    if (source.decodeUtf8) this.decodeUtf8 = source.decodeUtf8.bind(source);
  }

  use(bytes: Uint8Array): this {
    this.bytes = bytes;
    return this;
  }

  list(dir: string) {
    return this.source.list(dir);
  }
  stat(path: string) {
    return this.source.stat(path);
  }
  async read(): Promise<Uint8Array> {
    return this.bytes.slice();
  }
  async readTransient(): Promise<Uint8Array> {
    return this.bytes;
  }
  async readRanges(_path: string, _ranges: unknown, size: number): Promise<Uint8Array | null> {
    return this.bytes.byteLength === size ? this.bytes : null;
  }
}

/**
 * The FileSource port: everything Quarry reads goes through list / stat / read.
 * Paths are POSIX, relative to the source's root, with no leading slash ('' is the root).
 * Adapters (Node fs, File System Access, lightning-fs, memory) implement it, and keep every
 * access inside the root: a path that resolves outside it (through a symlink) is refused with
 * PathOutsideRoot (reason 'outsideRoot'), and only regular files are ever opened for reading.
 */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface DirEntry {
  name: string;
  /** The entry's own kind: a symlink is reported as 'symlink' and resolved with stat(). */
  kind: EntryKind;
}

export interface FileStat {
  /** Kind after following symlinks. */
  kind: Exclude<EntryKind, 'symlink'>;
  size: number;
  /**
   * When the file last changed, compared (with the size) to tell whether an index is stale. A
   * source may report a stamp later than the modification time: Node's is the later of mtime and
   * ctime, so an edit that puts the old mtime back (`touch -r`) still counts as a change.
   */
  mtimeMs: number;
  /** Identity of the resolved directory or file (for example dev:ino), used to detect symlink loops. */
  id?: string;
  /** For kind 'other': what it is ('FIFO', 'socket', 'character device', 'block device'). */
  special?: string;
}

export interface FileSource {
  /** Short name of the root, used as a path prefix when a workspace holds several roots. */
  readonly name: string;
  /** How the root is shown as an absolute path (a real directory in Node, a label in the browser). */
  readonly absoluteRoot: string;
  list(dir: string): Promise<DirEntry[]>;
  /** null when nothing exists at the path (or a symlink is broken). */
  stat(path: string): Promise<FileStat | null>;
  /**
   * Optional: stat() of a path its directory's listing called a regular file, just before it
   * is read (the search). The source may keep the file open for that read: one open and fstat
   * instead of an lstat, an open and an fstat.
   */
  statFile?(path: string): Promise<FileStat | null>;
  read(path: string): Promise<Uint8Array>;
  /**
   * Optional: the bytes of a file in a buffer that stays valid only until the next call
   * (no allocation per file). Only a source's single reader may use it (the search's lanes and
   * chunk scans, one per source), decoding before its next await: with two readers in flight
   * the second read overwrites the first's bytes (readText uses `read` for that reason).
   */
  readTransient?(path: string): Promise<Uint8Array>;
  /**
   * Optional: a transient buffer of the file's length (valid until the next read) in which
   * only `ranges` ([start, end) byte offsets, ascending, not overlapping) hold the file's
   * bytes, or null when the file is not `size` bytes long or (given) was modified at another
   * time than `mtimeMs`: it changed since it was indexed. The indexed search reads a long
   * file's candidate segments with it.
   */
  readRanges?(
    path: string,
    ranges: ReadonlyArray<readonly [number, number]>,
    size: number,
    mtimeMs?: number,
  ): Promise<Uint8Array | null>;
  /**
   * Optional: the file's bytes in successive pieces of about `chunkBytes` (each valid until the
   * next one is asked for), so a reader can stop early: read_file streams line ranges of large
   * files with it. Breaking out of the loop closes the file.
   */
  readChunks?(path: string, chunkBytes: number): AsyncIterable<Uint8Array>;
  /**
   * Optional: forget what the source remembers about which directories stay inside the root, so
   * the next accesses check afresh. callTool calls it before every tool call (a long-lived MCP
   * server must not trust a check made before the repository changed).
   */
  forgetChecks?(): void;
  /**
   * Optional: a faster platform decoder with exactly decodeBytes()'s answer (BOM, binary
   * sniffing, UTF-8 with U+FFFD replacement). The Node adapter uses Buffer's native decoders.
   */
  decode?(bytes: Uint8Array): Decoded;
  /**
   * Optional: bytes[start, end) as text exactly as TextDecoder('utf-8', { ignoreBOM: true })
   * decodes them (U+FFFD for invalid sequences, a U+FEFF kept), without TextDecoder's per-call
   * cost: the search decodes each matching line alone with it. The Node adapter uses Buffer's.
   */
  decodeUtf8?(bytes: Uint8Array, start: number, end: number): string;
}

import type { Decoded } from '../walk/decode';

/** Join POSIX path segments, ignoring empty ones. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Final extension without the dot ('' when none): `a/b.test.ts` -> `ts`. */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const i = name.lastIndexOf('.');
  return i <= 0 ? '' : name.slice(i + 1);
}

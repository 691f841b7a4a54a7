/**
 * FileSource over a real directory with Node's fs. Sync calls inside async methods on
 * purpose: per-file promise I/O costs several times more than the read itself on
 * trees of thousands of small files, and the CLI has nothing else to do meanwhile.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QuarryError } from '../../core/errors';
import { isAscii } from 'node:buffer';
import type { DirEntry, EntryKind, FileSource, FileStat } from '../../core/source/types';
import { decodeBytes, hasNulByte, type Decoded } from '../../core/walk/decode';

function kindOf(d: fs.Dirent | fs.Stats): EntryKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  return 'other';
}

export class NodeFsSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;

  constructor(root: string, name?: string) {
    this.absoluteRoot = path.resolve(root);
    this.name = name ?? (path.basename(this.absoluteRoot) || this.absoluteRoot);
  }

  private abs(rel: string): string {
    return rel === '' ? this.absoluteRoot : path.join(this.absoluteRoot, ...rel.split('/'));
  }

  async list(dir: string): Promise<DirEntry[]> {
    try {
      return fs.readdirSync(this.abs(dir), { withFileTypes: true }).map((d) => ({ name: d.name, kind: kindOf(d) }));
    } catch (err) {
      throw fsError(err, dir);
    }
  }

  async stat(rel: string): Promise<FileStat | null> {
    try {
      const st = fs.statSync(this.abs(rel));
      const kind = kindOf(st);
      return {
        kind: kind === 'symlink' ? 'other' : kind,
        size: st.size,
        mtimeMs: st.mtimeMs,
        id: `${st.dev}:${st.ino}`,
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
      throw fsError(err, rel);
    }
  }

  private scratch = Buffer.allocUnsafe(1 << 20);

  /**
   * decodeBytes()'s answer, faster: pure-ASCII text (most source files) becomes a one-byte
   * string with no UTF-8 decoding at all; other UTF-8 goes through Buffer's native decoder,
   * which replaces invalid sequences exactly as TextDecoder does (a test compares them).
   */
  decode(bytes: Uint8Array): Decoded {
    const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const bomOrUtf16 = b.length >= 2 && ((b[0] === 0xef && b[1] === 0xbb) || (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
    if (bomOrUtf16) return decodeBytes(bytes);
    if (hasNulByte(b)) return { binary: true };
    const text = isAscii(b) ? b.toString('latin1') : b.toString('utf8');
    return { binary: false, text, encoding: 'utf-8' };
  }

  /** fn(fd) on the file opened for reading, closed after; errors become QuarryErrors. */
  private withFile<T>(rel: string, fn: (fd: number) => T): T {
    let fd: number;
    try {
      fd = fs.openSync(this.abs(rel), 'r');
    } catch (err) {
      throw fsError(err, rel);
    }
    try {
      return fn(fd);
    } catch (err) {
      throw fsError(err, rel);
    } finally {
      fs.closeSync(fd);
    }
  }

  async readTransient(rel: string): Promise<Uint8Array> {
    return this.withFile(rel, (fd) => {
      let size = 0;
      for (;;) {
        if (size === this.scratch.length) {
          const grown = Buffer.allocUnsafe(this.scratch.length * 2);
          this.scratch.copy(grown, 0, 0, size);
          this.scratch = grown;
        }
        const n = fs.readSync(fd, this.scratch, size, this.scratch.length - size, null);
        if (n === 0) break;
        size += n;
      }
      return this.scratch.subarray(0, size);
    });
  }

  async readRanges(rel: string, ranges: ReadonlyArray<readonly [number, number]>, size: number, mtimeMs?: number): Promise<Uint8Array | null> {
    return this.withFile(rel, (fd) => {
      const st = fs.fstatSync(fd);
      if (st.size !== size || (mtimeMs !== undefined && st.mtimeMs !== mtimeMs)) return null;
      if (this.scratch.length < size) this.scratch = Buffer.allocUnsafe(Math.max(size, this.scratch.length * 2));
      for (const [start, end] of ranges) {
        for (let at = start; at < end;) {
          const n = fs.readSync(fd, this.scratch, at, end - at, at);
          if (n === 0) return null; // shorter than it said: it is changing
          at += n;
        }
      }
      return this.scratch.subarray(0, size);
    });
  }

  async read(rel: string): Promise<Uint8Array> {
    try {
      return fs.readFileSync(this.abs(rel));
    } catch (err) {
      throw fsError(err, rel);
    }
  }
}

function fsError(err: unknown, rel: string): QuarryError {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new QuarryError('NotFound', `No such file or directory: ${rel || '.'}`, { path: rel });
  return new QuarryError('Unreadable', `Cannot read ${rel || '.'}: ${e.code ?? e.message}`, { path: rel, cause: e.code });
}

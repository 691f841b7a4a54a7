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
import { dirName } from '../../core/source/types';
import { decodeBytes, hasNulByte, type Decoded } from '../../core/walk/decode';

/** decodeUtf8 checks a range this long or longer for ASCII first (shorter: the check costs more than it saves). */
export const ASCII_CHECK_BYTES = 128;

/** A file open for reading, with what its fstat said at the open (mtimeMs: its change stamp). */
interface Opened {
  fd: number;
  size: number;
  mtimeMs: number;
}

/**
 * What the source reports as a file's mtimeMs: the later of its modification time and its status
 * change time. An edit that keeps the size and puts the old modification time back (`touch -r`,
 * a restore, a tool that preserves times) still moves the ctime, which no one can set, so the
 * indexes that compare size and time see the change; a chmod or a rename also counts (a re-read).
 */
export function changeStamp(st: { mtimeMs: number; ctimeMs: number }): number {
  return st.ctimeMs > st.mtimeMs ? st.ctimeMs : st.mtimeMs;
}

function kindOf(d: fs.Dirent | fs.Stats): EntryKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  return 'other';
}

function specialOf(st: fs.Stats): string | undefined {
  if (st.isFIFO()) return 'FIFO';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  return undefined;
}

/** A relative path that path.join would change: a '.' or '..' segment, an empty one, a leading or trailing '/'. */
const NOT_PLAIN = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|^\/|\/$/;

/** Read-only and never blocking at open (a FIFO with no writer would wait forever otherwise). */
const OPEN_READ = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
/** The final component must not be a symlink: one is checked (stays inside the root?) first. */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** A directory opened to list it: never blocking, and only a directory (a FIFO there fails at once). */
const OPEN_DIR = OPEN_READ | (fs.constants.O_DIRECTORY ?? 0);

export class NodeFsSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  /** The root with every symlink resolved: whatever is read must resolve under it. */
  private readonly realRoot: string;
  /** Root-relative directories already resolved inside the root (cleared when a walk lists the root). */
  private readonly insideDirs = new Set<string>();

  constructor(root: string, name?: string) {
    this.absoluteRoot = path.resolve(root);
    this.name = name ?? (path.basename(this.absoluteRoot) || this.absoluteRoot);
    let real = this.absoluteRoot;
    try {
      real = fs.realpathSync.native(this.absoluteRoot);
    } catch {
      // a missing root fails at its first use, with the usual message
    }
    this.realRoot = real;
  }

  private abs(rel: string): string {
    if (rel === '') return this.absoluteRoot;
    // a plain relative path (what the walk makes): path.join's answer, without its cost per file
    if (path.sep === '/' && !NOT_PLAIN.test(rel))
      return (this.absoluteRoot.endsWith('/') ? this.absoluteRoot : this.absoluteRoot + '/') + rel;
    const abs = path.join(this.absoluteRoot, ...rel.split('/'));
    // a backstop (the workspace refuses climbs first): on Windows a segment like '..\\x' climbs
    if (path.sep !== '/' || rel.includes('..')) {
      const back = path.relative(this.absoluteRoot, abs);
      if (back === '..' || back.startsWith('..' + path.sep) || path.isAbsolute(back)) {
        throw new QuarryError('PathOutsideRoot', `${rel} is outside the root`, {
          path: rel,
          reason: 'outsideRoot',
        });
      }
    }
    return abs;
  }

  private isInside(real: string): boolean {
    return (
      real === this.realRoot ||
      real.startsWith(this.realRoot.endsWith(path.sep) ? this.realRoot : this.realRoot + path.sep)
    );
  }

  /** Throws PathOutsideRoot when `dir` resolves (through symlinks) outside the root. */
  private checkDir(dir: string): void {
    if (dir === '' || this.insideDirs.has(dir)) return;
    this.checkResolved(dir);
    this.insideDirs.add(dir);
  }

  /** Resolve every symlink on `rel`: PathOutsideRoot when it leads outside the root (a broken link is NotFound). */
  private checkResolved(rel: string): void {
    let real: string;
    try {
      real = fs.realpathSync.native(this.abs(rel));
    } catch (err) {
      throw fsError(err, rel);
    }
    if (!this.isInside(real)) throw outsideRoot(rel);
  }

  /** Resolve every directory afresh from now on (a long-lived process calls it per request). */
  forgetChecks(): void {
    this.release();
    this.insideDirs.clear();
  }

  async list(dir: string): Promise<DirEntry[]> {
    this.release();
    if (dir === '') this.insideDirs.clear(); // every walk from the root checks its directories afresh
    this.insideDirs.delete(dir); // a listing always resolves its directory afresh
    this.checkDir(dir);
    try {
      return this.readDir(dir).map((d) => ({ name: d.name, kind: kindOf(d) }));
    } catch (err) {
      throw fsError(err, dir);
    }
  }

  /**
   * The directory's entries, read through a descriptor the kernel says is inside the root (on
   * Linux, /proc/self/fd: the listing is of the very directory checked), so a directory swapped
   * for an outside link after checkDir() cannot list the outside folder. Elsewhere the path
   * resolved now is checked, then listed.
   */
  private readDir(dir: string): fs.Dirent[] {
    const abs = this.abs(dir);
    const fd = fs.openSync(abs, OPEN_DIR);
    try {
      if (!this.isInside(realPathOf(fd, abs))) throw outsideRoot(dir);
      return fs.readdirSync(procFd ? `/proc/self/fd/${fd}` : abs, { withFileTypes: true });
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The file statFile() opened to learn its size, kept for the read that follows (any other
   * call closes it first, so at most one descriptor is held).
   */
  private held: (Opened & { rel: string }) | null = null;

  private release(): void {
    const h = this.held;
    if (!h) return;
    this.held = null;
    try {
      fs.closeSync(h.fd);
    } catch {
      // already closed: nothing to free
    }
  }

  /** The descriptor statFile() holds for `rel` (handed over: the caller closes it), else null. */
  private take(rel: string): Opened | null {
    const h = this.held;
    if (h && h.rel === rel) {
      this.held = null;
      return h;
    }
    this.release();
    return null;
  }

  /**
   * stat() of a listed regular file, by opening it (never blocking, never following a final
   * symlink) and asking the descriptor: three syscalls with the read that follows, not four
   * (lstat, open, fstat). Anything but a regular file that opens, or any failure to open,
   * takes stat()'s own path, so the answer is always stat()'s.
   */
  async statFile(rel: string): Promise<FileStat | null> {
    this.release();
    if (rel === '') return this.stat(rel);
    let fd: number;
    try {
      this.checkDir(dirName(rel));
      fd = fs.openSync(this.abs(rel), OPEN_READ | NO_FOLLOW);
    } catch {
      return this.stat(rel);
    }
    let st: fs.Stats;
    try {
      st = fs.fstatSync(fd);
    } catch {
      fs.closeSync(fd);
      return this.stat(rel);
    }
    if (!st.isFile()) {
      fs.closeSync(fd);
      return this.stat(rel);
    }
    const mtimeMs = changeStamp(st);
    this.held = { rel, fd, size: st.size, mtimeMs };
    return { kind: 'file', size: st.size, mtimeMs, id: `${st.dev}:${st.ino}` };
  }

  async stat(rel: string): Promise<FileStat | null> {
    this.release();
    try {
      if (rel !== '') this.checkDir(dirName(rel));
      const abs = this.abs(rel);
      let st = fs.lstatSync(abs);
      if (st.isSymbolicLink()) {
        this.checkResolved(rel);
        st = fs.statSync(abs);
      }
      const kind = kindOf(st);
      const out: FileStat = {
        kind: kind === 'symlink' ? 'other' : kind,
        size: st.size,
        mtimeMs: changeStamp(st),
        id: `${st.dev}:${st.ino}`,
      };
      const special = kind === 'other' ? specialOf(st) : undefined;
      if (special) out.special = special;
      return out;
    } catch (err) {
      if (err instanceof QuarryError) {
        if (err.code === 'NotFound') return null;
        throw err;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG') return null;
      throw fsError(err, rel);
    }
  }

  /**
   * Open a regular file inside the root for reading, or throw (outside the root, a FIFO, a
   * device...). The checks before opening use the directory cache (cleared by every walk from
   * the root and by forgetChecks(), which callTool runs before every tool call); then, at every
   * open (the search's hot path too: readTransient, readRanges, statFile's held descriptor), the
   * kernel says where the descriptor really points (/proc/self/fd on Linux), so a directory
   * swapped for a link since it was checked cannot lead a read outside (issue 34: the cache alone
   * let a swap during a search return outside text). `size` is the file's size at open: readers
   * stop there, so a growing file cannot make a read endless.
   */
  private open(rel: string): Opened {
    const held = this.take(rel);
    if (held) {
      if (!this.isInside(realPathOf(held.fd, this.abs(rel)))) {
        fs.closeSync(held.fd);
        throw outsideRoot(rel);
      }
      return held;
    }
    this.checkDir(dirName(rel));
    const abs = this.abs(rel);
    let fd: number;
    try {
      fd = fs.openSync(abs, OPEN_READ | NO_FOLLOW);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOOP' || !NO_FOLLOW) throw fsError(err, rel);
      this.checkResolved(rel); // the file is a symlink: followed only when it stays inside
      try {
        fd = fs.openSync(abs, OPEN_READ);
      } catch (err2) {
        throw fsError(err2, rel);
      }
    }
    try {
      if (!this.isInside(realPathOf(fd, abs))) throw outsideRoot(rel);
      const st = fs.fstatSync(fd);
      if (!st.isFile()) {
        const what = st.isDirectory() ? 'a directory' : `a ${specialOf(st) ?? 'special file'}`;
        throw new QuarryError('Unreadable', `Not a regular file: ${rel} is ${what}`, {
          path: rel,
          reason: 'notRegular',
        });
      }
      return { fd, size: st.size, mtimeMs: changeStamp(st) };
    } catch (err) {
      fs.closeSync(fd);
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
    const bomOrUtf16 =
      b.length >= 2 &&
      ((b[0] === 0xef && b[1] === 0xbb) ||
        (b[0] === 0xff && b[1] === 0xfe) ||
        (b[0] === 0xfe && b[1] === 0xff));
    if (bomOrUtf16) return decodeBytes(bytes);
    if (hasNulByte(b)) return { binary: true };
    const text = isAscii(b) ? b.toString('latin1') : b.toString('utf8');
    return { binary: false, text, encoding: 'utf-8' };
  }

  /** The last plain Uint8Array decodeUtf8() was handed, as a Buffer over the same memory. */
  private lastBytes: Uint8Array | null = null;
  private lastBuffer: Buffer | null = null;

  /** bytes[start, end) as TextDecoder decodes them, through Buffer's native UTF-8 decoder (a test compares them). */
  decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
    let b: Buffer;
    if (Buffer.isBuffer(bytes)) b = bytes;
    else if (bytes === this.lastBytes) b = this.lastBuffer!;
    else {
      b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      this.lastBytes = bytes;
      this.lastBuffer = b;
    }
    // (utf8Slice: toString('utf8', start, end) without its argument checks, a third of a short line's cost)
    const fast = b as Buffer & {
      utf8Slice?(start: number, end: number): string;
      latin1Slice?(start: number, end: number): string;
    };
    // Node 20's UTF-8 decoder runs at ~250 MB/s even on ASCII; a long ASCII run is the same text
    // as Latin-1, copied far faster (the bench's `return`, 15 MB of long ASCII lines: ~35 ms less).
    // (A mostly-ASCII line decoded block by block was tried: V8 then flattens the rope of blocks
    // on the first search of it, slower than decoding it whole.)
    if (end - start >= ASCII_CHECK_BYTES && fast.latin1Slice && isAscii(b.subarray(start, end)))
      return fast.latin1Slice(start, end);
    return fast.utf8Slice ? fast.utf8Slice(start, end) : b.toString('utf8', start, end);
  }

  /** fn(fd) on the file opened for reading, closed after; errors become QuarryErrors. */
  private withFile<T>(rel: string, fn: (fd: number, size: number, mtimeMs: number) => T): T {
    const { fd, size, mtimeMs } = this.open(rel);
    try {
      return fn(fd, size, mtimeMs);
    } catch (err) {
      throw fsError(err, rel);
    } finally {
      fs.closeSync(fd);
    }
  }

  async readTransient(rel: string): Promise<Uint8Array> {
    return this.withFile(rel, (fd, atOpen) => {
      if (this.scratch.length < atOpen)
        this.scratch = Buffer.allocUnsafe(Math.max(atOpen, this.scratch.length * 2));
      const size = readUpTo(fd, this.scratch, atOpen);
      return this.scratch.subarray(0, size);
    });
  }

  async readRanges(
    rel: string,
    ranges: ReadonlyArray<readonly [number, number]>,
    size: number,
    mtimeMs?: number,
  ): Promise<Uint8Array | null> {
    return this.withFile(rel, (fd, atOpen, mtimeAtOpen) => {
      // (the size and time the open's fstat saw: no second fstat)
      if (atOpen !== size || (mtimeMs !== undefined && mtimeAtOpen !== mtimeMs)) return null;
      if (this.scratch.length < size)
        this.scratch = Buffer.allocUnsafe(Math.max(size, this.scratch.length * 2));
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
    return this.withFile(rel, (fd, atOpen) => {
      const buf = Buffer.allocUnsafe(atOpen);
      return buf.subarray(0, readUpTo(fd, buf, atOpen));
    });
  }

  async *readChunks(rel: string, chunkBytes: number): AsyncIterable<Uint8Array> {
    const { fd, size } = this.open(rel);
    try {
      const buf = Buffer.allocUnsafe(Math.max(1, chunkBytes));
      for (let left = size; left > 0;) {
        let n: number;
        try {
          n = fs.readSync(fd, buf, 0, Math.min(buf.length, left), null);
        } catch (err) {
          throw fsError(err, rel);
        }
        if (n === 0) return;
        left -= n;
        yield buf.subarray(0, n);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** Read into buf from the start until `size` bytes or the end of the file; the bytes read. */
function readUpTo(fd: number, buf: Buffer, size: number): number {
  let at = 0;
  while (at < size) {
    const n = fs.readSync(fd, buf, at, size - at, null);
    if (n === 0) break;
    at += n;
  }
  return at;
}

let procFd: boolean | null = null;

/** Where an open descriptor really points: the kernel's answer on Linux, else the path resolved now. */
function realPathOf(fd: number, abs: string): string {
  if (procFd !== false) {
    try {
      const p = fs.readlinkSync(`/proc/self/fd/${fd}`);
      procFd = true;
      return p.endsWith(' (deleted)') ? p.slice(0, -' (deleted)'.length) : p;
    } catch {
      procFd = procFd ?? false;
    }
  }
  return fs.realpathSync.native(abs);
}

function outsideRoot(rel: string): QuarryError {
  return new QuarryError('PathOutsideRoot', `${rel} leads outside the root through a symbolic link`, {
    path: rel,
    reason: 'outsideRoot',
  });
}

function fsError(err: unknown, rel: string): QuarryError {
  if (err instanceof QuarryError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'ENAMETOOLONG') {
    return new QuarryError('NotFound', `No such file or directory: ${rel || '.'}`, { path: rel });
  }
  if (e.code === 'EACCES' || e.code === 'EPERM')
    return new QuarryError('Unreadable', `Permission denied: ${rel || '.'}`, {
      path: rel,
      reason: 'unreadable',
      cause: e.code,
    });
  if (e.code === 'ELOOP')
    return new QuarryError('Unreadable', `Too many levels of symbolic links: ${rel || '.'}`, {
      path: rel,
      reason: 'symlinkLoop',
      cause: e.code,
    });
  return new QuarryError('Unreadable', `Cannot read ${rel || '.'}: ${e.code ?? e.message}`, {
    path: rel,
    cause: e.code,
  });
}

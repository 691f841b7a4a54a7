/**
 * The CLI's index cache: one file per workspace under $QUARRY_CACHE_DIR, else
 * $XDG_CACHE_HOME/quarry, else ~/.cache/quarry. Writes go to a temp file then rename, so a
 * killed process never leaves a half-written index. Only regular files are read or written (issue
 * 34: a cache file replaced by a link to /dev/zero was read until memory ran out, a FIFO hung).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexStore } from '../../core/rank/persist';

/**
 * null when there is nowhere to put it: no QUARRY_CACHE_DIR, no XDG_CACHE_HOME and no HOME (the
 * index is then kept in memory, with a warning; the passwd home is not guessed).
 */
export function defaultCacheDir(env: Record<string, string | undefined> = process.env): string | null {
  if (env.QUARRY_CACHE_DIR) return env.QUARRY_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'quarry');
  return env.HOME ? path.join(env.HOME, '.cache', 'quarry') : null;
}

export function workspaceKey(roots: string[]): string {
  return createHash('sha256')
    .update(roots.map((r) => path.resolve(r)).join('\0'))
    .digest('hex')
    .slice(0, 24);
}

/** The largest cache file read (2 GiB, what one read into a buffer can take): a larger one is a miss, rebuilt. */
export const MAX_CACHE_FILE_BYTES = 2 ** 31 - 1;

/** Read-only, never blocking at open (a FIFO), never through a link at the file itself. */
const OPEN_READ = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);
/** A new file only: a name already taken (a planted link or FIFO) fails instead of being written through. */
const CREATE_NEW =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

export class FileIndexStore implements IndexStore {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  /**
   * The stored bytes, or null: only a regular file is read (a link, a FIFO, a device or a
   * directory there is a miss, answered at once), and only as many bytes as it held when it was
   * opened (its fstat), so a file that keeps growing cannot make the read endless.
   */
  async load(key: string): Promise<Uint8Array | null> {
    let fd: number;
    try {
      fd = fs.openSync(this.file(key), OPEN_READ);
    } catch {
      return null; // missing, unreadable, or a link (ELOOP)
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > MAX_CACHE_FILE_BYTES) return null;
      const buf = Buffer.allocUnsafe(st.size);
      let at = 0;
      while (at < st.size) {
        const n = fs.readSync(fd, buf, at, st.size - at, at);
        if (n === 0) return null; // shorter than it was: being replaced, a miss
        at += n;
      }
      return buf;
    } catch {
      return null;
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Written to a temp file of this process's, then renamed over the cache file (which replaces
   * whatever entry was there, a link included, never writing through it). The temp name is cleared
   * first and created new (O_EXCL, no link followed), so nothing planted there is written through
   * or blocks the write (a FIFO).
   */
  async save(key: string, data: Uint8Array): Promise<void> {
    const target = this.file(key);
    const tmp = `${target}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.rmSync(tmp, { force: true });
      const fd = fs.openSync(tmp, CREATE_NEW, 0o666);
      try {
        for (let at = 0; at < data.byteLength;) at += fs.writeSync(fd, data, at, data.byteLength - at);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
    } catch (err) {
      fs.rmSync(tmp, { force: true }); // never leave a temp file behind (a full disk, a read-only directory)
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    fs.rmSync(this.file(key), { force: true });
  }
}

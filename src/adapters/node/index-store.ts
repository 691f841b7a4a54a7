/**
 * The CLI's index cache: one file per workspace under $QUARRY_CACHE_DIR, else
 * $XDG_CACHE_HOME/quarry, else ~/.cache/quarry. Writes go to a temp file then rename, so a
 * killed process never leaves a half-written index.
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

export class FileIndexStore implements IndexStore {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  async load(key: string): Promise<Uint8Array | null> {
    try {
      return fs.readFileSync(this.file(key));
    } catch {
      return null;
    }
  }

  async save(key: string, data: Uint8Array): Promise<void> {
    const target = this.file(key);
    const tmp = `${target}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(tmp, data);
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

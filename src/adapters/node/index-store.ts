/**
 * The CLI's index cache: one file per workspace under $QUARRY_CACHE_DIR, else
 * $XDG_CACHE_HOME/quarry, else ~/.cache/quarry. Writes go to a temp file then rename, so a
 * killed process never leaves a half-written index.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IndexStore } from '../../core/rank/persist';

export function defaultCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.QUARRY_CACHE_DIR) return env.QUARRY_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'quarry');
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
    fs.mkdirSync(this.dir, { recursive: true });
    const target = this.file(key);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, target);
  }

  async remove(key: string): Promise<void> {
    fs.rmSync(this.file(key), { force: true });
  }
}

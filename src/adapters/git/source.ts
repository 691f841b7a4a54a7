/**
 * FileSource over a clone's checked-out working tree in lightning-fs. `.git` is listed like
 * any directory; the walk policy skips it. stat() returns lightning-fs's own mtimeMs, which
 * only changes when checkout rewrites a file, so the index's (size, mtime) refresh re-reads
 * exactly what fetchUpdates changed.
 */
import { QuarryError } from '../../core/errors';
import type { DirEntry, FileSource, FileStat } from '../../core/source/types';
import { gitStorage, repoDir } from './storage';

interface LfsStat {
  type: 'file' | 'dir' | 'symlink';
  size: number;
  mtimeMs: number;
  ino: number;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class GitFileSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private readonly root: string;

  constructor(
    readonly id: string,
    options: { name?: string; absoluteRoot?: string } = {},
  ) {
    this.root = repoDir(id);
    this.name = options.name ?? id.split('/').pop()!.replace(/@.*$/, '');
    this.absoluteRoot = options.absoluteRoot ?? `git:${id}`;
  }

  private full(path: string): string {
    if (path.split('/').includes('..')) throw new QuarryError('PathOutsideRoot', `Path leaves the repository: ${path}`, { path });
    return path ? `${this.root}/${path}` : this.root;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const { fs } = gitStorage();
    const base = this.full(dir);
    let names: string[];
    try {
      names = (await fs.promises.readdir(base)) as string[];
    } catch (err) {
      if (isMissing(err)) throw new QuarryError('NotFound', `No directory ${dir || '/'} in ${this.id}`, { path: dir });
      throw err;
    }
    const out: DirEntry[] = [];
    for (const name of names.sort()) {
      const st = (await fs.promises.lstat(`${base}/${name}`)) as unknown as LfsStat;
      out.push({ name, kind: st.type === 'dir' ? 'directory' : st.type === 'symlink' ? 'symlink' : 'file' });
    }
    return out;
  }

  async stat(path: string): Promise<FileStat | null> {
    const { fs } = gitStorage();
    try {
      const st = (await fs.promises.stat(this.full(path))) as unknown as LfsStat;
      return { kind: st.type === 'dir' ? 'directory' : 'file', size: st.size, mtimeMs: st.mtimeMs, id: `${this.id}:${st.ino}` };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(path: string): Promise<Uint8Array> {
    const { fs } = gitStorage();
    try {
      return (await fs.promises.readFile(this.full(path))) as Uint8Array;
    } catch (err) {
      if (isMissing(err)) throw new QuarryError('NotFound', `No file ${path} in ${this.id}`, { path });
      throw err;
    }
  }
}

export function gitFileSource(id: string, options?: { name?: string; absoluteRoot?: string }): FileSource {
  return new GitFileSource(id, options);
}

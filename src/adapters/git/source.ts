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
    if (path.split('/').includes('..'))
      throw new QuarryError('PathOutsideRoot', `Path leaves the repository: ${path}`, { path });
    return path ? `${this.root}/${path}` : this.root;
  }

  /**
   * The path with every symlink on it resolved (in the clone's storage), or PathOutsideRoot
   * when it leads out of this clone: a link to `/` or `../other-clone` must not read the other
   * repositories kept beside it. The resolved path is what gets read, so lightning-fs has no link
   * left to follow its own way. A missing component (a broken link too) is NotFound.
   */
  private async inside(path: string): Promise<string> {
    const full = this.full(path);
    if (path === '') return full;
    const { fs } = gitStorage();
    const pending = path.split('/');
    const done: string[] = this.root.split('/').filter(Boolean);
    let hops = 0;
    while (pending.length) {
      const seg = pending.shift()!;
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        done.pop();
        continue;
      }
      const at = '/' + [...done, seg].join('/');
      let st: LfsStat | null;
      try {
        st = (await fs.promises.lstat(at)) as unknown as LfsStat;
      } catch {
        st = null;
      }
      if (!st)
        throw new QuarryError('NotFound', `No such file or directory: ${path} in ${this.id}`, { path });
      if (st.type !== 'symlink') {
        done.push(seg);
        continue;
      }
      if (++hops > 40)
        throw new QuarryError('Unreadable', `Too many levels of symbolic links: ${path}`, {
          path,
          reason: 'symlinkLoop',
        });
      const target = String(await fs.promises.readlink(at));
      if (target.startsWith('/')) done.length = 0;
      pending.unshift(...target.split('/'));
    }
    const real = '/' + done.join('/');
    if (real !== this.root && !real.startsWith(this.root + '/')) {
      throw new QuarryError(
        'PathOutsideRoot',
        `${path} leads outside the repository through a symbolic link`,
        { path, reason: 'outsideRoot' },
      );
    }
    return real;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const { fs } = gitStorage();
    const base = await this.inside(dir).catch((err: unknown) => {
      if (err instanceof QuarryError && err.code === 'NotFound')
        throw new QuarryError('NotFound', `No directory ${dir || '/'} in ${this.id}`, { path: dir });
      throw err;
    });
    let names: string[];
    try {
      names = (await fs.promises.readdir(base)) as string[];
    } catch (err) {
      if (isMissing(err))
        throw new QuarryError('NotFound', `No directory ${dir || '/'} in ${this.id}`, { path: dir });
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
    let at: string;
    try {
      at = await this.inside(path);
    } catch (err) {
      if (err instanceof QuarryError && err.code === 'NotFound') return null;
      throw err;
    }
    try {
      const st = (await fs.promises.stat(at)) as unknown as LfsStat;
      return {
        kind: st.type === 'dir' ? 'directory' : 'file',
        size: st.size,
        mtimeMs: st.mtimeMs,
        id: `${this.id}:${st.ino}`,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(path: string): Promise<Uint8Array> {
    const { fs } = gitStorage();
    const at = await this.inside(path);
    try {
      return (await fs.promises.readFile(at)) as Uint8Array;
    } catch (err) {
      if (isMissing(err)) throw new QuarryError('NotFound', `No file ${path} in ${this.id}`, { path });
      throw err;
    }
  }
}

export function gitFileSource(id: string, options?: { name?: string; absoluteRoot?: string }): FileSource {
  return new GitFileSource(id, options);
}

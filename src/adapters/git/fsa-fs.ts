/**
 * A read-only isomorphic-git fs over a File System Access directory handle, so history()
 * works on an opened folder that contains `.git`. Paths are absolute from the handle
 * ('/' is the handle itself; pass dir '/' to history()).
 *
 * Writes: isomorphic-git's status refresh rewrites `.git/index` with fresher stat data; that
 * is a cache, so writes under `.git/` are dropped. Any other write fails with EROFS: Quarry
 * never changes a user's working tree.
 */

/** The part of FileSystemDirectoryHandle / FileSystemFileHandle this adapter uses. */
export interface DirHandleLike {
  kind: 'directory';
  name: string;
  getDirectoryHandle(name: string): Promise<DirHandleLike>;
  getFileHandle(name: string): Promise<FileHandleLike>;
  entries(): AsyncIterable<[string, DirHandleLike | FileHandleLike]>;
}

export interface FileHandleLike {
  kind: 'file';
  name: string;
  getFile(): Promise<{ size: number; lastModified: number; arrayBuffer(): Promise<ArrayBuffer> }>;
}

class FsError extends Error {
  constructor(
    readonly code: string,
    path: string,
  ) {
    super(`${code}: ${path}`);
  }
}

interface StatResult {
  type: 'file' | 'dir';
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
  uid: number;
  gid: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

function parts(path: string): string[] {
  return path.split('/').filter((p) => p !== '' && p !== '.');
}

export function fsAccessGitFs(root: DirHandleLike) {
  const dirCache = new Map<string, Promise<DirHandleLike>>();

  async function dirAt(segments: string[], path: string): Promise<DirHandleLike> {
    const key = segments.join('/');
    let p = dirCache.get(key);
    if (!p) {
      p = (async () => {
        let dir = root;
        for (const name of segments) {
          try {
            dir = await dir.getDirectoryHandle(name);
          } catch (err) {
            throw new FsError((err as Error).name === 'TypeMismatchError' ? 'ENOTDIR' : 'ENOENT', path);
          }
        }
        return dir;
      })();
      dirCache.set(key, p);
      p.catch(() => dirCache.delete(key));
    }
    return p;
  }

  async function entryAt(path: string): Promise<DirHandleLike | FileHandleLike> {
    const segs = parts(path);
    if (segs.length === 0) return root;
    const parent = await dirAt(segs.slice(0, -1), path);
    const name = segs[segs.length - 1];
    try {
      return await parent.getFileHandle(name);
    } catch (err) {
      if (
        (err as Error).name !== 'TypeMismatchError' &&
        (err as Error).name !== 'NotFoundError' &&
        !(err instanceof TypeError)
      )
        throw err;
    }
    try {
      return await parent.getDirectoryHandle(name);
    } catch {
      throw new FsError('ENOENT', path);
    }
  }

  function isGitInternal(path: string): boolean {
    return parts(path).includes('.git');
  }

  async function write(path: string): Promise<void> {
    if (isGitInternal(path)) return; // a refreshed index is only a cache
    throw new FsError('EROFS', path);
  }

  const promises = {
    async readFile(path: string, opts?: string | { encoding?: string }): Promise<Uint8Array | string> {
      const entry = await entryAt(path);
      if (entry.kind !== 'file') throw new FsError('EISDIR', path);
      const bytes = new Uint8Array(await (await entry.getFile()).arrayBuffer());
      const encoding = typeof opts === 'string' ? opts : opts?.encoding;
      return encoding === 'utf8' ? new TextDecoder().decode(bytes) : bytes;
    },
    async readdir(path: string): Promise<string[]> {
      const dir = await dirAt(parts(path), path);
      const names: string[] = [];
      for await (const [name] of dir.entries()) names.push(name);
      return names;
    },
    async stat(path: string): Promise<StatResult> {
      const entry = await entryAt(path);
      const file = entry.kind === 'file' ? await entry.getFile() : null;
      const mtimeMs = file?.lastModified ?? 0;
      return {
        type: file ? 'file' : 'dir',
        mode: file ? 0o100644 : 0o40000,
        size: file?.size ?? 0,
        mtimeMs,
        ctimeMs: mtimeMs,
        ino: 0,
        dev: 0,
        uid: 0,
        gid: 0,
        isFile: () => !!file,
        isDirectory: () => !file,
        isSymbolicLink: () => false,
      };
    },
    async lstat(path: string): Promise<StatResult> {
      return promises.stat(path);
    },
    async readlink(path: string): Promise<string> {
      throw new FsError('EINVAL', path); // File System Access has no symlinks
    },
    writeFile: (path: string) => write(path),
    unlink: (path: string) => write(path),
    mkdir: (path: string) => write(path),
    rmdir: (path: string) => write(path),
    symlink: (_target: string, path: string) => write(path),
    chmod: (path: string) => write(path),
  };
  return { promises };
}

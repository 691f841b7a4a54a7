/**
 * An fs for reading many objects in one go (a file's history, blame). For every object
 * isomorphic-git first tries the loose file `objects/ab/cdef…` and then lists `objects/pack`
 * (readObjectLoose, readObjectPacked); in a packed repository that is a failed open and a
 * directory listing per object: over a thousand commits, most of blame's time was spent
 * waiting on them (node fs; lightning-fs and File System Access are slower still). This
 * wrapper lists `objects/` and each `objects/ab/` once, answers "no such file" for loose
 * objects that are not there without touching the disk, and keeps the pack listing; it also
 * answers the probe and the `.git` stat isomorphic-git makes on every call. Made per
 * call: objects written after it was made (a fetch meanwhile) are seen by the next call.
 */
import type { GitFs, GitRepo } from './blob-at';

const WRAPPED = Symbol('quarry.objectFs');
const LOOSE = /^(.*\/objects)\/([0-9a-f]{2})\/[0-9a-f]{38}$/;

/** fs.promises' methods as this wrapper calls them: a path, then whatever the caller passed. */
type Promises = Record<string, (path: string, ...rest: unknown[]) => Promise<unknown>>;

function enoent(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
}

export function objectReadingFs(fs: GitFs): GitFs {
  if ((fs as unknown as Record<symbol, boolean>)[WRAPPED]) return fs;
  const inner = (fs as unknown as { promises: Promises }).promises;
  const listings = new Map<string, Promise<Set<string> | null>>();
  const list = (dir: string): Promise<Set<string> | null> => {
    let p = listings.get(dir);
    if (!p) {
      p = inner.readdir(dir).then(
        (names) => new Set(names as string[]),
        () => null, // no such directory
      );
      listings.set(dir, p);
    }
    return p;
  };
  // one error object for every miss: isomorphic-git only asks whether the read failed, and an Error's stack costs more than the lookup
  const missing = enoent('(a loose object that is not there, or a probe)');
  const promises: Promises = {};
  for (const name of [
    'readFile',
    'writeFile',
    'unlink',
    'readdir',
    'mkdir',
    'rmdir',
    'stat',
    'lstat',
    'readlink',
    'symlink',
    'chmod',
  ]) {
    if (typeof inner[name] === 'function') promises[name] = inner[name].bind(inner);
  }
  promises.readFile = async (path: string, ...rest: unknown[]) => {
    // every isomorphic-git call probes readFile() with no path (to tell a promise fs): no disk, no node error object
    if (typeof path !== 'string') throw missing;
    const m = LOOSE.exec(path);
    if (m) {
      const top = await list(m[1]);
      if (!top?.has(m[2])) throw missing;
      const sub = await list(`${m[1]}/${m[2]}`);
      if (!sub?.has(path.slice(path.lastIndexOf('/') + 1))) throw missing;
    }
    return inner.readFile(path, ...rest);
  };
  // ...and stats the .git path (is it a worktree's file?): once is enough
  const stats = new Map<string, Promise<unknown>>();
  promises.stat = (path: string, ...rest: unknown[]) => {
    if (rest.length || !/(^|\/)\.git$/.test(path)) return inner.stat(path, ...rest);
    let p = stats.get(path);
    if (!p) stats.set(path, (p = inner.stat(path)));
    return p;
  };
  promises.readdir = (path: string, ...rest: unknown[]) => {
    if (!rest.length && /\/objects\/pack$/.test(path)) {
      return list(path).then((names) => {
        if (!names) throw enoent(path);
        return [...names];
      });
    }
    return inner.readdir(path, ...rest);
  };
  return { promises, [WRAPPED]: true } as unknown as GitFs;
}

/** The same repository read through objectReadingFs. */
export function forObjectReads(repo: GitRepo): GitRepo {
  return { ...repo, fs: objectReadingFs(repo.fs) };
}

/**
 * The git reader's file system over a root on disk (explore's git agent in the CLI and `quarry
 * mcp`): an isomorphic-git promise client, read-only, whose every access stays inside the root.
 *
 * Files are read through NodeFsSource: only regular files, opened without blocking, the
 * descriptor's real path checked to be inside the root. So a FIFO at `.git/HEAD`, `.git/index`,
 * `.git/packed-refs` or a pack answers at once (issue 34: it held the CLI for good), and a
 * `.git/objects` or a ref linked to another repository reads nothing of it. Listings go through
 * the source too; a stat, an lstat or a readlink resolves the path's directories first and
 * refuses one that leads outside. Writes fail with EROFS. Errors carry Node's codes (ENOENT,
 * EACCES for a path outside the root, EINVAL for what is not a regular file).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QuarryError } from '../../core/errors';
import { NodeFsSource } from './fs';

class GitFsError extends Error {
  constructor(
    readonly code: string,
    readonly path: string,
    why: string,
  ) {
    super(`${code}: ${why}, '${path}'`);
  }
}

export interface RootGitFs {
  promises: {
    readFile(path: string, opts?: string | { encoding?: string }): Promise<Uint8Array | string>;
    readdir(path: string): Promise<string[]>;
    stat(path: string): Promise<fs.Stats>;
    lstat(path: string): Promise<fs.Stats>;
    readlink(path: string): Promise<string>;
    writeFile(path: string): Promise<never>;
    unlink(path: string): Promise<never>;
    mkdir(path: string): Promise<never>;
    rmdir(path: string): Promise<never>;
    symlink(target: string, path: string): Promise<never>;
    chmod(path: string): Promise<never>;
  };
}

function fromSource(err: unknown, p: string): Error {
  if (!(err instanceof QuarryError)) return fromNode(err, p);
  if (err.code === 'NotFound') return new GitFsError('ENOENT', p, 'no such file or directory');
  if (err.code === 'PathOutsideRoot') return new GitFsError('EACCES', p, 'leads outside the root');
  if (err.data.reason === 'notRegular') return new GitFsError('EINVAL', p, err.message);
  return new GitFsError('EIO', p, err.message);
}

function fromNode(err: unknown, p: string): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new GitFsError(typeof code === 'string' ? code : 'EIO', p, (err as Error)?.message ?? String(err));
}

/** A read-only git client over `root`: nothing outside it is read, nothing but regular files opened. */
export function rootGitFs(root: string): RootGitFs {
  const source = new NodeFsSource(root);
  const top = source.absoluteRoot;
  let realTop = top;
  try {
    realTop = fs.realpathSync.native(top);
  } catch {
    // a missing root: every access below fails with ENOENT
  }
  const under = realTop.endsWith(path.sep) ? realTop : realTop + path.sep;
  const inside = (real: string) => real === realTop || real.startsWith(under);

  /** The root-relative POSIX path of `p`; EACCES when it is outside the root. */
  const relOf = (p: string): string => {
    const rel = path.relative(top, path.resolve(top, String(p)));
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
      throw new GitFsError('EACCES', p, 'outside the root');
    return rel.split(path.sep).join('/');
  };
  /** `p` with every symlink resolved (the last one too unless `keepLast`), refused when that leads outside. */
  const resolved = (p: string, keepLast = false): string => {
    const rel = relOf(p);
    const abs = rel === '' ? top : path.join(top, ...rel.split('/'));
    let real: string;
    try {
      real =
        keepLast && rel !== ''
          ? path.join(fs.realpathSync.native(path.dirname(abs)), path.basename(abs))
          : fs.realpathSync.native(abs);
    } catch (err) {
      throw fromNode(err, p);
    }
    if (!inside(keepLast && rel !== '' ? path.dirname(real) : real))
      throw new GitFsError('EACCES', p, 'leads outside the root');
    return real;
  };
  const refuse = async (p: string): Promise<never> => {
    throw new GitFsError('EROFS', p, 'read-only');
  };

  const promises: RootGitFs['promises'] = {
    async readFile(p, opts) {
      let bytes: Uint8Array;
      try {
        bytes = await source.read(relOf(p));
      } catch (err) {
        throw err instanceof GitFsError ? err : fromSource(err, p);
      }
      const encoding = typeof opts === 'string' ? opts : opts?.encoding;
      return encoding === 'utf8' || encoding === 'utf-8' ? Buffer.from(bytes).toString('utf8') : bytes;
    },
    async readdir(p) {
      try {
        return (await source.list(relOf(p))).map((e) => e.name);
      } catch (err) {
        throw err instanceof GitFsError ? err : fromSource(err, p);
      }
    },
    async stat(p) {
      const real = resolved(p);
      try {
        return fs.statSync(real);
      } catch (err) {
        throw fromNode(err, p);
      }
    },
    async lstat(p) {
      const real = resolved(p, true);
      try {
        return fs.lstatSync(real);
      } catch (err) {
        throw fromNode(err, p);
      }
    },
    async readlink(p) {
      const real = resolved(p, true);
      try {
        return fs.readlinkSync(real);
      } catch (err) {
        throw fromNode(err, p);
      }
    },
    writeFile: refuse,
    unlink: refuse,
    mkdir: refuse,
    rmdir: refuse,
    symlink: (_target, p) => refuse(p),
    chmod: refuse,
  };
  return { promises };
}

/**
 * A blob or a working file read only when it is not over a size limit, its size learnt first
 * where that is cheap: a working file's from a stat, a loose blob's from the header at the
 * start of its zlib stream (the rest is not inflated). A packed blob comes out of
 * isomorphic-git's pack reader whole (its size is known after), so the limit applies there
 * before anything else is done with it.
 */
import './env';
import * as git from 'isomorphic-git';
import { QuarryError } from '../../core/errors';
import type { GitRepo } from './blob-at';
import { blobOid } from './index-file';
import { looseHeader, parseLoose } from './object-codec';

export interface CappedRead {
  size: number;
  /** null when `size` is over the limit (not read). */
  bytes: Uint8Array | null;
}

const notABlob = (oid: string, type: string) =>
  new QuarryError('Unreadable', `git object ${oid} is a ${type}, not a blob`, { oid, type });

/** A blob's bytes, or only its size when it is over `maxBytes`. */
export async function readBlobCapped(repo: GitRepo, oid: string, maxBytes: number): Promise<CappedRead> {
  const obj = await git.readObject({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    cache: repo.cache,
    oid,
    format: 'deflated',
  });
  const data = obj.object as Uint8Array;
  if (obj.format === 'deflated') {
    // a loose object: its header says the size before anything else is inflated
    const { type, size } = looseHeader(oid, data);
    if (type !== 'blob') throw notABlob(oid, type);
    if (size > maxBytes) return { size, bytes: null };
    const { bytes } = parseLoose(oid, data);
    if ((await blobOid(bytes)) !== oid)
      throw new QuarryError(
        'Unreadable',
        `The git object store is damaged: loose object ${oid} does not hash to its id`,
        { oid },
      );
    return { size, bytes };
  }
  if (obj.type !== 'blob') throw notABlob(oid, String(obj.type));
  return data.length > maxBytes ? { size: data.length, bytes: null } : { size: data.length, bytes: data };
}

/** Whether a file is a blob's content: sizes first, the bytes hashed only when those agree. */
export async function sameAsBlob(
  read: CappedRead,
  blob: { oid: string; size: number },
  readWhole: () => Promise<Uint8Array | null>,
): Promise<boolean> {
  if (read.size !== blob.size) return false;
  const bytes = read.bytes ?? (await readWhole());
  return !!bytes && (await blobOid(bytes)) === blob.oid;
}

type StatFs = {
  promises: {
    stat(path: string): Promise<{ size: number; isFile(): boolean }>;
    readFile(path: string): Promise<Uint8Array | string>;
  };
};

/** The working tree's copy of a file (null when it is not there), its bytes only when not over `maxBytes`. */
export async function readWorktreeCapped(
  repo: GitRepo,
  segments: readonly string[],
  maxBytes: number,
): Promise<CappedRead | null> {
  const fs = repo.fs as unknown as StatFs;
  const full = `${repo.dir.replace(/\/+$/, '')}/${segments.join('/')}`;
  let size: number;
  try {
    const st = await fs.promises.stat(full);
    if (!st.isFile()) return null;
    size = st.size;
  } catch {
    return null;
  }
  if (size > maxBytes) return { size, bytes: null };
  try {
    const data = await fs.promises.readFile(full);
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
    return { size: bytes.length, bytes };
  } catch {
    return null;
  }
}

/**
 * A file's content at a commit, over any isomorphic-git fs (a lightning-fs clone, or an opened
 * folder through fsa-fs.ts): commits resolved from a ref or an abbreviated oid, a path's blob
 * found by walking trees from the commit's root tree, and trees kept by oid in a TreeCache.
 * Consecutive commits share most subtrees, so walking a file's history costs about one tree
 * read per commit (the root's) instead of one per path segment.
 */
import './env';
import * as git from 'isomorphic-git';
import { QuarryError } from '../../core/errors';
import type { CommitInfo } from '../../core/git/types';
import { Lru } from '../../core/lru';

export type GitFs = git.CallbackFsClient | git.PromiseFsClient;

/** Where a repository is: its fs, working directory, and isomorphic-git's object cache. */
export interface GitRepo {
  fs: GitFs;
  dir: string;
  gitdir?: string;
  /** isomorphic-git's shared cache object; reuse it across calls on one repository. */
  cache?: object;
  /** For messages ("No commit abc in <name>"). */
  name?: string;
}

/** A commit as the diff, history and blame views show it (plain data). */
export type { CommitInfo } from '../../core/git/types';

export const shortOid = (oid: string) => oid.slice(0, 7);

const args = (repo: GitRepo) => ({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache });

/** A path inside the repository: '/'-separated, no empty, '.' or '..' segments. */
export function checkRepoPath(path: unknown): string[] {
  if (typeof path !== 'string' || !path)
    throw new QuarryError('InvalidArgument', 'path must be a non-empty string', {
      field: 'path',
      value: path,
    });
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new QuarryError('InvalidArgument', `"${path}" is not a path inside the repository`, {
      field: 'path',
      value: path,
    });
  }
  return segments;
}

async function readCommitInfo(repo: GitRepo, oid: string): Promise<CommitInfo> {
  const { commit } = await git.readCommit({ ...args(repo), oid });
  return {
    oid,
    parents: [...commit.parent],
    author: commit.author.name,
    email: commit.author.email,
    date: commit.author.timestamp * 1000,
    summary: commit.message.split('\n', 1)[0].trim(),
    tree: commit.tree,
  };
}

/** A commit by ref ('HEAD', a branch) or by (abbreviated) oid. */
export async function resolveCommit(repo: GitRepo, ref: string): Promise<CommitInfo> {
  if (typeof ref !== 'string' || !ref.trim())
    throw new QuarryError('InvalidArgument', 'commit must be a non-empty string', {
      field: 'commit',
      value: ref,
    });
  const where = repo.name ? ` in ${repo.name}` : '';
  let oid: string;
  try {
    oid = /^[0-9a-f]{4,40}$/i.test(ref)
      ? await git.expandOid({ ...args(repo), oid: ref.toLowerCase() })
      : await git.resolveRef({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'AmbiguousError')
      throw new QuarryError(
        'InvalidArgument',
        `"${ref}" names more than one commit${where}: give more of its digits`,
        { field: 'commit', value: ref },
      );
    throw new QuarryError(
      'NotFound',
      ref === 'HEAD' ? `The repository${where} has no commits yet` : `No commit "${ref}"${where}`,
      { commit: ref },
    );
  }
  try {
    return await readCommitInfo(repo, oid);
  } catch {
    throw new QuarryError(
      'NotFound',
      `No commit "${ref}"${where} (the object ${shortOid(oid)} is missing or not a commit)`,
      { commit: ref },
    );
  }
}

/** A parent commit, or null when it was not fetched (beyond a shallow clone's depth). */
export async function readParent(repo: GitRepo, oid: string): Promise<CommitInfo | null> {
  try {
    return await readCommitInfo(repo, oid);
  } catch {
    return null;
  }
}

interface TreeItem {
  oid: string;
  type: string;
  mode: string;
}

/** Trees by oid (they never change), least recently used dropped past `maxTrees`. */
export class TreeCache {
  private readonly trees: Lru<string, Map<string, TreeItem>>;
  constructor(maxTrees = 4000) {
    this.trees = new Lru(maxTrees);
  }

  async get(repo: GitRepo, oid: string): Promise<Map<string, TreeItem>> {
    const hit = this.trees.get(oid);
    if (hit) return hit;
    const { tree } = await git.readTree({ ...args(repo), oid });
    const entries = new Map<string, TreeItem>();
    for (const e of tree) entries.set(e.path, { oid: e.oid, type: e.type, mode: e.mode });
    this.trees.set(oid, entries);
    return entries;
  }
}

/** The blob oid of `segments` under a root tree, or null when the path is absent (or a directory or submodule). */
export async function blobAt(
  repo: GitRepo,
  treeOid: string,
  segments: readonly string[],
  trees: TreeCache,
): Promise<string | null> {
  let tree = treeOid;
  for (let i = 0; i < segments.length; i++) {
    const item = (await trees.get(repo, tree)).get(segments[i]);
    if (!item) return null;
    if (i === segments.length - 1) return item.type === 'blob' ? item.oid : null;
    if (item.type !== 'tree') return null;
    tree = item.oid;
  }
  return null;
}

export async function readBlobBytes(repo: GitRepo, oid: string): Promise<Uint8Array> {
  return (await git.readBlob({ ...args(repo), oid })).blob;
}

/** The working tree's copy of a file (an opened folder's current bytes), or null when it is not there. */
export async function readWorktreeFile(
  repo: GitRepo,
  segments: readonly string[],
): Promise<Uint8Array | null> {
  const full = `${repo.dir.replace(/\/+$/, '')}/${segments.join('/')}`;
  try {
    const data = await (repo.fs as git.PromiseFsClient).promises.readFile(full);
    return typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
  } catch {
    return null;
  }
}

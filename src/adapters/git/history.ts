/**
 * History over any isomorphic-git-compatible fs: a lightning-fs clone, or an adapter over
 * a File System Access handle for an opened folder that contains `.git`. Changed files per
 * commit come from a tree diff with the first parent (isomorphic-git `walk` over two TREEs,
 * skipping subtrees whose oids are equal, so a commit costs what it changed, not the repo size).
 */
import './env';
import * as git from 'isomorphic-git';
import { QuarryError } from '../../core/errors';

export type ChangeType = 'add' | 'modify' | 'delete';

export interface ChangedFile {
  path: string;
  type: ChangeType;
}

export interface HistoryCommit {
  oid: string;
  author: string;
  email: string;
  /** Author time, ms since the epoch. */
  date: number;
  message: string;
  parents: string[];
  changedFiles: ChangedFile[];
  /** True when the parent is beyond a shallow clone's depth: changedFiles is then empty. */
  parentMissing?: boolean;
}

export type UncommittedStatus = 'added' | 'modified' | 'deleted' | 'untracked';

export interface History {
  /** Current branch, or null when HEAD is detached. */
  branch: string | null;
  head: string | null;
  commits: HistoryCommit[];
  /** True when the log stopped at a shallow clone's boundary rather than the root commit. */
  shallow: boolean;
  uncommitted?: { path: string; status: UncommittedStatus }[];
}

export interface HistoryOptions {
  /** Most recent commits to list (default 50). */
  depth?: number;
  ref?: string;
  /** Compare the working tree with HEAD (hashes changed files; meant for opened folders). */
  includeUncommitted?: boolean;
  gitdir?: string;
  /** isomorphic-git's shared cache object; reuse it across calls on one repository. */
  cache?: object;
}

type Fs = git.CallbackFsClient | git.PromiseFsClient;

/** Files that differ between two trees (either may be null: the empty tree). */
export async function diffTrees(
  fs: Fs,
  dir: string,
  before: string | null,
  after: string | null,
  opts: { gitdir?: string; cache?: object } = {},
): Promise<ChangedFile[]> {
  const changes: ChangedFile[] = [];
  if (before === after) return changes;
  if (!before || !after) {
    // One side empty: every blob on the other side is an add (or a delete).
    const ref = (before ?? after)!;
    const type: ChangeType = before ? 'delete' : 'add';
    await git.walk({
      fs,
      dir,
      gitdir: opts.gitdir,
      cache: opts.cache,
      trees: [git.TREE({ ref })],
      map: async (path, [entry]) => {
        if (!entry || path === '.') return true;
        const t = await entry.type();
        if (t === 'blob' || t === 'special') changes.push({ path, type });
        return t === 'tree' ? true : null;
      },
    });
    return changes.sort((a, b) => (a.path < b.path ? -1 : 1));
  }
  await git.walk({
    fs,
    dir,
    gitdir: opts.gitdir,
    cache: opts.cache,
    trees: [git.TREE({ ref: before }), git.TREE({ ref: after })],
    map: async (path, [a, b]) => {
      if (path === '.') return true;
      const [ta, tb] = await Promise.all([a?.type(), b?.type()]);
      const [oa, ob] = await Promise.all([a?.oid(), b?.oid()]);
      // walk() descends unless map returns null: an identical file or subtree is skipped whole.
      if (oa && ob && oa === ob) return null;
      const blobA = ta === 'blob' || ta === 'special';
      const blobB = tb === 'blob' || tb === 'special';
      if (blobA && blobB) changes.push({ path, type: 'modify' });
      else if (blobA && !blobB) changes.push({ path, type: 'delete' });
      else if (!blobA && blobB) changes.push({ path, type: 'add' });
      // Descend into trees on either side (a file replaced by a directory shows both).
      return ta === 'tree' || tb === 'tree' ? true : null;
    },
  });
  return changes.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function hasObject(fs: Fs, dir: string, oid: string, opts: { gitdir?: string; cache?: object }): Promise<boolean> {
  try {
    await git.readCommit({ fs, dir, gitdir: opts.gitdir, oid, cache: opts.cache });
    return true;
  } catch {
    return false;
  }
}

export async function history(fs: Fs, dir: string, options: HistoryOptions = {}): Promise<History> {
  const { depth = 50, gitdir, includeUncommitted = false } = options;
  const cache = options.cache ?? {};
  let branch: string | null = null;
  let head: string;
  try {
    branch = (await git.currentBranch({ fs, dir, gitdir, fullname: false })) ?? null;
    head = await git.resolveRef({ fs, dir, gitdir, ref: options.ref ?? 'HEAD' });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'NotFoundError') {
      // A repository with no commits yet.
      return { branch, head: null, commits: [], shallow: false, uncommitted: includeUncommitted ? await uncommitted(fs, dir, gitdir, cache) : undefined };
    }
    throw new QuarryError('NotFound', `No git repository at ${dir}: ${(err as Error).message}`, { dir });
  }
  const log = await git.log({ fs, dir, gitdir, ref: head, depth: depth + 1, cache });
  const commits: HistoryCommit[] = [];
  let shallow = false;
  for (const entry of log.slice(0, depth)) {
    const c = entry.commit;
    const parent = c.parent[0] ?? null;
    let changedFiles: ChangedFile[] = [];
    let parentMissing = false;
    if (parent && !(await hasObject(fs, dir, parent, { gitdir, cache }))) {
      parentMissing = true;
      shallow = true;
    } else {
      changedFiles = await diffTrees(fs, dir, parent, entry.oid, { gitdir, cache });
    }
    commits.push({
      oid: entry.oid,
      author: c.author.name,
      email: c.author.email,
      date: c.author.timestamp * 1000,
      message: c.message.trimEnd(),
      parents: [...c.parent],
      changedFiles,
      ...(parentMissing ? { parentMissing } : {}),
    });
  }
  // git.log stops at a shallow boundary (.git/shallow) even when the parent object is present
  // (a fetch with a new depth moves the boundary): a log that ends early on a commit with parents is shallow.
  const last = log[log.length - 1];
  if (log.length <= depth && last && last.commit.parent.length > 0) shallow = true;
  return {
    branch,
    head,
    commits,
    shallow,
    ...(includeUncommitted ? { uncommitted: await uncommitted(fs, dir, gitdir, cache) } : {}),
  };
}

async function uncommitted(fs: Fs, dir: string, gitdir: string | undefined, cache: object): Promise<{ path: string; status: UncommittedStatus }[]> {
  const rows = await git.statusMatrix({ fs, dir, gitdir, cache });
  const out: { path: string; status: UncommittedStatus }[] = [];
  for (const [path, headStatus, workdir, stage] of rows) {
    if (headStatus === 1 && workdir === 1 && stage === 1) continue;
    let status: UncommittedStatus;
    if (headStatus === 0 && stage === 0) status = 'untracked';
    else if (headStatus === 0) status = 'added';
    else if (workdir === 0) status = 'deleted';
    else status = 'modified';
    out.push({ path, status });
  }
  return out;
}

/**
 * History over any isomorphic-git-compatible fs: a lightning-fs clone, or an adapter over
 * a File System Access handle for an opened folder that contains `.git`. history() reads a
 * bounded log with each commit's changed files (explore's git agent, the CLI, the engine's
 * history call); History's view streams the whole log instead (history-log.ts). diffTrees is
 * isomorphic-git's tree walk between any two tree-ish refs.
 */
import './env';
import * as git from 'isomorphic-git';
import type { ChangeType, ChangedFile, History, HistoryCommit, LogCommit } from '../../core/git/types';
import { commitLoader, readHead } from './history-log';
import { walkLog } from './log-walk';
import { findGitdir, GitObjectStore, type GitFs } from './objects';
import { commitChanges } from './tree-diff';
import { worktreeStatus } from './worktree-status';

export type {
  ChangeType,
  ChangedFile,
  History,
  HistoryCommit,
  UncommittedStatus,
} from '../../core/git/types';

export interface HistoryOptions {
  /** Most recent commits to list (default 50). */
  depth?: number;
  ref?: string;
  /** Compare the working tree with HEAD (hashes changed files; meant for opened folders). */
  includeUncommitted?: boolean;
  gitdir?: string;
  /** isomorphic-git's shared cache object (diffTrees); history() keeps its own object store. */
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

/**
 * The most recent `depth` commits with their changed files, and (for an opened folder) the
 * uncommitted changes: what explore's git agent and the CLI read. Built on the object store,
 * the log walk and the index-stat status that History's streamed log uses (history-log.ts),
 * so it costs what `depth` commits changed, not a hash of every file.
 */
export async function history(fs: Fs, dir: string, options: HistoryOptions = {}): Promise<History> {
  const { depth = 50, includeUncommitted = false } = options;
  const gfs = fs as unknown as GitFs;
  const gitdir = options.gitdir ?? (await findGitdir(gfs, dir)) ?? `${dir === '/' ? '' : dir}/.git`;
  const objects = new GitObjectStore(gfs, gitdir);
  const { head, branch } = await readHead(gfs, dir, gitdir);
  const uncommitted = async () =>
    includeUncommitted
      ? { uncommitted: (await worktreeStatus(gfs, objects, { dir, gitdir, head })).files }
      : {};
  if (!head) return { branch, head: null, commits: [], shallow: false, ...(await uncommitted()) };
  const shallowList = await gfs.promises.readFile(`${gitdir}/shallow`, 'utf8').then(
    (t) => String(t).split('\n').filter(Boolean),
    () => [],
  );
  // One commit more than asked: a log that ends before it, on a commit with parents, stopped at a shallow boundary.
  const walked: LogCommit[] = [];
  for await (const c of walkLog(head, commitLoader(objects), { shallow: new Set(shallowList) })) {
    walked.push(c);
    if (walked.length > depth) break;
  }
  const commits: HistoryCommit[] = [];
  let shallow = false;
  for (const c of walked.slice(0, depth)) {
    const changes = await commitChanges(objects, c.oid);
    if (changes.parentMissing) shallow = true;
    commits.push({
      oid: c.oid,
      author: c.author,
      email: c.email,
      date: c.date,
      message: c.message,
      parents: c.parents,
      changedFiles: changes.files,
      ...(changes.parentMissing ? { parentMissing: true } : {}),
    });
  }
  const last = walked[walked.length - 1];
  if (walked.length <= depth && last && last.parents.length > 0) shallow = true;
  return { branch, head, commits, shallow, ...(await uncommitted()) };
}

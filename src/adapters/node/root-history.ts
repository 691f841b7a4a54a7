/**
 * explore's git agent on disk (the CLI's and `quarry mcp`'s history port): a root's history read
 * from the root's own `.git` through rootGitFs, so nothing outside the root is read, as the
 * README promises.
 *
 *   <root>/.git a directory .............. read
 *   a link, or a `gitdir:` file .......... read when it leads to a folder inside the root;
 *                                          another repository's is refused (outsideRoot)
 *   a FIFO, a socket, a device ........... refused at once (notRegular), never opened
 *   none ................................. no history: a repository above the root is outside
 *                                          it and is not looked for (issue 34: the analyzer
 *                                          climbed to an ancestor's `.git`)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { history } from '../git/history';
import { readHistoryLog } from '../git/history-log';
import { runHistoryQuery } from '../git/history-query';
import { GitObjectStore, type GitFs } from '../git/objects';
import { QuarryError } from '../../core/errors';
import type { LogCommit } from '../../core/git/types';
import type { HistoryPortResult, ToolContext } from '../../core/tools/types';
import { rootGitFs, type RootGitFs } from './git-fs';

/** A `.git` file holds one `gitdir:` line: anything much longer is not one. */
const MAX_GITDIR_FILE_BYTES = 64 * 1024;

export type RootGitdir = { gitdir: string } | { reason: string };

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Where the root's own git data is, or why there is none that may be read. */
export async function rootGitdir(root: string, gfs: RootGitFs = rootGitFs(root)): Promise<RootGitdir> {
  const dotgit = path.join(root, '.git');
  const outside = {
    reason: `${dotgit} leads outside the root (outsideRoot): another repository's history is not read.`,
  };
  let st = fs.lstatSync(dotgit, { throwIfNoEntry: false });
  if (!st)
    return {
      reason: `${root} has no .git of its own (a repository that holds it from above is outside the root and is not read).`,
    };
  if (st.isSymbolicLink()) {
    let real: string;
    let realRoot: string;
    try {
      real = fs.realpathSync.native(dotgit);
      realRoot = fs.realpathSync.native(root);
    } catch {
      return { reason: `${dotgit} is a broken link.` };
    }
    if (!isInside(realRoot, real)) return outside;
    st = fs.statSync(real);
  }
  if (st.isDirectory()) return { gitdir: dotgit };
  if (!st.isFile())
    return { reason: `${dotgit} is not a directory or a regular file: it is not read (notRegular).` };
  if (st.size > MAX_GITDIR_FILE_BYTES)
    return { reason: `${dotgit} is not a gitdir file (${st.size} bytes).` };
  let text: string;
  try {
    text = String(await gfs.promises.readFile(dotgit, 'utf8'));
  } catch (err) {
    return { reason: `${dotgit} cannot be read: ${(err as Error).message}` };
  }
  const m = /^gitdir: (.+)$/m.exec(text);
  if (!m) return { reason: `${dotgit} is a file without a gitdir: line.` };
  const target = path.resolve(root, m[1].trim());
  try {
    // the named folder, every link on the way resolved, must be inside the root
    if (!isInside(fs.realpathSync.native(root), fs.realpathSync.native(target))) return outside;
  } catch {
    return isInside(root, target) ? { reason: `${dotgit} names ${target}, which does not exist.` } : outside;
  }
  return { gitdir: target };
}

export function nodeRootHistory(rootDirs: readonly string[]): NonNullable<ToolContext['history']> {
  return async (rootIndex, limit): Promise<HistoryPortResult> => {
    const root = path.resolve(rootDirs[rootIndex]);
    const gfs = rootGitFs(root);
    const at = await rootGitdir(root, gfs);
    if ('reason' in at) return { available: false, reason: at.reason };
    const h = await history(gfs, root, { depth: limit, includeUncommitted: true, gitdir: at.gitdir });
    return {
      available: true,
      branch: h.branch,
      head: h.head,
      shallow: h.shallow,
      commits: h.commits,
      uncommitted: h.uncommitted ?? [],
    };
  };
}

/**
 * The search tool's type:commit / type:diff on disk: the root's own git data (as above), its
 * log read in full (no stored log: a CLI call is one process), the plan run over it.
 */
export function nodeRootHistorySearch(
  rootDirs: readonly string[],
): NonNullable<ToolContext['historySearch']> {
  return async (plan, rootIndex, prefix, onResult, signal) => {
    const root = path.resolve(rootDirs[rootIndex]);
    const gfs = rootGitFs(root);
    const at = await rootGitdir(root, gfs);
    if ('reason' in at) throw new QuarryError('NotFound', at.reason, { field: 'root' });
    const objects = new GitObjectStore(gfs as unknown as GitFs, at.gitdir);
    let commits: LogCommit[] = [];
    const log = await readHistoryLog(gfs as unknown as GitFs, objects, {
      dir: root,
      gitdir: at.gitdir,
      signal,
      onPart: (part) => {
        if (part.kind === 'commits')
          commits = part.reset ? part.commits.slice() : commits.concat(part.commits);
      },
    });
    return runHistoryQuery(plan, { commits, shallow: log.shallow, objects, prefix, signal, onResult });
  };
}

/**
 * Git adapter: clone and update repositories into lightning-fs (IndexedDB), a library of
 * them, a FileSource over a clone, and history over any isomorphic-git-compatible fs.
 * Runs unchanged in a web worker and in Node (tests: `navigator` shim + fake-indexeddb).
 * Everything returned is plain structured-cloneable data; errors are QuarryErrors.
 */
import './env';
import * as git from 'isomorphic-git';
import { history as historyOver, type History, type HistoryOptions } from './history';
import { gitCache } from './repos';
import { requireRepo } from './registry';
import { gitStorage, repoDir } from './storage';
import { fsAccessGitFs as fsaFs, type DirHandleLike } from './fsa-fs';

export {
  cloneRepo,
  fetchUpdates,
  deepenHistory,
  deleteRepo,
  storageEstimate,
  sweepOrphans,
  repoIdFor,
  gitCache,
} from './repos';
export type {
  CloneOptions,
  DeepenOptions,
  FetchUpdatesOptions,
  FetchUpdatesResult,
  GitProgress,
  StorageEstimate,
  AuthOptions,
} from './repos';
export { listRepos, getRepo, updateRepo, registerFolder } from './registry';
export type { RepoRecord } from './registry';
export { gitFileSource, GitFileSource } from './source';
export { history, diffTrees } from './history';
export type {
  History,
  HistoryCommit,
  HistoryOptions,
  ChangedFile,
  ChangeType,
  UncommittedStatus,
} from './history';
export { gitStorage, repoDir, GIT_FS_NAME } from './storage';

/** History of a cloned repository in the library (lightning-fs, shared cache). */
export async function repoHistory(
  id: string,
  options: Omit<HistoryOptions, 'cache' | 'gitdir'> = {},
): Promise<History> {
  await requireRepo(id);
  return historyOver(gitStorage().fs, repoDir(id), { ...options, cache: gitCache(id) });
}
export { fsAccessGitFs } from './fsa-fs';
export type { DirHandleLike, FileHandleLike } from './fsa-fs';

/** Branch and HEAD commit of an opened folder that holds .git (empty strings when it has none). */
export async function folderGitInfo(root: DirHandleLike): Promise<{ branch: string; commit: string }> {
  const fs = fsaFs(root);
  const branch = (await git.currentBranch({ fs, dir: '/' }).catch(() => undefined)) ?? '';
  const commit = await git.resolveRef({ fs, dir: '/', ref: 'HEAD' }).catch(() => '');
  return { branch, commit };
}

// One file's diff, history and blame (issue 18): over any GitRepo (a clone's lightning-fs or an opened folder's fsa-fs).
export { fileDiff } from './file-diff';
export type { FileDiffResult, FileDiffStatus } from './file-diff';
export { fileHistory } from './file-history';
export type { FileHistory, FileHistoryEntry, FileChange } from './file-history';
export { blameFile } from './blame';
export type { BlameResult, BlameCommit, BlameRun, BlameProgress } from './blame';
export { resolveCommit, TreeCache } from './blob-at';
export type { GitRepo, CommitInfo } from './blob-at';

// History's log (issue 18): a fast object store, the streamed and stored log, changed files on demand, uncommitted changes by stat.
export { GitObjectStore, findGitdir } from './objects';
export { readHistoryLog, readHead } from './history-log';
export type { HistoryLogPart, HistoryLogResult, LogCommit, LogRefresh } from './history-log';
export { commitChanges, flattenCommitTree } from './tree-diff';
export type { CommitChanges } from './tree-diff';
export { worktreeStatus } from './worktree-status';
export type { UncommittedFile, WorktreeStatus } from './worktree-status';

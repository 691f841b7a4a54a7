/**
 * Per-file history: the commits that changed one path, newest first, following first parents
 * from HEAD (what `git log --first-parent -- <path>` lists; renames are not followed). Each
 * commit costs a commit read and the path's blob oid through the TreeCache (the root tree, and
 * subtrees only where they changed); a commit whose tree equals its parent's costs no tree read.
 * The walk yields on a time budget so a worker can take a cancel between commits.
 */
import { QuarryError } from '../../core/errors';
import type { CommitInfo, FileChange, FileHistoryEntry } from '../../core/git/types';
import { createYielder } from '../../core/jobs/yielder';
import { blobAt, checkRepoPath, readParent, resolveCommit, TreeCache, type GitRepo } from './blob-at';
import { forObjectReads } from './object-fs';

export type { FileChange, FileHistoryEntry } from '../../core/git/types';

export interface FileHistory {
  path: string;
  head: string;
  /** The path's blob at HEAD (null when HEAD does not have it). */
  headBlob: string | null;
  entries: FileHistoryEntry[];
  /** Commits read. */
  walked: number;
  /** The walk stopped at a shallow clone's boundary. */
  shallow: boolean;
  /** The walk reached the root commit or the boundary (not stopped early by `stopAtAdd` or `maxCommits`). */
  complete: boolean;
}

export interface FileHistoryOptions {
  /** Where the walk starts (default HEAD). */
  ref?: string;
  signal?: AbortSignal;
  /** Called after each commit read, with the count so far. */
  onProgress?: (walked: number) => void;
  /** Called for each entry as it is found (streaming). */
  onEntry?: (entry: FileHistoryEntry) => void;
  /** Stop at the commit that added the file (blame needs no more). */
  stopAtAdd?: boolean;
  /** Commits read at most (default: no limit). */
  maxCommits?: number;
  trees?: TreeCache;
  yieldBudgetMs?: number;
}

export function cancelled(): QuarryError {
  return new QuarryError('Cancelled', 'Cancelled');
}

function entryOf(
  c: CommitInfo,
  blob: string | null,
  previousBlob: string | null,
  boundary = false,
): FileHistoryEntry {
  const { tree: _tree, ...info } = c;
  const change: FileChange = boundary || !previousBlob ? 'add' : !blob ? 'delete' : 'modify';
  return { ...info, change, blob, previousBlob, ...(boundary ? { boundary } : {}) };
}

export async function fileHistory(
  repo: GitRepo,
  path: string,
  options: FileHistoryOptions = {},
): Promise<FileHistory> {
  repo = forObjectReads(repo);
  const segments = checkRepoPath(path);
  const trees = options.trees ?? new TreeCache();
  const yielder = createYielder(options.yieldBudgetMs);
  const head = await resolveCommit(repo, options.ref ?? 'HEAD');
  const headBlob = await blobAt(repo, head.tree, segments, trees);
  const entries: FileHistoryEntry[] = [];
  const emit = (e: FileHistoryEntry) => {
    entries.push(e);
    options.onEntry?.(e);
  };
  const max = options.maxCommits ?? Infinity;
  let commit = head;
  let blob = headBlob;
  let walked = 1;
  let shallow = false;
  let complete = true;
  for (;;) {
    if (options.signal?.aborted) throw cancelled();
    options.onProgress?.(walked);
    const parentOid = commit.parents[0];
    if (!parentOid) {
      if (blob) emit(entryOf(commit, blob, null));
      break;
    }
    const parent = await readParent(repo, parentOid);
    if (!parent) {
      shallow = true;
      if (blob) emit(entryOf(commit, blob, null, true));
      break;
    }
    const previous = parent.tree === commit.tree ? blob : await blobAt(repo, parent.tree, segments, trees);
    if (previous !== blob) {
      emit(entryOf(commit, blob, previous));
      if (!previous && options.stopAtAdd) {
        complete = false;
        break;
      }
    }
    commit = parent;
    blob = previous;
    walked++;
    if (walked > max) {
      complete = false;
      break;
    }
    await yielder.maybeYield();
  }
  return { path, head: head.oid, headBlob, entries, walked, shallow, complete };
}

/**
 * One file's diff: in a commit against its first parent, or the working tree against HEAD
 * (uncommitted changes of an opened folder). Both sides are read as bytes, decoded the way the
 * rest of Quarry decides text, and diffed by core/diff (lines, then words inside changed pairs).
 */
import { QuarryError } from '../../core/errors';
import type { CommitInfo, FileDiffResult, FileDiffStatus } from '../../core/git/types';
import { decodeSide, diffTexts, MAX_DIFF_BYTES, type DiffSide } from '../../core/diff/text-diff';
import {
  blobAt,
  checkRepoPath,
  readParent,
  readWorktreeFile,
  resolveCommit,
  shortOid,
  TreeCache,
  type GitRepo,
} from './blob-at';
import { readBlobCapped, readWorktreeCapped, sameAsBlob, type CappedRead } from './blob-read';
import { MAX_OBJECT_BYTES } from './object-codec';
import { forObjectReads } from './object-fs';

export type { FileDiffResult, FileDiffStatus } from '../../core/git/types';

const info = (c: CommitInfo | null) => {
  if (!c) return null;
  const { tree: _tree, ...rest } = c;
  return rest;
};

export async function fileDiff(
  repo: GitRepo,
  path: string,
  target: string,
  trees = new TreeCache(),
): Promise<FileDiffResult> {
  repo = forObjectReads(repo);
  const segments = checkRepoPath(path);
  if (typeof target !== 'string' || !target)
    throw new QuarryError('InvalidArgument', 'commit must be a commit oid or "worktree"', {
      field: 'commit',
      value: target,
    });
  let commit: CommitInfo | null = null;
  let base: CommitInfo | null;
  let before: CappedRead | null;
  let after: CappedRead | null;
  let parentMissing = false;
  let same: boolean;
  // Sides over the diff limit are not read whole (their size is learnt first where it can be).
  if (target === 'worktree') {
    base = await resolveCommit(repo, 'HEAD').catch((err: unknown) => {
      // an empty repository: everything in the working tree is new
      if (err instanceof QuarryError && err.code === 'NotFound') return null;
      throw err;
    });
    const headBlob = base ? await blobAt(repo, base.tree, segments, trees) : null;
    const head = headBlob ? await readBlobCapped(repo, headBlob, MAX_DIFF_BYTES) : null;
    const work = await readWorktreeCapped(repo, segments, MAX_DIFF_BYTES);
    if (!head && !work)
      throw new QuarryError('NotFound', `"${path}" is neither in the working tree nor in HEAD`, { path });
    if (!head || !work) same = false;
    else if (head.bytes && work.bytes) same = sameBytes(head.bytes, work.bytes);
    else {
      // a side over the limit: sizes first, the working file hashed only when they agree
      const readWhole = async () => (work.size <= MAX_OBJECT_BYTES ? readWorktreeFile(repo, segments) : null);
      same = await sameAsBlob(work, { oid: headBlob!, size: head.size }, readWhole);
    }
    before = head;
    after = work;
  } else {
    commit = await resolveCommit(repo, target);
    const afterBlob = await blobAt(repo, commit.tree, segments, trees);
    const parentOid = commit.parents[0];
    base = parentOid ? await readParent(repo, parentOid) : null;
    parentMissing = !!parentOid && !base;
    const beforeBlob = base ? await blobAt(repo, base.tree, segments, trees) : null;
    if (!afterBlob && !beforeBlob && !parentMissing) {
      throw new QuarryError(
        'NotFound',
        `"${path}" is not in commit ${shortOid(commit.oid)} nor in its parent`,
        { path, commit: commit.oid },
      );
    }
    after = afterBlob ? await readBlobCapped(repo, afterBlob, MAX_DIFF_BYTES) : null;
    before = beforeBlob ? await readBlobCapped(repo, beforeBlob, MAX_DIFF_BYTES) : null;
    same = !!afterBlob && afterBlob === beforeBlob;
  }
  const beforeSide = sideOf(before);
  const afterSide = sideOf(after);
  const status: FileDiffStatus = parentMissing
    ? 'parentMissing'
    : !before
      ? 'added'
      : !after
        ? 'deleted'
        : same
          ? 'unchanged'
          : 'modified';
  const textOf = (s: DiffSide) => (s.kind === 'text' ? s.text : s.kind === 'absent' ? '' : null);
  const a = parentMissing ? null : textOf(beforeSide);
  const b = textOf(afterSide);
  return {
    path,
    target: commit ? commit.oid : 'worktree',
    commit: info(commit),
    base: info(base),
    status,
    before: beforeSide,
    after: afterSide,
    diff: a !== null && b !== null ? diffTexts(a, b) : null,
  };
}

function sideOf(read: CappedRead | null): DiffSide {
  if (!read) return { kind: 'absent' };
  return read.bytes ? decodeSide(read.bytes) : { kind: 'tooLarge', bytes: read.size };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

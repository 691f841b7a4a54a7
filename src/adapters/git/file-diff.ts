/**
 * One file's diff: in a commit against its first parent, or the working tree against HEAD
 * (uncommitted changes of an opened folder). Both sides are read as bytes, decoded the way the
 * rest of Quarry decides text, and diffed by core/diff (lines, then words inside changed pairs).
 */
import { QuarryError } from '../../core/errors';
import { decodeSide, diffTexts, type DiffSide, type TextDiff } from '../../core/diff/text-diff';
import { blobAt, checkRepoPath, readBlobBytes, readParent, readWorktreeFile, resolveCommit, shortOid, TreeCache, type CommitInfo, type GitRepo } from './blob-at';
import { forObjectReads } from './object-fs';

export type FileDiffStatus = 'added' | 'deleted' | 'modified' | 'unchanged' | 'parentMissing';

export interface FileDiffResult {
  path: string;
  /** What was asked: a full commit oid, or 'worktree'. */
  target: string;
  /** The commit shown (null for the working tree). */
  commit: Omit<CommitInfo, 'tree'> | null;
  /** What it is compared with: the first parent, or HEAD for the working tree (null: none, a root commit or an empty repository). */
  base: Omit<CommitInfo, 'tree'> | null;
  status: FileDiffStatus;
  before: DiffSide;
  after: DiffSide;
  /** The line and word diff when both sides are text (an absent side counts as empty). */
  diff: TextDiff | null;
}

const info = (c: CommitInfo | null) => {
  if (!c) return null;
  const { tree: _tree, ...rest } = c;
  return rest;
};

export async function fileDiff(repo: GitRepo, path: string, target: string, trees = new TreeCache()): Promise<FileDiffResult> {
  repo = forObjectReads(repo);
  const segments = checkRepoPath(path);
  if (typeof target !== 'string' || !target) throw new QuarryError('InvalidArgument', 'commit must be a commit oid or "worktree"', { field: 'commit', value: target });
  let commit: CommitInfo | null = null;
  let base: CommitInfo | null;
  let beforeBytes: Uint8Array | null;
  let afterBytes: Uint8Array | null;
  let parentMissing = false;
  if (target === 'worktree') {
    base = await resolveCommit(repo, 'HEAD').catch((err: unknown) => {
      // an empty repository: everything in the working tree is new
      if (err instanceof QuarryError && err.code === 'NotFound') return null;
      throw err;
    });
    const headBlob = base ? await blobAt(repo, base.tree, segments, trees) : null;
    beforeBytes = headBlob ? await readBlobBytes(repo, headBlob) : null;
    afterBytes = await readWorktreeFile(repo, segments);
    if (!beforeBytes && !afterBytes) throw new QuarryError('NotFound', `"${path}" is neither in the working tree nor in HEAD`, { path });
  } else {
    commit = await resolveCommit(repo, target);
    const afterBlob = await blobAt(repo, commit.tree, segments, trees);
    const parentOid = commit.parents[0];
    base = parentOid ? await readParent(repo, parentOid) : null;
    parentMissing = !!parentOid && !base;
    const beforeBlob = base ? await blobAt(repo, base.tree, segments, trees) : null;
    if (!afterBlob && !beforeBlob && !parentMissing) {
      throw new QuarryError('NotFound', `"${path}" is not in commit ${shortOid(commit.oid)} nor in its parent`, { path, commit: commit.oid });
    }
    afterBytes = afterBlob ? await readBlobBytes(repo, afterBlob) : null;
    beforeBytes = beforeBlob ? await readBlobBytes(repo, beforeBlob) : null;
  }
  const before = decodeSide(beforeBytes);
  const after = decodeSide(afterBytes);
  const status: FileDiffStatus = parentMissing
    ? 'parentMissing'
    : !beforeBytes
      ? 'added'
      : !afterBytes
        ? 'deleted'
        : sameBytes(beforeBytes, afterBytes)
          ? 'unchanged'
          : 'modified';
  const textOf = (s: DiffSide) => (s.kind === 'text' ? s.text : s.kind === 'absent' ? '' : null);
  const a = parentMissing ? null : textOf(before);
  const b = textOf(after);
  return {
    path,
    target: commit ? commit.oid : 'worktree',
    commit: info(commit),
    base: info(base),
    status,
    before,
    after,
    diff: a !== null && b !== null ? diffTexts(a, b) : null,
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

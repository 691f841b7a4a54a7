/**
 * Blame: which commit last changed each line of a file at HEAD, computed like `git blame
 * --first-parent` (no move or copy detection): walk the file's history back from HEAD; at
 * each commit that changed the file, diff its parent's version with its own (core/diff, the
 * same Myers, compaction, indent heuristic and common-tail cut as git's blame); lines the
 * diff inserts belong to that commit, unchanged lines are followed into the parent. The walk
 * stops when every line has its commit or at the commit that added the file. Line ids come
 * from one interner, so a line seen in many versions is hashed once.
 */
import { QuarryError } from '../../core/errors';
import type { BlameCommit, BlameResult, BlameRun, FileHistoryEntry } from '../../core/git/types';
import { createYielder } from '../../core/jobs/yielder';
import { diffLineIds } from '../../core/diff/ops';
import { gitTrimmedTailLines } from '../../core/diff/tail';
import { decodeBytes, hasNulByte } from '../../core/walk/decode';
import {
  ByteLineInterner,
  commonSuffix,
  deriveVersion,
  type ByteVersion,
  fullVersion,
  indentOf,
  lineCount,
} from '../../core/diff/versions';
import { MAX_DIFF_BYTES } from '../../core/diff/text-diff';
import { checkRepoPath, shortOid, TreeCache, type GitRepo } from './blob-at';
import { readBlobCapped } from './blob-read';
import { forObjectReads } from './object-fs';
import { cancelled, fileHistory, type FileHistory } from './file-history';

export type { BlameCommit, BlameResult, BlameRun } from '../../core/git/types';

export interface BlameProgress {
  phase: 'history' | 'blame';
  done: number;
  total: number;
}

export interface BlameOptions {
  signal?: AbortSignal;
  onProgress?: (p: BlameProgress) => void;
  /** A history already walked (its entries must reach back to the file's add, or the walk's end). */
  history?: FileHistory;
  trees?: TreeCache;
  yieldBudgetMs?: number;
}

/** Files (and earlier versions of them) larger than this are not blamed: the diff limit. */
export const MAX_BLAME_BYTES = MAX_DIFF_BYTES;

/** A version's bytes; a version over the limit is an error naming it (its size is learnt before it is read where it can be). */
async function readForBlame(
  repo: GitRepo,
  path: string,
  oid: string,
  commit: string | null,
): Promise<Uint8Array> {
  const { size, bytes } = await readBlobCapped(repo, oid, MAX_BLAME_BYTES);
  if (bytes) return bytes;
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  const which = commit ? `${path} before commit ${shortOid(commit)}` : path;
  throw new QuarryError(
    'InvalidArgument',
    `${which} is ${mb(size)}: blame reads files up to ${mb(MAX_BLAME_BYTES)}`,
    {
      reason: 'tooLarge',
      path,
      size,
      limit: MAX_BLAME_BYTES,
      ...(commit ? { commit } : {}),
    },
  );
}

/** The file's history back to its add (walked here unless given), and its blob at HEAD. */
async function historyForBlame(
  repo: GitRepo,
  path: string,
  options: BlameOptions,
): Promise<{ history: FileHistory; headBlob: string }> {
  const segments = checkRepoPath(path);
  const trees = options.trees ?? new TreeCache();
  const history =
    options.history ??
    (await fileHistory(repo, path, {
      signal: options.signal,
      trees,
      stopAtAdd: true,
      yieldBudgetMs: options.yieldBudgetMs,
      onProgress: (done) => options.onProgress?.({ phase: 'history', done, total: 0 }),
    }));
  if (!history.headBlob) {
    throw new QuarryError(
      'NotFound',
      `"${segments.join('/')}" is not in HEAD (${shortOid(history.head)}) of ${repo.name ?? 'this repository'}`,
      {
        path,
        commit: history.head,
      },
    );
  }
  return { history, headBlob: history.headBlob };
}

/**
 * The version before `current` (its bytes are `bytes`), and bToA: for each line j of the
 * current version, the parent's line it was (-1: the commit wrote it).
 */
function parentLines(
  current: ByteVersion,
  bytes: Uint8Array,
  interner: ByteLineInterner,
): { parent: ByteVersion; bToA: Int32Array } {
  const same = commonSuffix(bytes, current.bytes);
  const parent = deriveVersion(current, bytes, interner, same);
  // git leaves the common tail out of blame's diff (trim_common_tail); those lines map one to one
  const tail = gitTrimmedTailLines(parent.bytes, current.bytes, same);
  const na = lineCount(parent);
  const nb = lineCount(current);
  const d = diffLineIds(parent.ids.subarray(0, na - tail), current.ids.subarray(0, nb - tail), {
    a: (i) => indentOf(parent, i),
    b: (i) => indentOf(current, i),
  });
  const bToA = new Int32Array(nb).fill(-1);
  for (const op of d.ops) if (op.op === 'equal') for (let i = 0; i < op.n; i++) bToA[op.b + i] = op.a + i;
  for (let i = 0; i < tail; i++) bToA[nb - 1 - i] = na - 1 - i;
  return { parent, bToA };
}

export async function blameFile(
  repo: GitRepo,
  path: string,
  options: BlameOptions = {},
): Promise<BlameResult> {
  repo = forObjectReads(repo);
  const { history, headBlob } = await historyForBlame(repo, path, options);
  const yielder = createYielder(options.yieldBudgetMs);
  const headBytes = await readForBlame(repo, path, headBlob, null);
  const headDecoded = decodeBytes(headBytes);
  if (headDecoded.binary)
    throw new QuarryError('InvalidArgument', `${path} is a binary file: blame needs text`, {
      reason: 'binary',
      path,
    });
  // Lines are split and compared as bytes (as git does); UTF-16 text is turned into UTF-8 first so '\n' is one byte.
  const utf16 = headDecoded.encoding.startsWith('utf-16');
  const lineBytes = (bytes: Uint8Array): Uint8Array | null => {
    if (!utf16) return hasNulByte(bytes) ? null : bytes;
    const d = decodeBytes(bytes);
    return d.binary ? null : new TextEncoder().encode(d.text);
  };
  const interner = new ByteLineInterner();
  const head = fullVersion(lineBytes(headBytes)!, interner);
  const n = lineCount(head);

  // The entries that matter: from HEAD back to the latest add (a file deleted and added again starts over there).
  const chain: FileHistoryEntry[] = [];
  for (const e of history.entries) {
    chain.push(e);
    if (e.change === 'add') break;
  }
  const commits: BlameCommit[] = [];
  const owner = new Int32Array(n).fill(-1);
  const orig = new Int32Array(n);
  // Lines still looking for their commit: their HEAD line and their line in the current version.
  let pendingHead = Int32Array.from({ length: n }, (_, i) => i);
  let pendingCur = pendingHead.slice();
  const assign = (e: FileHistoryEntry | BlameCommit, boundary: boolean, keep: (i: number) => boolean) => {
    let index = -1;
    const nextHead: number[] = [];
    const nextCur: number[] = [];
    for (let i = 0; i < pendingHead.length; i++) {
      if (keep(i)) {
        nextHead.push(pendingHead[i]);
        nextCur.push(pendingCur[i]);
        continue;
      }
      if (index < 0) {
        index = commits.length;
        commits.push({
          oid: e.oid,
          author: e.author,
          email: e.email,
          date: e.date,
          summary: e.summary,
          ...(boundary ? { boundary } : {}),
        });
      }
      owner[pendingHead[i]] = index;
      orig[pendingHead[i]] = pendingCur[i];
    }
    pendingHead = Int32Array.from(nextHead);
    pendingCur = Int32Array.from(nextCur);
  };

  let current = head;
  let versions = 1;
  for (let k = 0; k < chain.length && pendingHead.length; k++) {
    if (options.signal?.aborted) throw cancelled();
    options.onProgress?.({ phase: 'blame', done: k, total: chain.length });
    const e = chain[k];
    const bytes =
      e.change === 'add' || !e.previousBlob
        ? null
        : lineBytes(await readForBlame(repo, path, e.previousBlob, e.oid));
    if (!bytes) {
      // added here (or a binary version before it): every line left is this commit's
      assign(e, !!e.boundary, () => false);
      break;
    }
    versions++;
    const { parent, bToA } = parentLines(current, bytes, interner);
    assign(e, false, (i) => bToA[pendingCur[i]] >= 0);
    for (let i = 0; i < pendingCur.length; i++) pendingCur[i] = bToA[pendingCur[i]];
    current = parent;
    await yielder.maybeYield();
  }
  if (pendingHead.length) {
    // The walk ended (a limit, or a history that stopped early) with lines unexplained: the
    // oldest commit seen takes them, marked as a boundary.
    const last = chain[chain.length - 1];
    if (!last) throw new QuarryError('Internal', `No history found for ${path}`, { path });
    assign(last, true, () => false);
  }
  options.onProgress?.({ phase: 'blame', done: chain.length, total: chain.length });
  return {
    path,
    head: history.head,
    text: headDecoded.text,
    lineCount: n,
    commits,
    runs: runsOf(owner, orig),
    versions,
    shallow: history.shallow,
  };
}

/** Consecutive lines from the same commit and consecutive original lines form one run. */
function runsOf(owner: Int32Array, orig: Int32Array): BlameRun[] {
  const runs: BlameRun[] = [];
  for (let i = 0; i < owner.length; i++) {
    const last = runs[runs.length - 1];
    if (
      last &&
      last.commit === owner[i] &&
      last.origStart + last.count === orig[i] &&
      last.start + last.count === i
    )
      last.count++;
    else runs.push({ start: i, count: 1, commit: owner[i], origStart: orig[i] });
  }
  return runs;
}

/**
 * Trees over the object store: a commit's changed files against its first parent (read when a
 * commit is expanded, never for the whole log), and a tree flattened to path -> blob (what
 * uncommitted changes compare with). Subtrees with equal ids are skipped whole, so a commit
 * costs what it changed, not the size of the repository.
 */
import { QuarryError } from '../../core/errors';
import type { ChangedFile } from './history';
import { parseCommit } from './log-walk';
import { bytesToHex, type GitObjectStore } from './objects';

export interface TreeEntry {
  name: string;
  mode: number;
  oid: string;
}

const TREE_MODE = 0o40000;
const GITLINK_MODE = 0o160000;
const decoder = new TextDecoder();

export function parseTree(bytes: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  let p = 0;
  while (p < bytes.length) {
    const sp = bytes.indexOf(0x20, p);
    const nul = bytes.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > bytes.length) throw new QuarryError('Unreadable', 'A git tree object is malformed', {});
    out.push({ mode: parseInt(decoder.decode(bytes.subarray(p, sp)), 8), name: decoder.decode(bytes.subarray(sp + 1, nul)), oid: bytesToHex(bytes, nul + 1, nul + 21) });
    p = nul + 21;
  }
  return out;
}

const isTree = (e: TreeEntry | undefined) => !!e && e.mode === TREE_MODE;
/** Files git tracks content for: blobs and symlinks (a submodule's commit is not a file here). */
const isFile = (e: TreeEntry | undefined) => !!e && e.mode !== TREE_MODE && e.mode !== GITLINK_MODE;

async function treeOf(objects: GitObjectStore, oid: string | null): Promise<TreeEntry[]> {
  return oid ? parseTree(await objects.readAs(oid, 'tree')) : [];
}

/** Files that differ between two trees (null = the empty tree), sorted by path. */
export async function diffTreeIds(objects: GitObjectStore, before: string | null, after: string | null, signal?: AbortSignal): Promise<ChangedFile[]> {
  const out: ChangedFile[] = [];
  const visit = async (a: string | null, b: string | null, prefix: string): Promise<void> => {
    if (a === b) return;
    if (signal?.aborted) throw new QuarryError('Cancelled', 'Reading the changed files was cancelled');
    const [left, right] = await Promise.all([treeOf(objects, a), treeOf(objects, b)]);
    const byName = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
    for (const e of left) byName.set(e.name, [e, undefined]);
    for (const e of right) byName.set(e.name, [byName.get(e.name)?.[0], e]);
    for (const [name, [l, r]] of byName) {
      const path = prefix + name;
      if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
      if (isFile(l) && isFile(r)) out.push({ path, type: 'modify' });
      else {
        if (isFile(l)) out.push({ path, type: 'delete' });
        if (isFile(r)) out.push({ path, type: 'add' });
      }
      if (isTree(l) || isTree(r)) await visit(isTree(l) ? l!.oid : null, isTree(r) ? r!.oid : null, `${path}/`);
    }
  };
  await visit(before, after, '');
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

export interface CommitChanges {
  files: ChangedFile[];
  /** The first parent is not in the repository (a shallow clone's boundary): the changes are unknown. */
  parentMissing?: boolean;
}

/** A commit's changed files against its first parent (every file is an add for a root commit). */
export async function commitChanges(objects: GitObjectStore, oid: string, signal?: AbortSignal): Promise<CommitChanges> {
  const commit = await objects.readAs(oid, 'commit');
  const tree = treeLine(commit);
  const parent = parseCommit(oid, commit).parents[0];
  if (!parent) return { files: await diffTreeIds(objects, null, tree, signal) };
  const parentObj = await objects.read(parent);
  if (!parentObj) return { files: [], parentMissing: true };
  if (parentObj.type !== 'commit') throw new QuarryError('Unreadable', `git object ${parent} is a ${parentObj.type}, not a commit`, { oid: parent });
  return { files: await diffTreeIds(objects, treeLine(parentObj.bytes), tree, signal) };
}

function treeLine(commit: Uint8Array): string {
  const m = /^tree ([0-9a-f]{40})$/m.exec(decoder.decode(commit.subarray(0, 46)));
  if (!m) throw new QuarryError('Unreadable', 'A git commit object has no tree', {});
  return m[1];
}

/** Every file of a commit's tree: path -> {oid, mode}. */
export async function flattenCommitTree(objects: GitObjectStore, commitOid: string): Promise<Map<string, { oid: string; mode: number }>> {
  const out = new Map<string, { oid: string; mode: number }>();
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const entries = await treeOf(objects, oid);
    const subtrees: Promise<void>[] = [];
    for (const e of entries) {
      if (e.mode === TREE_MODE) subtrees.push(visit(e.oid, `${prefix}${e.name}/`));
      else if (e.mode !== GITLINK_MODE) out.set(prefix + e.name, { oid: e.oid, mode: e.mode });
    }
    await Promise.all(subtrees);
  };
  await visit(treeLine(await objects.readAs(commitOid, 'commit')), '');
  return out;
}

/**
 * Trees over the object store: a commit's changed files against its first parent (read when a
 * commit is expanded, never for the whole log), and a tree flattened to path -> blob (what
 * uncommitted changes compare with). Subtrees with equal ids are skipped whole, so a commit
 * costs what it changed, not the size of the repository.
 */
import { QuarryError } from '../../core/errors';
import type { ChangedFile } from '../../core/git/types';
import { parseCommit } from './log-walk';
import { bytesToHex, type GitObjectStore } from './objects';

export interface TreeEntry {
  name: string;
  mode: number;
  oid: string;
}

/**
 * Tree entries one diff or flattening visits at most. A tree can name the same subtree many
 * times, nested (a "git bomb": a few KB of objects that expand to billions of paths); past this
 * the work stops with an error instead of running out of memory.
 */
export const MAX_TREE_ENTRIES = 1_000_000;

const TREE_MODE = 0o40000;
const GITLINK_MODE = 0o160000;
const decoder = new TextDecoder();

export function parseTree(bytes: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  let p = 0;
  while (p < bytes.length) {
    const sp = bytes.indexOf(0x20, p);
    const nul = bytes.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > bytes.length)
      throw new QuarryError('Unreadable', 'A git tree object is malformed', {});
    out.push({
      mode: parseInt(decoder.decode(bytes.subarray(p, sp)), 8),
      name: decoder.decode(bytes.subarray(sp + 1, nul)),
      oid: bytesToHex(bytes, nul + 1, nul + 21),
    });
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

export interface TreeWalkOptions {
  signal?: AbortSignal;
  /** Entries visited at most (default MAX_TREE_ENTRIES). */
  maxEntries?: number;
}

/** Counts the entries a walk visits; cancels and stops it past the limit. */
function entryCounter(what: string, root: string | null, options: TreeWalkOptions) {
  const max = options.maxEntries ?? MAX_TREE_ENTRIES;
  let visited = 0;
  return (entries: number) => {
    if (options.signal?.aborted) throw new QuarryError('Cancelled', `${what} was cancelled`);
    visited += entries;
    if (visited > max) {
      throw new QuarryError(
        'Unreadable',
        `${what} stopped: the tree ${root ?? ''} has more than ${max.toLocaleString('en-US')} entries (the same subtrees repeated many times over?)`,
        { reason: 'tooLarge', tree: root, limit: max },
      );
    }
  };
}

/** Files that differ between two trees (null = the empty tree), sorted by path. */
export async function diffTreeIds(
  objects: GitObjectStore,
  before: string | null,
  after: string | null,
  signal?: AbortSignal,
  options: Omit<TreeWalkOptions, 'signal'> = {},
): Promise<ChangedFile[]> {
  const out: ChangedFile[] = [];
  const count = entryCounter('Reading the changed files', after ?? before, { ...options, signal });
  const visit = async (a: string | null, b: string | null, prefix: string): Promise<void> => {
    if (a === b) return;
    count(0);
    const [left, right] = await Promise.all([treeOf(objects, a), treeOf(objects, b)]);
    count(left.length + right.length);
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
      if (isTree(l) || isTree(r))
        await visit(isTree(l) ? l!.oid : null, isTree(r) ? r!.oid : null, `${path}/`);
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
export async function commitChanges(
  objects: GitObjectStore,
  oid: string,
  signal?: AbortSignal,
  options: Omit<TreeWalkOptions, 'signal'> = {},
): Promise<CommitChanges> {
  const commit = await objects.readAs(oid, 'commit');
  const tree = treeLine(commit);
  const parsed = parseCommit(oid, commit);
  // a parent line that is no object id: that parent is unknown, as past a shallow boundary
  if (parsed.parentMissing) return { files: [], parentMissing: true };
  const parent = parsed.parents[0];
  if (!parent) return { files: await diffTreeIds(objects, null, tree, signal, options) };
  const parentObj = await objects.read(parent);
  if (!parentObj) return { files: [], parentMissing: true };
  if (parentObj.type !== 'commit')
    throw new QuarryError('Unreadable', `git object ${parent} is a ${parentObj.type}, not a commit`, {
      oid: parent,
    });
  return { files: await diffTreeIds(objects, treeLine(parentObj.bytes), tree, signal, options) };
}

function treeLine(commit: Uint8Array): string {
  const m = /^tree ([0-9a-f]{40})$/m.exec(decoder.decode(commit.subarray(0, 46)));
  if (!m) throw new QuarryError('Unreadable', 'A git commit object has no tree', {});
  return m[1];
}

/** Trees read at once while flattening (hides read latency without one pending read per subtree). */
const FLATTEN_WIDTH = 16;

/** Every file of a commit's tree: path -> {oid, mode}. */
export async function flattenCommitTree(
  objects: GitObjectStore,
  commitOid: string,
  options: TreeWalkOptions = {},
): Promise<Map<string, { oid: string; mode: number }>> {
  const out = new Map<string, { oid: string; mode: number }>();
  const root = treeLine(await objects.readAs(commitOid, 'commit'));
  const count = entryCounter(`Reading the files of commit ${commitOid}`, root, options);
  // Depth first, a few trees in flight: the pending list stays about depth x width long.
  const pending: Array<[oid: string, prefix: string]> = [[root, '']];
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      if (!pending.length && !active) return resolve();
      while (active < FLATTEN_WIDTH && pending.length) {
        const [oid, prefix] = pending.pop()!;
        active++;
        (async () => {
          count(0);
          const entries = await treeOf(objects, oid);
          count(entries.length);
          for (const e of entries) {
            if (e.mode === TREE_MODE) pending.push([e.oid, `${prefix}${e.name}/`]);
            else if (e.mode !== GITLINK_MODE) out.set(prefix + e.name, { oid: e.oid, mode: e.mode });
          }
        })().then(
          () => {
            active--;
            pump();
          },
          (err: unknown) => {
            failed = true;
            reject(err);
          },
        );
      }
    };
    pump();
  });
  return out;
}

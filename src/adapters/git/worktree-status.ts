/**
 * Uncommitted changes of a working tree against HEAD, the way `git status` finds them: a
 * tracked file whose size and mtime still match what `.git/index` recorded is unchanged
 * (its blob is the index's); only files whose stat differs (or is racily clean: modified in
 * the same instant the index was written) are hashed. Untracked files come from a walk that
 * honours .gitignore files and .git/info/exclude and never enters an ignored directory.
 *
 * Not modelled (documented in docs/history-log.md): clean/smudge filters and autocrlf (a
 * stat-dirty file is hashed as it is on disk), the executable bit (File System Access has no
 * modes), core.excludesFile (outside the repository), nested repositories (not entered).
 */
import ignore, { type Ignore } from 'ignore';
import { QuarryError } from '../../core/errors';
import type { UncommittedFile } from '../../core/git/types';
import { blobOid, readIndexFile, sizeDiffers, type IndexEntry } from './index-file';
import type { GitFs, GitObjectStore } from './objects';
import { flattenCommitTree } from './tree-diff';

export type { UncommittedFile } from '../../core/git/types';

export interface WorktreeStatus {
  files: UncommittedFile[];
  /** Tracked files looked at, and how many of them had to be hashed. */
  tracked: number;
  hashed: number;
}

export interface WorktreeStatusOptions {
  dir: string;
  gitdir: string;
  /** HEAD's commit (null: no commits yet, everything staged is added). */
  head: string | null;
  signal?: AbortSignal;
  maybeYield?: () => Promise<void> | void;
  /** Stats in flight at once (hides File System Access latency). */
  concurrency?: number;
}

type Stat = {
  size: number;
  mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink?(): boolean;
};

interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

const GITLINK = 0o160000;
const SYMLINK = 0o120000;

function ignoredBy(levels: IgnoreLevel[], path: string, isDir: boolean): boolean {
  // git's precedence: the deepest ignore file with a matching rule wins
  for (let i = levels.length - 1; i >= 0; i--) {
    const { base, rules } = levels[i];
    const rel = base === '' ? path : path.slice(base.length + 1);
    const r = rules.test(isDir ? `${rel}/` : rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/** Does the working file still hold the index's blob, by stat alone? */
export function statMatches(
  entry: IndexEntry,
  st: { size: number; mtimeMs: number },
  indexMtimeMs: number,
): boolean {
  if (sizeDiffers(entry, st.size)) return false;
  const entryMs = entry.mtimeSec * 1000 + Math.floor(entry.mtimeNsec / 1e6);
  // nanoseconds of 0: written by a git without them, compare whole seconds
  const same =
    entry.mtimeNsec === 0
      ? Math.floor(st.mtimeMs / 1000) === entry.mtimeSec
      : Math.floor(st.mtimeMs) === entryMs;
  // racily clean: changed in the instant the index was written, so the stat proves nothing
  return same && entryMs < Math.floor(indexMtimeMs);
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** The blob id of the working file at `path` (a symbolic link: of its target); null if unreadable. */
async function hashWorkingFile(fs: GitFs, path: string, st: Stat): Promise<string | null> {
  try {
    if (st.isSymbolicLink?.() && fs.promises.readlink)
      return await blobOid(new TextEncoder().encode(await fs.promises.readlink(path)));
    const data = await fs.promises.readFile(path);
    return await blobOid(typeof data === 'string' ? new TextEncoder().encode(data) : data);
  } catch {
    return null; // vanished or unreadable: reported as deleted
  }
}

/**
 * A tracked path's status (in the index, HEAD or both) from its stat, its index entry and
 * HEAD's entry; null when unchanged. `hash` reads and hashes the file, when it has to be read.
 */
async function trackedStatus(
  st: Stat | null,
  entry: IndexEntry | undefined,
  inHead: { oid: string; mode: number } | undefined,
  indexMtimeMs: number,
  hash: (st: Stat) => Promise<string | null>,
): Promise<UncommittedFile['status'] | null> {
  if (!st || st.isDirectory()) return inHead ? 'deleted' : null;
  let oid: string | null = null;
  const staged = entry && entry.stage === 0 && !entry.intentToAdd ? entry : undefined;
  if (entry && (entry.skipWorktree || entry.assumeUnchanged)) oid = entry.oid;
  else if (staged && statMatches(staged, st, indexMtimeMs)) oid = staged.oid;
  else if (inHead && staged && staged.oid === inHead.oid && sizeDiffers(staged, st.size)) {
    // not the index's blob, which is HEAD's: modified, whatever it holds (not read)
    return 'modified';
  } else if (!inHead && entry) {
    // staged as new: added, whatever it holds now (not read)
    return 'added';
  } else if (inHead) {
    oid = await hash(st);
  }
  if (inHead) {
    if (oid === null) return 'deleted';
    if (
      oid !== inHead.oid ||
      (entry && entry.stage === 0 && (entry.mode === SYMLINK) !== (inHead.mode === SYMLINK))
    )
      return 'modified';
    return null;
  }
  if (entry) return oid === null ? 'deleted' : 'added';
  return null;
}

export async function worktreeStatus(
  fs: GitFs,
  objects: GitObjectStore,
  options: WorktreeStatusOptions,
): Promise<WorktreeStatus> {
  const { dir, gitdir, head, signal } = options;
  const width = Math.max(1, options.concurrency ?? 16);
  const root = dir === '/' ? '' : dir.replace(/\/$/, '');
  const abs = (rel: string) => `${root}/${rel}`;
  const check = async () => {
    if (signal?.aborted) throw new QuarryError('Cancelled', 'Reading the uncommitted changes was cancelled');
    await options.maybeYield?.();
  };
  const lstat = async (rel: string): Promise<Stat | null> => {
    try {
      return (await (fs.promises.lstat ?? fs.promises.stat)(abs(rel))) as Stat;
    } catch {
      return null;
    }
  };

  const index = await readIndexFile(fs, gitdir);
  const headFiles = head
    ? await flattenCommitTree(objects, head, { signal })
    : new Map<string, { oid: string; mode: number }>();
  await check();

  // One entry per path (a conflicted path has stages 1-3 and no stage 0).
  const tracked = new Map<string, IndexEntry>();
  for (const e of index.entries)
    if (e.mode !== GITLINK && (!tracked.has(e.path) || e.stage === 0)) tracked.set(e.path, e);

  const files: UncommittedFile[] = [];
  let hashed = 0;
  const seen = new Set<string>();
  const compare = async (rel: string, st: Stat | null) => {
    seen.add(rel);
    const status = await trackedStatus(st, tracked.get(rel), headFiles.get(rel), index.mtimeMs, (found) => {
      hashed++;
      return hashWorkingFile(fs, abs(rel), found);
    });
    if (status) files.push({ path: rel, status });
  };

  // The walk: tracked files met on the way are compared, the rest are untracked unless ignored.
  const levels: IgnoreLevel[] = [];
  const exclude = await readText(fs, `${gitdir}/info/exclude`);
  if (exclude) levels.push({ base: '', rules: ignore({ allowRelativePaths: true }).add(exclude) });
  const trackedDirs = new Set<string>();
  for (const p of new Set([...tracked.keys(), ...headFiles.keys()])) {
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) trackedDirs.add(p.slice(0, i));
  }
  const walk = async (rel: string): Promise<void> => {
    await check();
    let names: string[];
    try {
      names = (await fs.promises.readdir(abs(rel).replace(/\/$/, '') || '/')).sort();
    } catch {
      return;
    }
    const prefix = rel ? `${rel}/` : '';
    let pushed = false;
    if (names.includes('.gitignore')) {
      const text = await readText(fs, abs(`${prefix}.gitignore`));
      if (text) {
        levels.push({ base: rel, rules: ignore({ allowRelativePaths: true }).add(text) });
        pushed = true;
      }
    }
    const dirs: string[] = [];
    await pool(
      names.filter((n) => !(rel === '' && n === '.git')),
      width,
      async (name) => {
        if (signal?.aborted) return; // check() throws at the next directory
        const path = prefix + name;
        const st = await lstat(path);
        if (!st) return;
        if (st.isDirectory()) {
          dirs.push(path);
          return;
        }
        if (tracked.has(path) || headFiles.has(path)) await compare(path, st);
        else if (!ignoredBy(levels, path, false)) files.push({ path, status: 'untracked' });
      },
    );
    for (const d of dirs.sort()) {
      // a tracked directory is entered even when ignored (its tracked files still count)
      if (!trackedDirs.has(d) && ignoredBy(levels, d, true)) continue;
      if (!trackedDirs.has(d) && (await isRepository(fs, abs(d)))) continue; // a nested repository is not ours
      await walk(d);
    }
    if (pushed) levels.pop();
  };
  await walk('');
  await check();

  // Tracked paths the walk did not meet: deleted, or inside an ignored directory.
  const rest = [...new Set([...tracked.keys(), ...headFiles.keys()])].filter((p) => !seen.has(p));
  await pool(rest, width, async (p) => compare(p, await lstat(p)));

  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, tracked: tracked.size, hashed };
}

async function readText(fs: GitFs, path: string): Promise<string> {
  try {
    const data = await fs.promises.readFile(path, 'utf8');
    return typeof data === 'string' ? data : new TextDecoder().decode(data);
  } catch {
    return '';
  }
}

async function isRepository(fs: GitFs, path: string): Promise<boolean> {
  try {
    await fs.promises.stat(`${path}/.git`);
    return true;
  } catch {
    return false;
  }
}

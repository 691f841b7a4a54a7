/**
 * Walk a FileSource under the walk policy: skip noisy segments, honour nested ignore
 * files, skip files over the size limit, never follow a symlink into one of its own
 * ancestors. Binary detection needs the bytes, so it happens in readText().
 * Entries are visited in name order so every run (and every tool) sees the same order.
 */
import ignore, { type Ignore } from 'ignore';
import { QuarryError } from '../errors';
import type { FileSource, FileStat } from '../source/types';
import { joinPath } from '../source/types';
import { decodeBytes, hasNulByte, hasUtf16Bom, type TextEncodingName } from './decode';
import { IGNORE_FILE_NAMES, resolvePolicy, type Skipped, type WalkPolicy } from './policy';

export interface WalkedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions extends Partial<WalkPolicy> {
  /** Directory to start from, relative to the root ('' = root). */
  start?: string;
  /** Called for every skipped file or directory. */
  onSkip?: (skipped: Skipped) => void;
  /** Cheap path filter applied before stat (include/exclude globs, extension...). */
  acceptFile?: (path: string) => boolean;
  /** Directory prune: return false to not descend. */
  acceptDir?: (path: string) => boolean;
  /** With followSymlinks: whether a symlink to a directory is walked into too (default true; seed 004's engine does not). */
  followDirSymlinks?: boolean;
  /**
   * false: a regular file is yielded without its stat (size -1, see fileOnWalk): the reader
   * checks its size where the walk would have (the search pool's lanes do, in parallel).
   */
  statFiles?: boolean;
  signal?: AbortSignal;
}

/**
 * What the walk would have said of a regular file it did not stat (statFiles: false): null
 * when it is kept, or its skip (vanished, too large, refused), word for word.
 */
export async function fileOnWalk(
  source: FileSource,
  path: string,
  maxFileBytes: number,
): Promise<Skipped | null> {
  let stat;
  try {
    stat = source.statFile ? await source.statFile(path) : await source.stat(path);
  } catch (err) {
    return skipFor(path, err);
  }
  if (!stat) return { path, reason: 'unreadable', detail: 'vanished during the walk' };
  if (stat.size > maxFileBytes)
    return { path, reason: 'tooLarge', detail: `${stat.size} bytes > ${maxFileBytes}` };
  return null;
}

interface IgnoreLevel {
  base: string; // directory of the ignore file ('' = root)
  rules: Ignore;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Decide with git's precedence: the deepest ignore file with a matching rule wins. */
function isIgnored(levels: IgnoreLevel[], path: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const { base, rules } = levels[i];
    const rel = base === '' ? path : path.slice(base.length + 1);
    const r = rules.test(isDir ? rel + '/' : rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

async function loadIgnoreLevel(
  source: FileSource,
  dir: string,
  names: string[],
): Promise<IgnoreLevel | null> {
  let rules: Ignore | null = null;
  for (const name of names) {
    try {
      const text = decoder.decode(await source.read(joinPath(dir, name)));
      rules ??= ignore({ allowRelativePaths: true });
      rules.add(text);
    } catch {
      // An unreadable ignore file is treated as absent; the walk goes on.
    }
  }
  return rules ? { base: dir, rules } : null;
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new QuarryError('Cancelled', 'The search was cancelled');
}

/** The ignore levels of the directories above `start` (from the root down). */
async function ignoreLevelsAbove(source: FileSource, start: string): Promise<IgnoreLevel[]> {
  const levels: IgnoreLevel[] = [];
  if (start === '') return levels;
  const parts = start.split('/');
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const names = await presentIgnoreFiles(source, dir);
    const level = names.length ? await loadIgnoreLevel(source, dir, names) : null;
    if (level) levels.push(level);
  }
  return levels;
}

/** The stat of a symlink's target, or null (reported to `skip`) when it is not followed, broken or unreadable. */
async function followSymlink(
  source: FileSource,
  path: string,
  followSymlinks: boolean,
  followDirSymlinks: boolean | undefined,
  skip: (s: Skipped) => void,
): Promise<FileStat | null> {
  if (!followSymlinks) {
    skip({ path, reason: 'notRegular', detail: 'symlink (not followed)' });
    return null;
  }
  let stat: FileStat | null;
  try {
    stat = await source.stat(path);
  } catch (err) {
    skip(skipFor(path, err));
    return null;
  }
  if (!stat) {
    skip({ path, reason: 'notRegular', detail: 'broken symlink' });
    return null;
  }
  if (stat.kind === 'directory' && followDirSymlinks === false) {
    skip({ path, reason: 'notRegular', detail: 'symlink to a directory (not followed)' });
    return null;
  }
  return stat;
}

/**
 * How many entries of a directory the walk asks the stats of ahead of the one it is at. A File
 * System Access getFile() is a round trip to the browser's storage process: 4,000 OPFS files took
 * 1.5 s one after the other and 0.65 s sixteen at a time in Chromium here; Node's fs.stat runs on
 * libuv's threads. The files are still yielded in the directory's order.
 */
const STATS_AHEAD = 16;

/**
 * For a directory's sorted entries: `ahead(i)` starts the stats `start` asks for (undefined: not
 * one the walk will stat) up to STATS_AHEAD entries past `i`, and gives entry i's, if started.
 */
function statsAhead(
  entries: readonly { name: string; kind: string }[],
  start: (entry: { name: string; kind: string }, path: string) => Promise<FileStat | null> | undefined,
): (i: number, dir: string) => Promise<FileStat | null> | undefined {
  const started = new Map<number, Promise<FileStat | null>>();
  let next = 0;
  return (i, dir) => {
    for (next = Math.max(next, i); next < entries.length && next <= i + STATS_AHEAD; next++) {
      const stat = start(entries[next], joinPath(dir, entries[next].name));
      if (!stat) continue;
      // a rejection is handled where the walk reaches the entry (a skip), or never asked for
      stat.catch(() => undefined);
      started.set(next, stat);
    }
    const own = started.get(i);
    started.delete(i);
    return own;
  };
}

/** Starts the stat the walk will ask for an entry: a file it neither skips nor filters out (others: undefined). */
function fileStatStarter(
  source: FileSource,
  options: WalkOptions,
  policy: WalkPolicy,
  noisy: ReadonlySet<string>,
  levels: IgnoreLevel[],
): (entry: { name: string; kind: string }, path: string) => Promise<FileStat | null> | undefined {
  return (entry, path) =>
    entry.kind === 'file' &&
    !options.acceptFile &&
    options.statFiles !== false &&
    !noisy.has(entry.name) &&
    !(policy.useIgnoreFiles && isIgnored(levels, path, false))
      ? source.stat(path)
      : undefined;
}

export async function* walkFiles(source: FileSource, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const policy = resolvePolicy(options);
  const noisy = new Set(policy.noisySegments);
  const skip = options.onSkip ?? (() => {});
  const start = options.start ?? '';

  // Ignore files above the start directory still apply (as git does).
  const levels: IgnoreLevel[] = policy.useIgnoreFiles ? await ignoreLevelsAbove(source, start) : [];

  const rootStat = await source.stat(start);
  if (!rootStat) throw new QuarryError('NotFound', `No such directory: ${start || '.'}`, { path: start });
  if (rootStat.kind === 'file') {
    yield { path: start, size: rootStat.size, mtimeMs: rootStat.mtimeMs };
    return;
  }

  async function* visit(dir: string, ancestors: Set<string>): AsyncGenerator<WalkedFile> {
    throwIfAborted(options.signal);
    let entries;
    try {
      entries = (await source.list(dir)).sort(byName);
    } catch (err) {
      skip(skipFor(dir, err, true));
      return;
    }
    let pushed = false;
    if (policy.useIgnoreFiles) {
      const names = entries
        .filter((e) => IGNORE_NAMES.has(e.name) && e.kind !== 'directory')
        .map((e) => e.name);
      if (names.length) {
        const level = await loadIgnoreLevel(source, dir, names);
        if (level) {
          levels.push(level);
          pushed = true;
        }
      }
    }
    const ahead = statsAhead(entries, fileStatStarter(source, options, policy, noisy, levels));
    try {
      for (const [i, entry] of entries.entries()) {
        const path = joinPath(dir, entry.name);
        const statAhead = ahead(i, dir);
        let kind = entry.kind;
        if (noisy.has(entry.name)) {
          skip({ path, reason: 'noisyPath', directory: kind === 'directory' || undefined });
          continue;
        }
        let stat: FileStat | null = null;
        if (kind === 'symlink') {
          stat = await followSymlink(source, path, policy.followSymlinks, options.followDirSymlinks, skip);
          if (!stat) continue;
          kind = stat.kind;
        }
        if (kind === 'directory') {
          if (policy.useIgnoreFiles && isIgnored(levels, path, true)) {
            skip({ path, reason: 'ignored', directory: true });
            continue;
          }
          if (options.acceptDir && !options.acceptDir(path)) continue;
          try {
            stat ??= await source.stat(path);
          } catch (err) {
            skip(skipFor(path, err, true));
            continue;
          }
          const id = stat?.id;
          if (id !== undefined && ancestors.has(id)) {
            skip({ path, reason: 'symlinkLoop', directory: true });
            continue;
          }
          if (id !== undefined) ancestors.add(id);
          yield* visit(path, ancestors);
          if (id !== undefined) ancestors.delete(id);
          continue;
        }
        if (kind !== 'file') {
          skip(
            stat?.special
              ? { path, reason: 'notRegular', detail: stat.special }
              : { path, reason: 'notRegular' },
          );
          continue;
        }
        if (policy.useIgnoreFiles && isIgnored(levels, path, false)) {
          skip({ path, reason: 'ignored' });
          continue;
        }
        if (options.acceptFile && !options.acceptFile(path)) continue;
        if (!stat && options.statFiles === false) {
          yield { path, size: -1, mtimeMs: 0 };
          continue;
        }
        try {
          stat ??= await (statAhead ?? source.stat(path));
        } catch (err) {
          skip(skipFor(path, err));
          continue;
        }
        if (!stat) {
          skip({ path, reason: 'unreadable', detail: 'vanished during the walk' });
          continue;
        }
        if (stat.size > policy.maxFileBytes) {
          skip({ path, reason: 'tooLarge', detail: `${stat.size} bytes > ${policy.maxFileBytes}` });
          continue;
        }
        yield { path, size: stat.size, mtimeMs: stat.mtimeMs };
      }
    } finally {
      if (pushed) levels.pop();
    }
  }

  const ancestors = new Set<string>();
  if (rootStat.id !== undefined) ancestors.add(rootStat.id);
  yield* visit(start, ancestors);
}

const IGNORE_NAMES = new Set(IGNORE_FILE_NAMES);

/** A skip for an entry the source refused: outside the root, not permitted, unreadable. */
function skipFor(path: string, err: unknown, directory?: boolean): Skipped {
  const reason = err instanceof QuarryError ? err.data.reason : undefined;
  const detail = err instanceof Error ? err.message : String(err);
  const out: Skipped = {
    path,
    reason:
      reason === 'outsideRoot' || reason === 'notRegular' || reason === 'symlinkLoop' ? reason : 'unreadable',
    detail,
  };
  if (directory) out.directory = true;
  return out;
}

async function presentIgnoreFiles(source: FileSource, dir: string): Promise<string[]> {
  try {
    return (await source.list(dir))
      .filter((e) => IGNORE_NAMES.has(e.name) && e.kind !== 'directory')
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

export type TextResult =
  { ok: true; text: string; encoding: TextEncodingName } | { ok: false; skipped: Skipped };

/** readTextIfMayMatch's extra answer: the UTF-8 bytes cannot hold a hit (never decoded). */
export type FilteredTextResult = TextResult | { ok: 'absent' };

/**
 * Read and decode one walked file; binary or unreadable files come back as a skip.
 * With `mayMatch` (built from literals of which every hit contains one), a UTF-8 file
 * whose bytes cannot hold a hit is answered 'absent' without decoding: a valid UTF-8
 * needle in the decoded text is always present in the raw bytes (UTF-8 self-synchronises;
 * replacement characters only stand for invalid bytes, and needles never contain U+FFFD).
 * UTF-16 files are always decoded.
 */
/** A test over a file's raw bytes: false means no hit can be in it. */
export type BytePrefilter = (bytes: Uint8Array) => boolean;

export function readText(source: Pick<FileSource, 'read' | 'decode'>, path: string): Promise<TextResult> {
  return readTextIfMayMatch(source, path, null) as Promise<TextResult>;
}

export async function readTextIfMayMatch(
  source: Pick<FileSource, 'read' | 'decode'>,
  path: string,
  mayMatch: BytePrefilter | null,
): Promise<FilteredTextResult> {
  let bytes: Uint8Array;
  try {
    // bytes of this call's own: readText has many callers in flight at once (explore's analyzers, the
    // index build beside a tool, `quarry mcp`'s concurrent calls), and a transient buffer is
    // overwritten by the next read before this one decodes (it turned an included header's text into
    // package.json's, and dropped the edge). The search's own readers, one per source, keep using it.
    bytes = await source.read(path);
  } catch (err) {
    return { ok: false, skipped: skipFor(path, err) };
  }
  if (mayMatch && !hasUtf16Bom(bytes)) {
    if (hasNulByte(bytes)) return { ok: false, skipped: { path, reason: 'binary' } };
    if (!mayMatch(bytes)) return { ok: 'absent' };
  }
  const decoded = source.decode ? source.decode(bytes) : decodeBytes(bytes);
  if (decoded.binary) return { ok: false, skipped: { path, reason: 'binary' } };
  return { ok: true, text: decoded.text, encoding: decoded.encoding };
}

/**
 * Reconciling a stored listing with the folder as it is now. A repository reopens from what was
 * stored with it (each file's path, size and modification time, and what the walk left out), so
 * its tree, quick open and index answer at once; the folder is walked again in the background and
 * compared here, stamp by stamp, the way the index refresh compares its own table (rank/service.ts):
 * a file whose size or time differs changed, one only in the folder was added, one only in the
 * listing was removed.
 */

/** What a file was when it was listed: the stamps every refresh compares. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The files a listing holds, as [path, size, mtimeMs]. */
export type ListedFile = readonly [path: string, size: number, mtimeMs: number];

/** A skipped entry as the listing keeps it: its path and why. */
export interface ListedSkip {
  path: string;
  reason: string;
  directory?: boolean;
}

export interface ListingDiff {
  /** In both, with another size or time. */
  changed: string[];
  /** In the folder only. */
  added: string[];
  /** In the listing only. */
  removed: string[];
  /** The skipped entries (binary, too large, ignored directories...) differ. */
  skippedChanged: boolean;
}

/** Compare what was listed with what the folder holds now. Each list comes out sorted. */
export function diffListings(
  before: { files: readonly ListedFile[]; skipped: readonly ListedSkip[] },
  after: { files: readonly ListedFile[]; skipped: readonly ListedSkip[] },
): ListingDiff {
  const old = new Map<string, FileStamp>();
  for (const [path, size, mtimeMs] of before.files) old.set(path, { size, mtimeMs });
  const changed: string[] = [];
  const added: string[] = [];
  const seen = new Set<string>();
  for (const [path, size, mtimeMs] of after.files) {
    seen.add(path);
    const was = old.get(path);
    if (!was) added.push(path);
    else if (was.size !== size || was.mtimeMs !== mtimeMs) changed.push(path);
  }
  const removed = [...old.keys()].filter((p) => !seen.has(p));
  const skipKey = (s: ListedSkip) => `${s.path}\0${s.reason}\0${s.directory ? 1 : 0}`;
  const skippedBefore = new Set(before.skipped.map(skipKey));
  const skippedChanged =
    before.skipped.length !== after.skipped.length ||
    after.skipped.some((s) => !skippedBefore.has(skipKey(s)));
  return { changed: changed.sort(), added: added.sort(), removed: removed.sort(), skippedChanged };
}

/** Whether the folder differs from the listing in anything the tree, search or index shows. */
export function listingChanged(diff: ListingDiff): boolean {
  return diff.changed.length > 0 || diff.added.length > 0 || diff.removed.length > 0 || diff.skippedChanged;
}

/**
 * Whether an answer that read `paths` (a search's matched files, an open file) is touched by the
 * change: one of them changed or went away. A file added anywhere touches every search (it may
 * match), so callers re-run searches on `added` and use this for what they show of given files.
 */
export function touches(diff: ListingDiff, paths: Iterable<string>): boolean {
  const hit = new Set([...diff.changed, ...diff.removed]);
  for (const p of paths) if (hit.has(p)) return true;
  return false;
}

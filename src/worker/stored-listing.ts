/**
 * A repository's stored listing: what its last complete read found (each text file's path, size
 * and modification time, and what the walk left out, with why), kept beside its index under
 * 'listing:' + key. A reopen shows the tree, quick open and the stored index from it at once
 * (ListingSource: the listing's stamps, each file's bytes read from the folder when asked), while
 * the folder is read again in the background and reconciled (core/workspace/reconcile.ts); the
 * session's source then switches to the fresh in-memory snapshot (SwitchingSource).
 */
import { QuarryError } from '../core/errors';
import type { IndexStore } from '../core/rank/persist';
import type { DirEntry, FileSource, FileStat } from '../core/source/types';
import type { ListedFile } from '../core/workspace/reconcile';
import type { Skipped } from '../core/walk/policy';
import type { RepoSpec, RepoStats } from './protocol';
import type { Snapshot } from './snapshot';

/** Bumped when the stored shape changes: another version is a miss (the folder is read as before). */
const LISTING_VERSION = 1;

export interface StoredListing {
  version: number;
  name: string;
  kind: RepoSpec['kind'];
  /** Text files, sorted by path, with the stamps their in-memory copies carry. */
  files: ListedFile[];
  /** Sorted by path. */
  skipped: Skipped[];
  bytes: number;
}

/** Where a repository's listing is stored. */
export const listingStoreKey = (key: string): string => `listing:${key}`;

/** The kinds reopened from their listing: a folder (its handle kept in Recent) and a clone. */
export function reopensFromListing(kind: RepoSpec['kind']): boolean {
  return kind === 'handle' || kind === 'git';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeListing(listing: Omit<StoredListing, 'version'>): Uint8Array {
  return encoder.encode(JSON.stringify({ ...listing, version: LISTING_VERSION }));
}

/** The listing in `bytes`, or null when it is not one this build reads. */
export function decodeListing(bytes: Uint8Array): StoredListing | null {
  try {
    const j = JSON.parse(decoder.decode(bytes)) as StoredListing;
    if (!j || j.version !== LISTING_VERSION || !Array.isArray(j.files) || !Array.isArray(j.skipped))
      return null;
    return j;
  } catch {
    return null;
  }
}

export async function loadListing(store: IndexStore | undefined, key: string): Promise<StoredListing | null> {
  if (!store) return null;
  const bytes = await store.load(listingStoreKey(key)).catch(() => null);
  return bytes ? decodeListing(bytes) : null;
}

/** Save quietly: a listing that cannot be stored only means the next reopen reads the folder first. */
export async function saveListing(
  store: IndexStore | undefined,
  key: string,
  listing: Omit<StoredListing, 'version'>,
): Promise<void> {
  await store?.save(listingStoreKey(key), encodeListing(listing)).catch(() => undefined);
}

/**
 * A FileSource answering list and stat from a stored listing and reading each file's bytes from
 * the folder (`raw`) when asked: the deep-linked file, a search's candidates, a file the index
 * refresh re-reads. A file the listing does not hold is not there (until the reconcile).
 */
export class ListingSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private readonly files = new Map<string, { size: number; mtimeMs: number }>();
  private readonly dirs = new Map<string, DirEntry[]>([['', []]]);

  constructor(
    files: readonly ListedFile[],
    private readonly raw: FileSource,
  ) {
    this.name = raw.name;
    this.absoluteRoot = raw.absoluteRoot;
    for (const [path, size, mtimeMs] of files) {
      this.files.set(path, { size, mtimeMs });
      const i = path.lastIndexOf('/');
      this.ensureDir(i < 0 ? '' : path.slice(0, i)).push({ name: path.slice(i + 1), kind: 'file' });
    }
  }

  private ensureDir(dir: string): DirEntry[] {
    let entries = this.dirs.get(dir);
    if (entries) return entries;
    entries = [];
    this.dirs.set(dir, entries);
    const i = dir.lastIndexOf('/');
    this.ensureDir(i < 0 ? '' : dir.slice(0, i)).push({ name: dir.slice(i + 1), kind: 'directory' });
    return entries;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const entries = this.dirs.get(dir);
    if (!entries) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    return entries;
  }

  async stat(path: string): Promise<FileStat | null> {
    const f = this.files.get(path);
    if (f) return { kind: 'file', size: f.size, mtimeMs: f.mtimeMs };
    return this.dirs.has(path) ? { kind: 'directory', size: 0, mtimeMs: 0 } : null;
  }

  async read(path: string): Promise<Uint8Array> {
    if (!this.files.has(path)) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    return this.raw.read(path);
  }
}

/**
 * The session's source: one object for its whole life (the workspace, the index service and the
 * tools hold it), answering from `target`, which the reconcile switches from the listing to the
 * fresh snapshot. The optional methods are the target's own, looked up on each use.
 */
export class SwitchingSource implements FileSource {
  constructor(public target: FileSource) {}

  get name(): string {
    return this.target.name;
  }
  get absoluteRoot(): string {
    return this.target.absoluteRoot;
  }
  list(dir: string): Promise<DirEntry[]> {
    return this.target.list(dir);
  }
  stat(path: string): Promise<FileStat | null> {
    return this.target.stat(path);
  }
  read(path: string): Promise<Uint8Array> {
    return this.target.read(path);
  }
  get statFile(): FileSource['statFile'] {
    return this.target.statFile?.bind(this.target);
  }
  get readTransient(): FileSource['readTransient'] {
    return this.target.readTransient?.bind(this.target);
  }
  get readRanges(): FileSource['readRanges'] {
    return this.target.readRanges?.bind(this.target);
  }
  get readChunks(): FileSource['readChunks'] {
    return this.target.readChunks?.bind(this.target);
  }
  get forgetChecks(): FileSource['forgetChecks'] {
    return this.target.forgetChecks?.bind(this.target);
  }
  get decode(): FileSource['decode'] {
    return this.target.decode?.bind(this.target);
  }
  get decodeUtf8(): FileSource['decodeUtf8'] {
    return this.target.decodeUtf8?.bind(this.target);
  }
}

/** A snapshot's text files with the stamps its in-memory copies carry. */
export function snapshotFiles(snap: Snapshot): ListedFile[] {
  return snap.textFiles.map((path) => {
    const stamp = snap.stamps.get(path);
    return [path, stamp?.size ?? 0, stamp?.mtimeMs ?? 0];
  });
}

/** A root's figures as its listing gives them (marked fromListing: the folder is still to be read). */
export function listingStats(
  listing: StoredListing,
  name: string,
  key: string,
  elapsedMs: number,
): RepoStats {
  const skippedByReason: Record<string, number> = {};
  for (const s of listing.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return {
    elapsedMs,
    ending: 'complete',
    name,
    kind: listing.kind,
    files: listing.files.length,
    bytes: listing.bytes,
    skippedByReason,
    key,
    root: name,
    fromListing: true,
  };
}

/**
 * The repository library: one RepoRecord per cloned repository or opened folder, in the
 * "repos" store of the "quarry-repos" IndexedDB database. A record is written only after
 * a clone has fully landed, so the library never lists a half-cloned repository.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { QuarryError } from '../../core/errors';
import type { RepoRecord } from '../../core/git/types';

export type { RepoRecord } from '../../core/git/types';

const DB_NAME = 'quarry-repos';
const STORE = 'repos';
let dbPromise: Promise<IDBPDatabase> | null = null;

function open(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, 1, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    },
  });
  return dbPromise;
}

export async function listRepos(): Promise<RepoRecord[]> {
  const all = (await (await open()).getAll(STORE)) as RepoRecord[];
  return all.sort((a, b) => b.clonedAt - a.clonedAt);
}

export async function getRepo(id: string): Promise<RepoRecord | undefined> {
  return (await (await open()).get(STORE, id)) as RepoRecord | undefined;
}

export async function requireRepo(id: string): Promise<RepoRecord> {
  const record = await getRepo(id);
  if (!record) throw new QuarryError('NotFound', `No repository with id "${id}" in the library`, { id });
  return record;
}

export async function putRepo(record: RepoRecord): Promise<void> {
  try {
    await (await open()).put(STORE, record);
  } catch (err) {
    if ((err as { name?: string }).name === 'QuotaExceededError') {
      throw new QuarryError(
        'QuotaExceeded',
        `Browser storage is full: the library entry for ${record.url} could not be saved`,
        { id: record.id },
      );
    }
    throw err;
  }
}

/** Update fields of a record, e.g. `{lastIndexedAt: Date.now()}` after an index build. */
export async function updateRepo(id: string, patch: Partial<Omit<RepoRecord, 'id'>>): Promise<RepoRecord> {
  const record = await requireRepo(id);
  const next = { ...record, ...patch, id };
  await putRepo(next);
  return next;
}

export async function removeRepoRecord(id: string): Promise<void> {
  await (await open()).delete(STORE, id);
}

/** List an opened folder in the library (source 'folder'); its files stay where they are. */
export async function registerFolder(folder: {
  id: string;
  name: string;
  fileCount: number;
  sizeBytes: number;
  branch?: string;
  commit?: string;
  lastIndexedAt?: number;
}): Promise<RepoRecord> {
  const now = Date.now();
  const existing = await getRepo(folder.id);
  const record: RepoRecord = {
    id: folder.id,
    url: folder.name,
    name: folder.name,
    branch: folder.branch ?? '',
    commit: folder.commit ?? '',
    sizeBytes: folder.sizeBytes,
    fileCount: folder.fileCount,
    clonedAt: existing?.clonedAt ?? now,
    lastFetchedAt: now,
    lastIndexedAt: folder.lastIndexedAt ?? existing?.lastIndexedAt,
    source: 'folder',
  };
  await putRepo(record);
  return record;
}

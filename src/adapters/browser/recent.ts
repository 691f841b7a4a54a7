/**
 * "Recent" folders: File System Access handles kept in IndexedDB (handles are
 * structured-cloneable and survive reloads; the browser re-asks for permission).
 */
import { openDB, type IDBPDatabase } from 'idb';

export interface RecentRepo {
  id: string;
  name: string;
  handle: FileSystemDirectoryHandle;
  openedAt: number;
}

const DB_NAME = 'quarry';
const STORE = 'recent';
/** Keep the list short: it is a launcher, not a history. */
export const MAX_RECENT = 10;

let dbPromise: Promise<IDBPDatabase> | null = null;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, 1, {
    upgrade(database) {
      if (!database.objectStoreNames.contains(STORE)) database.createObjectStore(STORE, { keyPath: 'id' });
    },
  });
  return dbPromise;
}

/** Newest first. */
export async function listRecent(): Promise<RecentRepo[]> {
  const all = (await (await db()).getAll(STORE)) as RecentRepo[];
  return all.sort((a, b) => b.openedAt - a.openedAt);
}

export async function getRecent(id: string): Promise<RecentRepo | undefined> {
  return (await (await db()).get(STORE, id)) as RecentRepo | undefined;
}

/** Store a handle; the same folder opened again (isSameEntry) keeps its id and moves to the top. */
export async function rememberRecent(
  handle: FileSystemDirectoryHandle,
  now = Date.now(),
): Promise<RecentRepo> {
  const existing = await listRecent();
  let match: RecentRepo | undefined;
  for (const r of existing) {
    if (await r.handle.isSameEntry(handle).catch(() => false)) {
      match = r;
      break;
    }
  }
  const entry: RecentRepo = { id: match?.id ?? newId(), name: handle.name, handle, openedAt: now };
  const database = await db();
  await database.put(STORE, entry);
  const stale = [entry, ...existing.filter((r) => r.id !== entry.id)].slice(MAX_RECENT);
  for (const r of stale) await database.delete(STORE, r.id);
  return entry;
}

export async function forgetRecent(id: string): Promise<void> {
  await (await db()).delete(STORE, id);
}

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID().slice(0, 8)
    : Math.random().toString(36).slice(2, 10);
}

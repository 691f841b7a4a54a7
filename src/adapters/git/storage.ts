/**
 * The one lightning-fs instance that holds every cloned repository (`/repos/<id>`), over a
 * batching IndexedDB store.
 *
 * Why a custom `db`: lightning-fs's default IdbBackend (idb-keyval) opens one IndexedDB
 * transaction per file write, and a checkout of a few thousand files then spends most of
 * its time committing transactions. DEPENDENCIES.md: "one transaction per 1,000 writes,
 * not one per write". Writes here are queued and committed together (file blobs and the
 * superblock in the same transaction, so the tree metadata never points at blobs that are
 * not stored); reads see queued writes first. A failed commit (QuotaExceededError) is kept
 * and re-thrown by the next write and by flushGitStorage(), so an operation that runs out
 * of space fails instead of silently losing files.
 */
import './env';
import LightningFS from '@isomorphic-git/lightning-fs';
import { openDB, type IDBPDatabase } from 'idb';
import { QuarryError } from '../../core/errors';

export const GIT_FS_NAME = 'quarry-git';
export const REPOS_ROOT = '/repos';

/** Queued writes are committed when this many are waiting (DEPENDENCIES.md: ~1,000 per transaction). */
const MAX_PENDING_WRITES = 1000;
/** ... or when this many bytes are waiting, so a big pack file does not sit only in memory. */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

type Key = number | string;
/** null = delete */
type PendingValue = Uint8Array | null;

/** The IDB interface lightning-fs accepts as its `db` option (see its README). */
export class BatchedFileDb {
  private db: Promise<IDBPDatabase> | null = null;
  private pending = new Map<Key, PendingValue>();
  private pendingBytes = 0;
  /** Batches handed to IndexedDB but not yet committed: reads must still see them. */
  private inflight: Map<Key, PendingValue>[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly dbName: string,
    private readonly storeName: string,
  ) {}

  private open(): Promise<IDBPDatabase> {
    const storeName = this.storeName;
    this.db ??= openDB(this.dbName, 1, {
      upgrade(db) {
        if (!db.objectStoreNames.contains(storeName)) db.createObjectStore(storeName);
      },
    });
    return this.db;
  }

  /** The error of the last failed commit (e.g. QuotaExceededError), if any. */
  get lastFailure(): unknown {
    return this.failure;
  }

  clearFailure(): void {
    this.failure = null;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.commit().catch(() => undefined);
    }, 0);
  }

  private queue(key: Key, value: PendingValue): Promise<void> | void {
    const old = this.pending.get(key);
    if (old) this.pendingBytes -= old.byteLength;
    this.pending.set(key, value);
    if (value) this.pendingBytes += value.byteLength;
    if (this.pending.size >= MAX_PENDING_WRITES || this.pendingBytes >= MAX_PENDING_BYTES)
      return this.commit();
    this.schedule();
  }

  /** Commit everything queued so far (plus an optional superblock) in one transaction. */
  private commit(superblock?: unknown): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.pendingBytes = 0;
    if (batch.size === 0 && superblock === undefined) return this.chain;
    this.inflight.push(batch);
    const run = async () => {
      try {
        const db = await this.open();
        const tx = db.transaction(this.storeName, 'readwrite');
        const store = tx.objectStore(this.storeName);
        try {
          for (const [key, value] of batch) {
            if (value === null) void store.delete(key).catch(() => undefined);
            // Store an exact-size copy: structured clone of a view clones its whole ArrayBuffer
            // (Node's Buffer pool would store 8 KiB per small file).
            else
              void store
                .put(
                  value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
                    ? value
                    : new Uint8Array(value),
                  key,
                )
                .catch(() => undefined);
          }
          if (superblock !== undefined) void store.put(superblock, '!root').catch(() => undefined);
        } catch (err) {
          // All or nothing: never leave half a batch committed.
          try {
            tx.abort();
          } catch {
            // already finished
          }
          tx.done.catch(() => undefined);
          throw err;
        }
        await tx.done;
      } catch (err) {
        this.failure ??= err;
        throw err;
      } finally {
        this.inflight = this.inflight.filter((b) => b !== batch);
      }
    };
    this.chain = this.chain.then(run, run);
    return this.chain;
  }

  private lookupQueued(key: Key): PendingValue | undefined {
    if (this.pending.has(key)) return this.pending.get(key)!;
    for (let i = this.inflight.length - 1; i >= 0; i--)
      if (this.inflight[i].has(key)) return this.inflight[i].get(key)!;
    return undefined;
  }

  // --- lightning-fs IDB interface ---

  async saveSuperblock(superblock: unknown): Promise<void> {
    // Never rejects: lightning-fs calls this from a debounced timer with no catch. The
    // failure is kept and surfaces through the next write or flushGitStorage().
    await this.commit(superblock).catch(() => undefined);
  }

  async loadSuperblock(): Promise<unknown> {
    return (await this.open()).get(this.storeName, '!root');
  }

  async readFile(inode: Key): Promise<Uint8Array | undefined> {
    const queued = this.lookupQueued(inode);
    if (queued !== undefined) {
      // A fresh view: lightning-fs assigns `toString` on what it returns, and the queued
      // object is the caller's own buffer.
      return queued === null
        ? undefined
        : new Uint8Array(queued.buffer, queued.byteOffset, queued.byteLength);
    }
    const value = await (await this.open()).get(this.storeName, inode);
    return value instanceof Uint8Array ? value : value ? new Uint8Array(value as ArrayBuffer) : undefined;
  }

  async writeFile(inode: Key, data: Uint8Array): Promise<void> {
    this.throwIfFailed();
    await this.queue(inode, data);
  }

  async unlink(inode: Key): Promise<void> {
    this.throwIfFailed();
    await this.queue(inode, null);
  }

  async wipe(): Promise<void> {
    this.pending.clear();
    this.pendingBytes = 0;
    await this.chain.catch(() => undefined);
    await (await this.open()).clear(this.storeName);
  }

  async close(): Promise<void> {
    // lightning-fs closes after 500 ms idle: commit what is queued, keep the connection.
    await this.commit().catch(() => undefined);
  }

  /** Wait until every queued write is committed; throws the first commit failure. */
  async flush(): Promise<void> {
    await this.commit().catch(() => undefined);
    this.throwIfFailed();
  }
}

export interface GitStorage {
  fs: LightningFS;
  db: BatchedFileDb;
}

let storage: GitStorage | null = null;

/** The shared lightning-fs (one instance per thread, as lightning-fs advises). */
export function gitStorage(): GitStorage {
  if (!storage) {
    const db = new BatchedFileDb(GIT_FS_NAME, `${GIT_FS_NAME}_files`);
    const fs = new LightningFS(GIT_FS_NAME, { db } as unknown as LightningFS.Options);
    storage = { fs, db };
  }
  return storage;
}

export function repoDir(id: string): string {
  return `${REPOS_ROOT}/${id}`;
}

export function isQuotaError(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'QuotaExceededError' || (err instanceof QuarryError && err.code === 'QuotaExceeded');
}

/** Persist the tree metadata and every queued blob; a full disk becomes QuotaExceeded. */
export async function flushGitStorage(what: string): Promise<void> {
  const { fs, db } = gitStorage();
  await fs.promises.flush();
  try {
    await db.flush();
  } catch (err) {
    if (isQuotaError(err)) throw quotaError(what);
    throw err;
  }
}

export function quotaError(what: string): QuarryError {
  return new QuarryError(
    'QuotaExceeded',
    `Browser storage is full: ${what} needs more space than the browser allows this site. Delete a repository from the library and try again; nothing already stored was lost.`,
    { what },
  );
}

interface StatLike {
  type: string;
  size: number;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** Delete a directory tree (files' blobs included) from lightning-fs. Missing is fine. */
export async function removeTree(path: string): Promise<void> {
  const { fs } = gitStorage();
  let stat: StatLike;
  try {
    stat = (await fs.promises.lstat(path)) as unknown as StatLike;
  } catch {
    return;
  }
  if (!stat.isDirectory()) {
    await fs.promises.unlink(path);
    return;
  }
  const names = (await fs.promises.readdir(path)) as string[];
  await Promise.all(names.map((name) => removeTree(`${path}/${name}`)));
  await fs.promises.rmdir(path);
}

/** Files in the working tree (not `.git`) and bytes stored for the whole repository dir. */
export async function measureRepo(dir: string): Promise<{ fileCount: number; sizeBytes: number }> {
  const { fs } = gitStorage();
  let fileCount = 0;
  const walk = async (path: string): Promise<void> => {
    const names = (await fs.promises.readdir(path)) as string[];
    for (const name of names) {
      if (path === dir && name === '.git') continue;
      const stat = (await fs.promises.lstat(`${path}/${name}`)) as unknown as StatLike;
      if (stat.isDirectory()) await walk(`${path}/${name}`);
      else fileCount++;
    }
  };
  await walk(dir);
  const sizeBytes = (await fs.promises.du(dir)) as number;
  return { fileCount, sizeBytes };
}

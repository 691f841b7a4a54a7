/**
 * IndexStore over IndexedDB: one record per repository key in the "indexes" store of the
 * "quarry-indexes" database. A save is one put in one transaction, so a reload in the
 * middle of indexing leaves the previous record intact (IndexedDB transactions are atomic).
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { IndexStore } from '../../core/rank/persist';

const DB_NAME = 'quarry-indexes';
const STORE = 'indexes';

export class IdbIndexStore implements IndexStore {
  private db: Promise<IDBPDatabase> | null = null;

  constructor(private readonly dbName = DB_NAME) {}

  private open(): Promise<IDBPDatabase> {
    this.db ??= openDB(this.dbName, 1, {
      upgrade(db) {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
      },
    });
    return this.db;
  }

  async load(key: string): Promise<Uint8Array | null> {
    const value = await (await this.open()).get(STORE, key);
    if (!value) return null;
    return value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
  }

  async save(key: string, data: Uint8Array): Promise<void> {
    try {
      await (await this.open()).put(STORE, data, key);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'QuotaExceededError') {
        const { QuarryError } = await import('../../core/errors');
        throw new QuarryError(
          'EngineError',
          'Browser storage is full: the index could not be saved (the previous one is kept)',
          { key },
        );
      }
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await (await this.open()).delete(STORE, key);
  }
}

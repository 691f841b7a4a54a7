/**
 * The stored index format: versioned JSON (UTF-8 bytes). A different `version` is an
 * IndexVersionMismatch and the caller quietly rebuilds (refreshMode "full").
 */
import { QuarryError } from '../errors';
import type { ChunkIndex } from './bm25';

export const INDEX_FORMAT = 'quarry-chunk-index';
export const INDEX_FORMAT_VERSION = 1;

export interface IndexStore {
  load(key: string): Promise<Uint8Array | null>;
  save(key: string, data: Uint8Array): Promise<void>;
  remove?(key: string): Promise<void>;
}

export class MemoryIndexStore implements IndexStore {
  readonly data = new Map<string, Uint8Array>();
  async load(key: string) {
    return this.data.get(key) ?? null;
  }
  async save(key: string, data: Uint8Array) {
    this.data.set(key, data);
  }
  async remove(key: string) {
    this.data.delete(key);
  }
}

export function encodeIndex(state: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ format: INDEX_FORMAT, version: INDEX_FORMAT_VERSION, state }));
}

export function decodeIndex(bytes: Uint8Array): unknown {
  let parsed: { format?: string; version?: number; state?: unknown };
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
  }
  if (parsed?.format !== INDEX_FORMAT || parsed.version !== INDEX_FORMAT_VERSION) {
    throw new QuarryError('IndexVersionMismatch', `Stored index version ${parsed?.version} != ${INDEX_FORMAT_VERSION}`, {
      found: parsed?.version ?? null,
      expected: INDEX_FORMAT_VERSION,
    });
  }
  return parsed.state;
}

export type { ChunkIndex };

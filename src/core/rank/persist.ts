/**
 * The stored index format, versioned: "QIDX", a format version, one JSON section (file
 * table, chunk metadata, term dictionary) and binary Uint32 sections (postings), so a
 * 100 MB repository's index loads without parsing millions of JSON numbers.
 * A different version (or unreadable bytes) is an IndexVersionMismatch and the caller
 * quietly rebuilds (refreshMode "full").
 *
 *   magic u32 'QIDX' | version u32 | jsonBytes u32 | json (UTF-8, padded to 4) |
 *   sectionCount u32 | per section: length u32 (elements) then the elements
 */
import { QuarryError } from '../errors';

export const INDEX_FORMAT_VERSION = 3;
const MAGIC = 0x58444951; // 'QIDX' little-endian

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

export interface StoredIndex {
  json: unknown;
  sections: Uint32Array[];
}

export function encodeIndex(stored: StoredIndex, version = INDEX_FORMAT_VERSION): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(stored.json));
  const jsonPadded = (json.length + 3) & ~3;
  let total = 12 + jsonPadded + 4;
  for (const s of stored.sections) total += 4 + s.byteLength;
  const buf = new ArrayBuffer(total);
  const view = new DataView(buf);
  const bytes = new Uint8Array(buf);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, version, true);
  view.setUint32(8, json.length, true);
  bytes.set(json, 12);
  let off = 12 + jsonPadded;
  view.setUint32(off, stored.sections.length, true);
  off += 4;
  for (const s of stored.sections) {
    view.setUint32(off, s.length, true);
    off += 4;
    new Uint32Array(buf, off, s.length).set(s);
    off += s.byteLength;
  }
  return bytes;
}

export function decodeIndex(data: Uint8Array): StoredIndex {
  const unreadable = () => new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
  if (data.byteLength < 16) throw unreadable();
  // copy to an aligned buffer (a stored Uint8Array may sit at any offset)
  const buf = data.byteOffset % 4 === 0 ? data.buffer : data.slice().buffer;
  const base = data.byteOffset % 4 === 0 ? data.byteOffset : 0;
  const view = new DataView(buf, base, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw unreadable();
  const version = view.getUint32(4, true);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new QuarryError('IndexVersionMismatch', `Stored index version ${version} != ${INDEX_FORMAT_VERSION}`, {
      found: version,
      expected: INDEX_FORMAT_VERSION,
    });
  }
  try {
    const jsonLen = view.getUint32(8, true);
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, base + 12, jsonLen)));
    let off = 12 + ((jsonLen + 3) & ~3);
    const count = view.getUint32(off, true);
    off += 4;
    const sections: Uint32Array[] = [];
    for (let i = 0; i < count; i++) {
      const len = view.getUint32(off, true);
      off += 4;
      sections.push(new Uint32Array(buf, base + off, len).slice());
      off += len * 4;
    }
    if (off !== data.byteLength) throw unreadable();
    return { json, sections };
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw unreadable();
  }
}

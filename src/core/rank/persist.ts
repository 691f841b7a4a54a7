/**
 * The stored index format, versioned: "QIDX", a format version, a checksum, one JSON section
 * (file table, chunk metadata, term dictionary) and binary Uint32 sections (postings), so a
 * 100 MB repository's index loads without parsing millions of JSON numbers.
 * A different version, a checksum that does not match or unreadable bytes is an
 * IndexVersionMismatch and the caller quietly rebuilds (refreshMode "full").
 *
 *   magic u32 'QIDX' | version u32 | checksum u32 | jsonBytes u32 | json (UTF-8, padded to 4) |
 *   sectionCount u32 | per section: length u32 (elements) then the elements
 *
 * The checksum (payloadChecksum) covers every word from jsonBytes to the end and the length:
 * zeroed runs, flipped bytes, a cut or an appended tail in a stored index make it a rebuild,
 * never a cache hit with wrong scores.
 *
 * Large arrays of records (chunk metadata, terms) go in text sections of JSON parts of about
 * 60 000 characters (jsonParts): each part is decoded and parsed alone, so loading never builds
 * one giant string (V8 puts strings over ~128 KiB in large-object space, which is slow to fill).
 */
import { QuarryError, toQuarryError } from '../errors';
import { fnv1aStep, FNV_OFFSET } from '../hash';

export const INDEX_FORMAT_VERSION = 6;
const MAGIC = 0x58444951; // 'QIDX' little-endian
/** magic, version, checksum: the words the checksum does not cover */
const HEAD = 12;

/**
 * A 32-bit hash of words: per word h = (h ^ w) * 0x01000193 (FNV-1a's prime, word-wise), then the
 * word count and a final mix. Each step is a bijection of h for a fixed word, so two streams
 * that differ in exactly one word always hash differently (a flipped byte is always caught);
 * other damage (a zeroed run, a cut) collides with probability about 2^-32.
 * Two interleaved lanes keep the multiplies independent (about 1 ms per 4 MB).
 */
export function payloadChecksum(words: Uint32Array): number {
  let a = FNV_OFFSET;
  let b = 0x2545f491;
  const n = words.length;
  const even = n & ~1;
  for (let i = 0; i < even; i += 2) {
    a = fnv1aStep(a, words[i]);
    b = fnv1aStep(b, words[i + 1]);
  }
  if (n & 1) a = fnv1aStep(a, words[n - 1]);
  let h = Math.imul(a ^ (b >>> 15) ^ (b << 17), 0x85ebca6b) ^ n;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface IndexStore {
  load(key: string): Promise<Uint8Array | null>;
  save(key: string, data: Uint8Array): Promise<void>;
  remove?(key: string): Promise<void>;
}

/**
 * A store whose failed save is handed to `onError` instead of failing the build: the index then
 * lives in memory for the session (storage full, a read-only cache directory). A failed load is
 * already a cache miss for both index services.
 */
export function forgivingStore(store: IndexStore, onError: (message: string) => void): IndexStore {
  return {
    load: (key) => store.load(key),
    save: async (key, data) => {
      try {
        await store.save(key, data);
      } catch (err) {
        onError(toQuarryError(err).message);
      }
    },
    remove: (key) => store.remove?.(key) ?? Promise.resolve(),
  };
}

/**
 * A store that answers a miss for one of `shipped`'s keys with the bytes the app ships for it (the
 * demo's index, built with the app). Saves and removals go to `store` alone, so an index built
 * or refreshed here replaces the shipped one from then on. A stored copy that cannot be read (an
 * older format version, damaged bytes) or a store that cannot be opened is a miss too, so the
 * shipped copy answers rather than a full build. A shipped copy that cannot be had (offline and
 * not cached, a failed fetch) is a miss like any other: the caller builds.
 */
export function withShippedIndexes(
  store: IndexStore,
  shipped: Readonly<Record<string, () => Promise<Uint8Array | null>>>,
): IndexStore {
  return {
    load: async (key) => {
      if (!Object.hasOwn(shipped, key)) return store.load(key);
      const stored = await store.load(key).catch(() => null);
      if (stored && readable(stored)) return stored;
      return shipped[key]().catch(() => null);
    },
    save: (key, data) => store.save(key, data),
    remove: (key) => store.remove?.(key) ?? Promise.resolve(),
  };
}

/** Whether `data` decodes as a stored index of this format version with a matching checksum. */
function readable(data: Uint8Array): boolean {
  try {
    decodeIndex(data);
    return true;
  } catch {
    return false;
  }
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
  let total = HEAD + 4 + jsonPadded + 4;
  for (const s of stored.sections) total += 4 + s.byteLength;
  const buf = new ArrayBuffer(total);
  const view = new DataView(buf);
  const bytes = new Uint8Array(buf);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, version, true);
  view.setUint32(HEAD, json.length, true);
  bytes.set(json, HEAD + 4);
  let off = HEAD + 4 + jsonPadded;
  view.setUint32(off, stored.sections.length, true);
  off += 4;
  for (const s of stored.sections) {
    view.setUint32(off, s.length, true);
    off += 4;
    new Uint32Array(buf, off, s.length).set(s);
    off += s.byteLength;
  }
  view.setUint32(8, payloadChecksum(new Uint32Array(buf, HEAD)), true);
  return bytes;
}

/** The stored sections are views into `data`'s buffer (no copy): copy what is kept for long. */
export function decodeIndex(data: Uint8Array): StoredIndex {
  const unreadable = () => new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
  if (data.byteLength < HEAD + 8 || data.byteLength % 4 !== 0) throw unreadable();
  // copy to an aligned buffer (a stored Uint8Array may sit at any offset)
  const buf = data.byteOffset % 4 === 0 ? data.buffer : data.slice().buffer;
  const base = data.byteOffset % 4 === 0 ? data.byteOffset : 0;
  const view = new DataView(buf, base, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw unreadable();
  const version = view.getUint32(4, true);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new QuarryError(
      'IndexVersionMismatch',
      `Stored index version ${version} != ${INDEX_FORMAT_VERSION}`,
      {
        found: version,
        expected: INDEX_FORMAT_VERSION,
      },
    );
  }
  if (
    view.getUint32(8, true) !==
    payloadChecksum(new Uint32Array(buf, base + HEAD, (data.byteLength - HEAD) / 4))
  )
    throw unreadable();
  try {
    const jsonLen = view.getUint32(HEAD, true);
    if (HEAD + 4 + jsonLen > data.byteLength) throw unreadable();
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, base + HEAD + 4, jsonLen)));
    let off = HEAD + 4 + ((jsonLen + 3) & ~3);
    const count = view.getUint32(off, true);
    off += 4;
    const sections: Uint32Array[] = [];
    for (let i = 0; i < count; i++) {
      const len = view.getUint32(off, true);
      off += 4;
      if (off + len * 4 > data.byteLength) throw unreadable();
      sections.push(new Uint32Array(buf, base + off, len));
      off += len * 4;
    }
    if (off !== data.byteLength) throw unreadable();
    return { json, sections };
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw unreadable();
  }
}

/** Text as a section: its UTF-8 byte length, then the bytes packed into the words. */
export function textSection(text: string): Uint32Array {
  const bytes = new TextEncoder().encode(text);
  const words = new Uint32Array(1 + Math.ceil(bytes.length / 4));
  words[0] = bytes.length;
  new Uint8Array(words.buffer, 4, bytes.length).set(bytes);
  return words;
}

export function sectionText(section: Uint32Array): string {
  const len = section[0];
  if (len > (section.length - 1) * 4)
    throw new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
  return new TextDecoder().decode(new Uint8Array(section.buffer, section.byteOffset + 4, len));
}

/** An array as JSON text sections of about maxChars characters each (see the format note). */
export function jsonParts(items: readonly unknown[], maxChars = 60_000): Uint32Array[] {
  const out: Uint32Array[] = [];
  let group: string[] = [];
  let chars = 0;
  const flush = () => {
    out.push(textSection('[' + group.join(',') + ']'));
    group = [];
    chars = 0;
  };
  for (const item of items) {
    const j = JSON.stringify(item);
    if (chars && chars + j.length > maxChars) flush();
    group.push(j);
    chars += j.length + 1;
  }
  if (group.length) flush();
  return out;
}

export function fromJsonParts<T>(sections: readonly Uint32Array[]): T[] {
  const out: T[] = [];
  for (const s of sections) {
    let part: unknown;
    try {
      part = JSON.parse(sectionText(s));
    } catch {
      part = null;
    }
    if (!Array.isArray(part))
      throw new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
    for (const item of part) out.push(item as T);
  }
  return out;
}

/** Uint16 values packed two to a word (the first in the low half on little-endian machines). */
export function packU16(values: ArrayLike<number>): Uint32Array {
  const words = new Uint32Array(Math.ceil(values.length / 2));
  new Uint16Array(words.buffer, 0, values.length).set(values);
  return words;
}

export function unpackU16(words: Uint32Array, count: number): Uint16Array {
  if (count > words.length * 2)
    throw new QuarryError('IndexVersionMismatch', 'The stored index is not readable', {});
  return new Uint16Array(words.buffer, words.byteOffset, count);
}

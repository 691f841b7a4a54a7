/**
 * Decoding git objects from untrusted bytes: loose objects (zlib of `type size\0` + data),
 * pack entry headers, packed entries inflated to their declared size, and git's delta format.
 * Every size read from the data is checked against a maximum object size before anything is
 * allocated for it, and inflated output past the declared size is refused, so a damaged or
 * hostile repository fails with an `Unreadable` error instead of exhausting memory.
 */
import { Unzlib, unzlibSync } from 'fflate';
import { QuarryError } from '../../core/errors';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export interface GitObject {
  type: ObjectType;
  bytes: Uint8Array;
}

/** The largest object the store inflates (a declared size above it is refused before allocating). */
export const MAX_OBJECT_BYTES = 512 * 1024 * 1024;
/** Deflate's best ratio is about 1032:1: a loose file this many times smaller than the limit cannot inflate past it. */
const MAX_DEFLATE_RATIO = 1032;
/** Compressed bytes pushed at a time when a large loose object is inflated as a stream. */
const STREAM_CHUNK = 64 * 1024;
/** `commit 1234\0`: a loose header longer than this is not one. */
const MAX_LOOSE_HEADER = 64;

export const corrupt = (what: string, detail: string) =>
  new QuarryError('Unreadable', `The git object store is damaged: ${what} ${detail}`, { what });
export const corruptPack = (path: string, detail: string) =>
  new QuarryError('Unreadable', `The git object store is damaged: corrupt pack ${path}: ${detail}`, {
    what: path,
    reason: 'unreadable',
  });

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

export function tooLarge(what: string, size: number, max: number): QuarryError {
  return new QuarryError(
    'Unreadable',
    `The git object store is damaged or the object is too large: ${what} declares ${size} bytes, over the ${mib(max)} limit`,
    {
      what,
      reason: 'tooLarge',
      size,
    },
  );
}

/** A pack entry's header: type code, declared (inflated or delta) size, where its data starts. */
export function entryHeader(
  data: Uint8Array,
  offset: number,
  path: string,
  max: number,
): { code: number; size: number; p: number } {
  let p = offset;
  let byte = data[p++];
  const code = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  while (byte & 0x80) {
    if (p >= data.length || shift > 53)
      throw corruptPack(path, `the entry header at offset ${offset} does not end`);
    byte = data[p++];
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (size > max) throw tooLarge(`the entry at offset ${offset} of ${path}`, size, max);
  return { code, size, p };
}

/** An OFS_DELTA's negative offset (git's varint with the +1 per continuation byte). */
export function ofsBack(
  data: Uint8Array,
  p: number,
  path: string,
  offset: number,
): { back: number; p: number } {
  let byte = data[p++];
  let back = byte & 0x7f;
  while (byte & 0x80) {
    if (p >= data.length || back > Number.MAX_SAFE_INTEGER / 256)
      throw corruptPack(path, `the delta base offset at ${offset} does not end`);
    byte = data[p++];
    back = (back + 1) * 128 + (byte & 0x7f);
  }
  if (back === 0 || back > offset)
    throw corruptPack(
      path,
      `the delta at offset ${offset} names a base ${back} bytes back, which is not an earlier entry`,
    );
  return { back, p };
}

/** A packed entry's zlib data inflated to exactly its declared size (more or less is damage). */
export function inflateEntry(data: Uint8Array, size: number, where: string, offset: number): Uint8Array {
  let out: Uint8Array;
  try {
    // One byte of room past the declared size: output that reaches it is longer than declared
    // (fflate drops what does not fit a given buffer, so it could not be seen otherwise).
    out = unzlibSync(data, { out: new Uint8Array(size + 1) });
  } catch (err) {
    throw corrupt(where, `does not inflate at offset ${offset}: ${(err as Error).message}`);
  }
  if (out.length > size) throw corrupt(where, `inflates past its declared ${size} bytes at offset ${offset}`);
  if (out.length !== size)
    throw corrupt(where, `inflates to ${out.length} bytes at offset ${offset}, not ${size}`);
  return out;
}

function parseLooseHeader(
  raw: Uint8Array,
  oid: string,
  max: number,
): { type: ObjectType; size: number; start: number } | null {
  const nul = raw.indexOf(0);
  if (nul < 0) {
    if (raw.length > MAX_LOOSE_HEADER) throw corrupt(`loose object ${oid}`, 'has no header');
    return null; // not all of it yet
  }
  const header = new TextDecoder().decode(raw.subarray(0, nul));
  const m = /^(commit|tree|blob|tag) (\d{1,16})$/.exec(header);
  if (!m) throw corrupt(`loose object ${oid}`, `has a bad header "${header.slice(0, 40)}"`);
  const size = Number(m[2]);
  if (size > max) throw tooLarge(`loose object ${oid}`, size, max);
  return { type: m[1] as ObjectType, size, start: nul + 1 };
}

/**
 * A loose object file's type and declared size, inflating no more than needed to see the
 * header (chunks are pushed as not final: a stream cut short after the header still says it).
 */
export function looseHeader(
  oid: string,
  file: Uint8Array,
  max = MAX_OBJECT_BYTES,
): { type: ObjectType; size: number } {
  let head = new Uint8Array(0);
  let found: { type: ObjectType; size: number } | null = null;
  const z = new Unzlib((chunk) => {
    if (found) return;
    const joined = new Uint8Array(head.length + chunk.length);
    joined.set(head);
    joined.set(chunk, head.length);
    head = joined.subarray(0, MAX_LOOSE_HEADER + 1);
    found = parseLooseHeader(head, oid, max);
  });
  try {
    for (let i = 0; i < file.length && !found; i += 1024) z.push(file.subarray(i, i + 1024));
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw corrupt(`loose object ${oid}`, `does not inflate: ${(err as Error).message}`);
  }
  if (!found) throw corrupt(`loose object ${oid}`, 'has no header');
  return found;
}

/** A loose object file: inflated, its header checked, never past `max` bytes. */
export function parseLoose(oid: string, file: Uint8Array, max = MAX_OBJECT_BYTES): GitObject {
  const where = `loose object ${oid}`;
  try {
    if (file.length * MAX_DEFLATE_RATIO <= max) {
      // small enough that its inflated size is bounded by the limit: one call
      const raw = inflateSmall(file);
      const h = parseLooseHeader(raw, oid, max);
      if (!h || h.size !== raw.length - h.start)
        throw corrupt(where, `has a bad header "${new TextDecoder().decode(raw.subarray(0, 40))}"`);
      return { type: h.type, bytes: raw.subarray(h.start) };
    }
    return inflateLooseStream(oid, file, max);
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw corrupt(where, `does not inflate: ${(err as Error).message}`);
  }
}

/**
 * zlib data of unknown inflated size. Inflated into a buffer a few times its size first (fflate
 * left to size its own output allocates 128 KiB or more per call: most of the cost of reading a
 * small loose object); data that does not fit is inflated again the plain way.
 */
function inflateSmall(file: Uint8Array): Uint8Array {
  const room = file.length * 4 + 256;
  try {
    const out = unzlibSync(file, { out: new Uint8Array(room + 1) });
    if (out.length <= room) return out;
  } catch {
    // did not fit (a stored block past the end) or is damaged: the plain call says which
  }
  return unzlibSync(file);
}

/** A large loose file, inflated chunk by chunk into a buffer of its declared size. */
function inflateLooseStream(oid: string, file: Uint8Array, max: number): GitObject {
  const where = `loose object ${oid}`;
  let head = new Uint8Array(0);
  let h: { type: ObjectType; size: number; start: number } | null = null;
  let out = new Uint8Array(0);
  let o = 0;
  const put = (chunk: Uint8Array) => {
    if (o + chunk.length > out.length) throw corrupt(where, `inflates past its declared ${out.length} bytes`);
    out.set(chunk, o);
    o += chunk.length;
  };
  const z = new Unzlib((chunk) => {
    if (h) return put(chunk);
    const joined = new Uint8Array(head.length + chunk.length);
    joined.set(head);
    joined.set(chunk, head.length);
    head = joined;
    h = parseLooseHeader(head, oid, max);
    if (!h) return;
    out = new Uint8Array(h.size);
    put(head.subarray(h.start));
  });
  for (let i = 0; i < file.length; i += STREAM_CHUNK)
    z.push(file.subarray(i, i + STREAM_CHUNK), i + STREAM_CHUNK >= file.length);
  const got = h as { type: ObjectType; size: number } | null;
  if (!got) throw corrupt(where, 'has no header');
  if (o !== got.size) throw corrupt(where, `inflates to ${o} bytes, not the ${got.size} its header declares`);
  return { type: got.type, bytes: out };
}

/** git's delta format: two varint sizes, then copy (from the base) and insert instructions. */
export function applyDelta(
  base: Uint8Array,
  delta: Uint8Array,
  where = 'a delta',
  max = MAX_OBJECT_BYTES,
): Uint8Array {
  let p = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    let b: number;
    do {
      b = delta[p++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80 && p < delta.length);
    return v;
  };
  const baseSize = varint();
  if (baseSize !== base.length)
    throw corrupt(where, `has a delta for a ${baseSize}-byte base applied to ${base.length} bytes`);
  const size = varint();
  if (size > max) throw tooLarge(`a delta in ${where}`, size, max);
  const out = new Uint8Array(size);
  let o = 0;
  while (p < delta.length) {
    const op = delta[p++];
    if (op & 0x80) {
      let argBytes = 0;
      for (let bit = 1; bit < 0x80; bit <<= 1) if (op & bit) argBytes++;
      if (p + argBytes > delta.length) throw corrupt(where, 'has a copy instruction cut short');
      let off = 0;
      let len = 0;
      if (op & 1) off |= delta[p++];
      if (op & 2) off |= delta[p++] << 8;
      if (op & 4) off |= delta[p++] << 16;
      if (op & 8) off += delta[p++] * 2 ** 24;
      if (op & 16) len |= delta[p++];
      if (op & 32) len |= delta[p++] << 8;
      if (op & 64) len |= delta[p++] << 16;
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > out.length) throw corrupt(where, 'copies outside its base');
      out.set(base.subarray(off, off + len), o);
      o += len;
    } else if (op > 0) {
      if (o + op > out.length || p + op > delta.length) throw corrupt(where, 'inserts past its end');
      out.set(delta.subarray(p, p + op), o);
      o += op;
      p += op;
    } else {
      throw corrupt(where, 'has a zero delta instruction');
    }
  }
  if (o !== out.length) throw corrupt(where, `builds ${o} bytes, not ${out.length}`);
  return out;
}

/**
 * Test helpers for damaged and hostile object stores built in memory: a pack (v2) and its
 * index from a list of entries whose headers, delta bases and sizes can lie; loose object
 * files; git's delta format; and a tiny in-memory fs that counts what is read.
 */
import { zlibSync } from 'fflate';
import type { GitFs } from './objects';

const CODE = { commit: 1, tree: 2, blob: 3, tag: 4, ofs: 6, ref: 7 } as const;

export interface PackEntry {
  /** The id the index gives it (the store never hashes: any 40 hex digits). */
  oid: string;
  type: keyof typeof CODE;
  /** The entry's data (for a delta, its instructions), deflated into the pack. */
  body: Uint8Array;
  /** The size the header declares (default: body's length). */
  size?: number;
  /** OFS_DELTA: the earlier entry (by index) that is the base, or a raw distance back. */
  base?: number;
  back?: number;
  /** REF_DELTA: the base's id. */
  baseOid?: string;
}

const te = new TextEncoder();
export const bytes = (s: string) => te.encode(s);
export const oidOf = (n: number) => n.toString(16).padStart(40, '0');

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Little-endian 7-bit groups (delta headers). */
export function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function entryHeader(code: number, size: number): number[] {
  let first = (code << 4) | (size % 16);
  let rest = Math.floor(size / 16);
  const out: number[] = [];
  if (rest > 0) first |= 0x80;
  out.push(first);
  while (rest > 0) {
    let b = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) b |= 0x80;
    out.push(b);
  }
  return out;
}

/** git's OFS_DELTA offset encoding (big-endian groups, +1 per continuation). */
function ofsVarint(back: number): number[] {
  const out = [back & 127];
  while ((back = Math.floor(back / 128))) {
    back--;
    out.unshift(128 | (back & 127));
  }
  return out;
}

/** A delta from a `baseSize`-byte base that builds `result` by inserting it; `resultSize` is what its header declares. */
export function insertDelta(baseSize: number, result: Uint8Array, resultSize = result.length): Uint8Array {
  const ops: number[] = [];
  for (let i = 0; i < result.length; i += 127) {
    const chunk = result.subarray(i, i + 127);
    ops.push(chunk.length, ...chunk);
  }
  return new Uint8Array([...varint(baseSize), ...varint(resultSize), ...ops]);
}

export function buildPack(entries: PackEntry[]): { pack: Uint8Array; idx: Uint8Array; offsets: number[] } {
  const parts: Uint8Array[] = [bytes('PACK'), new Uint8Array([0, 0, 0, 2, 0, 0, 0, 0])];
  new DataView(parts[1].buffer).setUint32(4, entries.length);
  let offset = 12;
  const offsets: number[] = [];
  for (const e of entries) {
    offsets.push(offset);
    const head = entryHeader(CODE[e.type], e.size ?? e.body.length);
    if (e.type === 'ofs') head.push(...ofsVarint(e.back ?? offset - offsets[e.base!]));
    if (e.type === 'ref') head.push(...hex(e.baseOid!));
    const part = concat([new Uint8Array(head), zlibSync(e.body)]);
    parts.push(part);
    offset += part.length;
  }
  parts.push(new Uint8Array(20)); // the checksum (not checked)
  return {
    pack: concat(parts),
    idx: buildIdx(entries.map((e, i) => ({ oid: e.oid, offset: offsets[i] }))),
    offsets,
  };
}

function hex(oid: string): number[] {
  return Array.from({ length: 20 }, (_, i) => parseInt(oid.slice(i * 2, i * 2 + 2), 16));
}

function buildIdx(items: Array<{ oid: string; offset: number }>): Uint8Array {
  const sorted = [...items].sort((a, b) => (a.oid < b.oid ? -1 : 1));
  const n = sorted.length;
  const out = new Uint8Array(8 + 1024 + n * 28 + 40);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xff744f63);
  view.setUint32(4, 2);
  for (let b = 0; b < 256; b++)
    view.setUint32(8 + b * 4, sorted.filter((s) => parseInt(s.oid.slice(0, 2), 16) <= b).length);
  sorted.forEach((s, i) => {
    out.set(hex(s.oid), 8 + 1024 + i * 20);
    view.setUint32(8 + 1024 + n * 24 + i * 4, s.offset);
  });
  return out;
}

/** A loose object file; `declared` overrides the size its header states. */
export function looseFile(type: string, content: Uint8Array, declared = content.length): Uint8Array {
  return zlibSync(concat([bytes(`${type} ${declared}\0`), content]));
}

export interface MemoryFs extends GitFs {
  files: Map<string, Uint8Array>;
  /** Paths read with readFile (hits and misses) and listed with readdir, in order. */
  reads: string[];
  listings: string[];
}

/** An in-memory fs of absolute paths -> bytes (directories are implied by the paths). */
export function memoryFs(files: Record<string, Uint8Array> = {}): MemoryFs {
  const map = new Map(Object.entries(files));
  const reads: string[] = [];
  const listings: string[] = [];
  const enoent = (path: string) => Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  const isDir = (path: string) => [...map.keys()].some((k) => k.startsWith(`${path}/`));
  const stat = async (path: string) => {
    const file = map.get(path);
    if (!file && !isDir(path)) throw enoent(path);
    return {
      size: file?.length ?? 0,
      mtimeMs: 0,
      isFile: () => !!file,
      isDirectory: () => !file,
      isSymbolicLink: () => false,
    };
  };
  return {
    files: map,
    reads,
    listings,
    promises: {
      async readFile(path: string) {
        reads.push(path);
        const file = map.get(path);
        if (!file) throw enoent(path);
        return file;
      },
      async readdir(path: string) {
        listings.push(path);
        if (!isDir(path)) throw enoent(path);
        const names = new Set<string>();
        for (const k of map.keys())
          if (k.startsWith(`${path}/`)) names.add(k.slice(path.length + 1).split('/')[0]);
        return [...names];
      },
      stat,
      lstat: stat,
    },
  };
}

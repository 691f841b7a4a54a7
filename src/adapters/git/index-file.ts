/**
 * git's index file (`.git/index`, "DIRC", versions 2 to 4): per path the staged blob and the
 * stat data git recorded when it last looked at the file. Uncommitted changes compare that
 * stat with the working tree's (as `git status` does) and hash only the files that differ.
 * Extensions are skipped; the trailing SHA-1 is checked (an all-zero trailer is git's
 * `index.skipHash`).
 */
import { QuarryError } from '../../core/errors';
import { bytesToHex, type GitFs } from './objects';

export interface IndexEntry {
  path: string;
  /** 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (submodule). */
  mode: number;
  oid: string;
  /** Size in bytes, truncated to 32 bits as git stores it. */
  size: number;
  mtimeSec: number;
  mtimeNsec: number;
  /** 0 normally; 1-3 during a merge conflict. */
  stage: number;
  /** `git update-index --skip-worktree` / `--assume-unchanged`: git does not look at the file. */
  skipWorktree: boolean;
  assumeUnchanged: boolean;
  /** `git add -N`: the path is known but nothing is staged. */
  intentToAdd: boolean;
}

export interface GitIndex {
  version: number;
  entries: IndexEntry[];
}

const unreadable = (why: string) =>
  new QuarryError('Unreadable', `The git index (.git/index) is not readable: ${why}`, { what: 'index' });

/** Parse the bytes of an index file (the checksum is verified by readIndexFile). */
export function parseIndex(data: Uint8Array): GitIndex {
  if (data.length < 12 + 20) throw unreadable('it is too short');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0) !== 0x44495243) throw unreadable('it does not start with DIRC');
  const version = view.getUint32(4);
  if (version < 2 || version > 4) throw unreadable(`version ${version} is not 2, 3 or 4`);
  const count = view.getUint32(8);
  const end = data.length - 20;
  const decoder = new TextDecoder();
  const entries: IndexEntry[] = [];
  let p = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < count; i++) {
    if (p + 62 > end) throw unreadable(`entry ${i + 1} of ${count} is cut short`);
    const start = p;
    const flags = view.getUint16(p + 60);
    let extended = 0;
    p += 62;
    if (flags & 0x4000) {
      if (version < 3) throw unreadable(`entry ${i + 1} has extended flags in a version ${version} index`);
      extended = view.getUint16(p);
      p += 2;
    }
    let pathBytes: Uint8Array;
    if (version === 4) {
      // the path is the previous one minus N trailing bytes, plus a NUL-terminated suffix
      // (arithmetic, not 32-bit shifts: a long varint must not wrap around to a small or negative count)
      let strip = 0;
      let b: number;
      let first = true;
      do {
        if (p >= end || strip > previous.length)
          throw unreadable(`entry ${i + 1}'s path is malformed (its prefix length does not end)`);
        b = data[p++];
        strip = first ? b & 0x7f : (strip + 1) * 128 + (b & 0x7f);
        first = false;
      } while (b & 0x80);
      const nul = data.indexOf(0, p);
      if (nul < 0 || nul > end || strip < 0 || strip > previous.length)
        throw unreadable(`entry ${i + 1}'s path is malformed`);
      const suffix = data.subarray(p, nul);
      pathBytes = new Uint8Array(previous.length - strip + suffix.length);
      pathBytes.set(previous.subarray(0, previous.length - strip));
      pathBytes.set(suffix, previous.length - strip);
      p = nul + 1;
    } else {
      const nul = data.indexOf(0, p);
      if (nul < 0 || nul > end) throw unreadable(`entry ${i + 1}'s path has no end`);
      pathBytes = data.subarray(p, nul);
      // entries are padded with 1-8 NULs to a multiple of 8 bytes
      p = start + ((nul - start + 8) & ~7);
    }
    previous = pathBytes;
    entries.push({
      path: decoder.decode(pathBytes),
      mode: view.getUint32(start + 24),
      oid: bytesToHex(data, start + 40, start + 60),
      size: view.getUint32(start + 36),
      mtimeSec: view.getUint32(start + 8),
      mtimeNsec: view.getUint32(start + 12),
      stage: (flags >> 12) & 3,
      assumeUnchanged: !!(flags & 0x8000),
      skipWorktree: !!(extended & 0x4000),
      intentToAdd: !!(extended & 0x2000),
    });
  }
  if (p > end) throw unreadable('its entries run past its end');
  return { version, entries };
}

async function sha1(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
}

/**
 * The working file cannot hold the entry's blob: its size differs from the one the index
 * recorded (git keeps the low 32 bits). No need to read it to know it changed.
 */
export function sizeDiffers(entry: IndexEntry, size: number): boolean {
  return size % 2 ** 32 !== entry.size;
}

/** A blob's object id: SHA-1 of `blob <size>\0` and the bytes (what `git hash-object` prints). */
export async function blobOid(content: Uint8Array): Promise<string> {
  const header = new TextEncoder().encode(`blob ${content.length}\0`);
  const all = new Uint8Array(header.length + content.length);
  all.set(header);
  all.set(content, header.length);
  return bytesToHex(await sha1(all));
}

/**
 * The index and its file's mtime (entries written in the same instant as the index are
 * "racily clean": their stat cannot be trusted, git hashes them). A missing index is empty.
 */
export async function readIndexFile(fs: GitFs, gitdir: string): Promise<GitIndex & { mtimeMs: number }> {
  let data: Uint8Array | string;
  try {
    data = await fs.promises.readFile(`${gitdir}/index`);
  } catch {
    return { version: 2, entries: [], mtimeMs: 0 };
  }
  if (typeof data === 'string') throw unreadable('it was read as text');
  const index = parseIndex(data);
  const trailer = data.subarray(data.length - 20);
  if (trailer.some((b) => b !== 0)) {
    const want = await sha1(data.subarray(0, data.length - 20));
    if (want.some((b, i) => b !== trailer[i])) throw unreadable('its checksum does not match');
  }
  const st = await fs.promises.stat(`${gitdir}/index`).catch(() => null);
  return { ...index, mtimeMs: st?.mtimeMs ?? 0 };
}

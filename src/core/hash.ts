/**
 * FNV-1a, 32-bit: the one hash of code units and bytes that Quarry's caches and tables share
 * (term dictionary, byte-line interner, text-cache keys, snapshot content stamps, the index
 * checksum's step). Some of these are persisted (stamps, checksums), so the bits are fixed:
 * offset basis 0x811c9dc5, prime 0x01000193, each step h = (h ^ unit) * prime mod 2^32.
 */

/** FNV-1a's 32-bit offset basis (the hash of nothing). */
export const FNV_OFFSET = 0x811c9dc5;
/** FNV-1a's 32-bit prime. */
export const FNV_PRIME = 0x01000193;

/**
 * One FNV-1a step: `(h ^ unit) * prime` in 32 bits, as a signed int32 (what Math.imul gives;
 * `>>> 0` makes it unsigned). For loops that hash units as they read them.
 */
export function fnv1aStep(h: number, unit: number): number {
  return Math.imul(h ^ unit, FNV_PRIME);
}

/**
 * FNV-1a over the UTF-16 code units of a string, or the items of a byte (or word) array, from
 * `start` to `end`, continuing from `seed` (the offset basis unless given): an unsigned 32-bit
 * number. `fnv1a(s) | 0` is the same hash as a signed int32.
 */
export function fnv1a(
  data: string | ArrayLike<number>,
  start = 0,
  end = data.length,
  seed: number = FNV_OFFSET,
): number {
  let h = seed | 0;
  if (typeof data === 'string') {
    for (let i = start; i < end; i++) h = Math.imul(h ^ data.charCodeAt(i), FNV_PRIME);
  } else {
    for (let i = start; i < end; i++) h = Math.imul(h ^ data[i], FNV_PRIME);
  }
  return h >>> 0;
}

/**
 * A WebAssembly SIMD scan for a needle's two rarest bytes (the filter of Muła's "SIMD-friendly
 * substring search"): sixteen candidate starts are tested at once, by comparing the bytes at
 * the two offsets with the needle's, and only the starts where both agree are verified by hand.
 * JavaScript's TypedArray.indexOf finds one byte at about 1 GB/s here and hands every
 * occurrence of that byte back to a loop in JavaScript; this filter passes over the bytes
 * several times faster and stops only where two of the needle's bytes sit at the right distance.
 *
 * The module is assembled below (some 330 bytes; no toolchain). Its memory holds a copy of the
 * haystack being searched (see simdFinder), so a search never reads a buffer it does not own.
 */

/** find(i, last, c0, o0, c1, o1, f0, f1): the least start s in [i, last] with (mem[s+o0] | f0) == c0 and (mem[s+o1] | f1) == c1, else -1. */
type FindFn = (
  i: number,
  last: number,
  c0: number,
  o0: number,
  c1: number,
  o1: number,
  f0: number,
  f1: number,
) => number;

const enum Op {
  Block = 0x02,
  Loop = 0x03,
  If = 0x04,
  End = 0x0b,
  Br = 0x0c,
  BrIf = 0x0d,
  Return = 0x0f,
  LocalGet = 0x20,
  LocalSet = 0x21,
  LocalTee = 0x22,
  Load8U = 0x2d,
  I32Const = 0x41,
  I32Eq = 0x46,
  I32GtS = 0x4a,
  I32GeS = 0x4e,
  I32Ctz = 0x68,
  I32Popcnt = 0x69,
  I32Add = 0x6a,
  I32Or = 0x72,
  Simd = 0xfd,
}
const enum SimdOp {
  Load = 0x00,
  Splat8 = 0x0f,
  Eq8 = 0x23,
  And = 0x4e,
  Or = 0x50,
  Bitmask8 = 0x64,
}
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;

// params: 0 i, 1 last, 2 c0, 3 o0, 4 c1, 5 o1, 6 f0, 7 f1; locals: 8-11 the splats of c0, c1, f0, f1; 12 the block's bits
const get = (n: number) => [Op.LocalGet, n];
const simd = (op: SimdOp, ...imm: number[]) => [Op.Simd, op, ...imm];
/** one side of the block test: eq(or(load(i + offset), fold), byte) */
const side = (offset: number, fold: number, byte: number) => [
  ...get(0),
  ...get(offset),
  Op.I32Add,
  ...simd(SimdOp.Load, 0, 0),
  ...get(fold),
  ...simd(SimdOp.Or),
  ...get(byte),
  ...simd(SimdOp.Eq8),
];
/** one side of the byte test: (mem[i + offset] | fold) == byte */
const byteSide = (offset: number, fold: number, byte: number) => [
  ...get(0),
  ...get(offset),
  Op.I32Add,
  Op.Load8U,
  0,
  0,
  ...get(fold),
  Op.I32Or,
  ...get(byte),
  Op.I32Eq,
];
const step = (n: number) => [...get(0), Op.I32Const, n, Op.I32Add, Op.LocalSet, 0];
/** while (!stop) { body; i += n }: `stop` leaves an i32 (non-zero: leave the loop) */
const loop = (stop: number[], body: number[], n: number) => [
  ...[Op.Block, VOID, Op.Loop, VOID],
  ...stop,
  ...[Op.BrIf, 1],
  ...body,
  ...step(n),
  ...[Op.Br, 0, Op.End, Op.End],
];
/** if (top of the stack) { body } */
const when = (body: number[]) => [Op.If, VOID, ...body, Op.End];

const BODY = [
  ...[2, 4, 6, 7].flatMap((p, k) => [...get(p), ...simd(SimdOp.Splat8), Op.LocalSet, 8 + k]),
  // blocks of 16 starts while the block's last start is <= last
  ...loop(
    [...get(0), Op.I32Const, 15, Op.I32Add, ...get(1), Op.I32GtS],
    [
      ...side(3, 10, 8),
      ...side(5, 11, 9),
      ...simd(SimdOp.And),
      ...simd(SimdOp.Bitmask8),
      ...[Op.LocalTee, 12],
      ...when([...get(0), ...get(12), Op.I32Ctz, Op.I32Add, Op.Return]),
    ],
    16,
  ),
  // the last starts one at a time
  ...loop(
    [...get(0), ...get(1), Op.I32GtS],
    [...byteSide(3, 6, 2), ...when([...byteSide(5, 7, 4), ...when([...get(0), Op.Return])])],
    1,
  ),
  ...[Op.I32Const, 0x7f], // -1
  Op.End,
];

// count(i, end, c): how many bytes of [i, end) are c. params: 0 i, 1 end, 2 c; locals: 3 the splat of c, 4 the count
const add = (value: number[]) => [...get(4), ...value, Op.I32Add, Op.LocalSet, 4];
const COUNT_BODY = [
  ...[...get(2), ...simd(SimdOp.Splat8), Op.LocalSet, 3],
  ...loop(
    [...get(0), Op.I32Const, 16, Op.I32Add, ...get(1), Op.I32GtS],
    add([
      ...get(0),
      ...simd(SimdOp.Load, 0, 0),
      ...get(3),
      ...simd(SimdOp.Eq8),
      ...simd(SimdOp.Bitmask8),
      Op.I32Popcnt,
    ]),
    16,
  ),
  ...loop([...get(0), ...get(1), Op.I32GeS], add([...get(0), Op.Load8U, 0, 0, ...get(2), Op.I32Eq]), 1),
  ...get(4),
  Op.End,
];

const utf8 = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

const FIND_CODE = [2, 4, V128, 1, I32, ...BODY];
const COUNT_CODE = [2, 1, V128, 1, I32, ...COUNT_BODY];

export const SIMD_FIND_MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [2, 0x60, 8, ...Array<number>(8).fill(I32), 1, I32, 0x60, 3, I32, I32, I32, 1, I32]),
  ...section(3, [2, 0, 1]),
  ...section(5, [1, 0x00, 1]), // one memory of at least one page, no maximum
  ...section(7, [3, ...utf8('find'), 0, 0, ...utf8('count'), 0, 1, ...utf8('mem'), 2, 0]),
  ...section(10, [2, ...uleb(FIND_CODE.length), ...FIND_CODE, ...uleb(COUNT_CODE.length), ...COUNT_CODE]),
]);

interface SimdModule {
  find: FindFn;
  count: (i: number, end: number, c: number) => number;
  memory: WebAssembly.Memory;
}

let loaded: SimdModule | null | undefined;

/** The module, compiled once per thread; null where WebAssembly or its SIMD is missing. */
export function simdModule(): SimdModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  try {
    if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(SIMD_FIND_MODULE)) return null;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(SIMD_FIND_MODULE));
    const e = instance.exports as unknown as SimdModule & { mem: WebAssembly.Memory };
    loaded = { find: e.find, count: e.count, memory: e.mem };
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * Haystacks shorter than minBytes are searched in JavaScript (a copy and a call cost more than
 * they save); so are those longer than maxBytes (the memory, which never shrinks, stays small).
 */
export const SIMD_FIND = { minBytes: 128, maxBytes: 16 * 1024 * 1024 };

/** What the module's memory holds: the bytes [from, end) of `scope`'s haystack (a view of `buffer` at `offset`), at address 0. */
let held: { scope: object; buffer: ArrayBufferLike; offset: number; from: number; end: number } | null = null;
let heap: Uint8Array = new Uint8Array(0);

/**
 * Copy hay[from, hay.length) to address 0 unless `scope`'s copy of at least those bytes is there
 * already (the haystacks of one scope are prefixes of the same bytes, which do not change while
 * the scope is in use: copied once for all of its cursors; a haystack over other memory is
 * copied afresh). Returns the haystack offset of address 0.
 */
function load(m: SimdModule, scope: object, hay: Uint8Array, from: number): number {
  if (
    held &&
    held.scope === scope &&
    held.buffer === hay.buffer &&
    held.offset === hay.byteOffset &&
    held.from <= from &&
    held.end >= hay.length
  )
    return held.from;
  const need = hay.length - from;
  if (m.memory.buffer.byteLength < need)
    m.memory.grow(Math.ceil((need - m.memory.buffer.byteLength) / 65536));
  if (heap.buffer !== m.memory.buffer) heap = new Uint8Array(m.memory.buffer);
  heap.set(hay.subarray(from), 0);
  held = { scope, buffer: hay.buffer, offset: hay.byteOffset, from, end: hay.length };
  return from;
}

/**
 * How many bytes of hay[a, b) are `byte`, counted in the module's memory when `scope`'s copy
 * holds them (a cursor of the scope searched them), else null (the caller counts them itself).
 */
export function simdCount(scope: object, a: number, b: number, byte: number): number | null {
  if (!held || held.scope !== scope || a < held.from || b > held.end || b - a < SIMD_FIND.minBytes)
    return null;
  return loaded!.count(a - held.from, b - held.from, byte);
}

/** Rough frequency rank of bytes in source code (higher = more common; 0: rarer than all of these). */
const COMMON = ' etaoinsrlcdupmhfgybw.,;()=\'"_/\n\t{}:-xvkEPTSCRAIONLD0123456789';
const RANK = new Uint8Array(256);
for (let i = 0; i < COMMON.length; i++) RANK[COMMON.charCodeAt(i)] = COMMON.length - i;

/** How common byte `b` is in source code (a lowercase letter of a caseless needle: either case's). */
export function byteRank(b: number, caseless: boolean): number {
  return caseless && b >= 97 && b <= 122 ? Math.max(RANK[b], RANK[b - 32]) : RANK[b];
}

/** The offsets of a needle's two rarest bytes (the same offset twice for a one-byte needle). */
export function rarestPair(needle: Uint8Array, caseless: boolean): [number, number] {
  const rank = (b: number) => byteRank(b, caseless);
  const order = [...needle.keys()].sort((a, b) => rank(needle[a]) - rank(needle[b]) || a - b);
  return [order[0], order[1] ?? order[0]];
}

/**
 * A cursor factory for `needle` (lowercase ASCII letters when `caseless`, matching either case)
 * on the SIMD module, or null where the module cannot run. The factory answers null for a
 * haystack outside SIMD_FIND's sizes (the caller's own search serves it).
 */
export function simdCursors(
  needle: Uint8Array,
  caseless: boolean,
): ((hay: Uint8Array, scope?: object) => ((from: number) => number) | null) | null {
  const m = simdModule();
  const n = needle.length;
  if (!m || n === 0) return null;
  const [o0, o1] = rarestPair(needle, caseless);
  const fold = (b: number) => (caseless && b >= 97 && b <= 122 ? 0x20 : 0);
  const c0 = needle[o0];
  const c1 = needle[o1];
  const f0 = fold(c0);
  const f1 = fold(c1);
  const matchesAt = (hay: Uint8Array, start: number): boolean => {
    for (let k = 0; k < n; k++) {
      const b = hay[start + k];
      if ((caseless && b >= 65 && b <= 90 ? b + 32 : b) !== needle[k]) return false;
    }
    return true;
  };
  return (hay, scope = {}) => {
    if (hay.length < SIMD_FIND.minBytes || hay.length > SIMD_FIND.maxBytes) return null;
    const last = hay.length - n;
    return (from) => {
      if (from < 0) from = 0;
      if (from > last) return -1;
      const base = load(m, scope, hay, from);
      for (let s = from; ;) {
        const i = m.find(s - base, last - base, c0, o0, c1, o1, f0, f1);
        if (i === -1) return -1;
        if (matchesAt(hay, i + base)) return i + base;
        s = i + base + 1;
      }
    };
  };
}

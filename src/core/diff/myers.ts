/**
 * Myers' O(ND) difference algorithm in linear space (divide and conquer on the middle snake),
 * after git's xdiff (xdiffi.c, xprepare.c), so Quarry's blame attributes lines the way
 * `git blame` does:
 *   - common prefix and suffix trimmed first (xdl_trim_ends);
 *   - lines with no match on the other side can never be part of a common subsequence, so
 *     they are marked changed up front and the search runs on what is left
 *     (xdl_cleanup_records); lines that match very often are dropped too when they sit
 *     among unmatched lines (git's "multimatch" rule; skipped in `minimal` mode because it
 *     can cost minimality);
 *   - past an edit cost of ~sqrt(N) per split the search takes the furthest-reaching
 *     diagonal instead of the exact middle (xdiff's mxcost and snake heuristics): near-linear
 *     time on files that differ a lot, a slightly longer edit script at worst;
 *   - a work budget (diagonal steps, `maxWork`) ends the search on pathological input: what
 *     is left is marked as replaced and the result says `approximate`.
 * The output is one change mark per line on each side (xdiff's `rchg`); compact.ts then
 * slides ambiguous groups into place and ops.ts turns the marks into an edit script.
 */

/** xdiff's constants (xdiff/xdiffi.h, xprepare.c). */
const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;
const LINE_MAX = 0x7fffffff;

/** Diagonal steps before the search gives up (about 0.1 s of work). */
export const DEFAULT_MAX_WORK = 20_000_000;

export interface MyersOptions {
  /** An exact minimal edit script: no cost heuristics, no multimatch discarding (xdiff's XDF_NEED_MINIMAL). */
  minimal?: boolean;
  /** Diagonal steps allowed in total (default DEFAULT_MAX_WORK); past it, the rest is marked replaced. */
  maxWork?: number;
}

export interface ChangeMarks {
  /** 1 where a line of A is deleted. */
  a: Uint8Array;
  /** 1 where a line of B is inserted. */
  b: Uint8Array;
  /** True when the work budget ran out and some region was marked replaced without aligning it. */
  approximate: boolean;
  /** Diagonal steps the search took (what `maxWork` bounds). */
  work: number;
}

/** xdl_bogosqrt: a power of two near sqrt(n). */
export function bogoSqrt(n: number): number {
  let i = 1;
  for (let v = n; v > 0; v = Math.floor(v / 4)) i *= 2;
  return i;
}

/** Which lines take part in the search: 0 = no match on the other side, 1 = keep, 2 = matches very often. */
function classify(
  ids: Int32Array,
  start: number,
  end: number,
  otherCounts: Int32Array,
  nrec: number,
): Uint8Array {
  const dis = new Uint8Array(ids.length);
  const mlim = Math.min(bogoSqrt(nrec), MAX_EQLIMIT);
  for (let i = start; i <= end; i++) {
    const nm = otherCounts[ids[i]] ?? 0;
    dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
  }
  return dis;
}

/** xdl_clean_mmatch: a very frequent line is dropped when it sits in a run of mostly unmatched lines. */
function cleanMultimatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    if (!dis[i - r]) rdis0++;
    else if (dis[i - r] === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    if (!dis[i + r]) rdis1++;
    else if (dis[i + r] === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

interface Reduced {
  ha: Int32Array;
  rindex: Int32Array;
  n: number;
}

function reduce(
  ids: Int32Array,
  start: number,
  end: number,
  dis: Uint8Array,
  rchg: Uint8Array,
  minimal: boolean,
): Reduced {
  const ha = new Int32Array(Math.max(0, end - start + 1));
  const rindex = new Int32Array(ha.length);
  let n = 0;
  for (let i = start; i <= end; i++) {
    if (dis[i] === 1 || (dis[i] === 2 && (minimal || !cleanMultimatch(dis, i, start, end)))) {
      rindex[n] = i;
      ha[n] = ids[i];
      n++;
    } else rchg[i] = 1;
  }
  return { ha, rindex, n };
}

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface Env {
  mxcost: number;
  work: number;
  maxWork: number;
}

/** The part of the diff split() searches, and its diagonals' furthest reach forward (kvdf) and backward (kvdb). */
interface Box {
  ha1: Int32Array;
  off1: number;
  lim1: number;
  ha2: Int32Array;
  off2: number;
  lim2: number;
  kvdf: Int32Array;
  kvdb: Int32Array;
  k: number;
}

/** xdiff's snake heuristic: a long enough snake far from the corner is a split point (false: none). */
function snakeSplit(
  { ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, k }: Box,
  fmin: number,
  fmax: number,
  fmid: number,
  bmin: number,
  bmax: number,
  bmid: number,
  ec: number,
  spl: Split,
): boolean {
  let best = 0;
  for (let d = fmax; d >= fmin; d -= 2) {
    const dd = d > fmid ? d - fmid : fmid - d;
    const i1 = kvdf[k + d];
    const i2 = i1 - d;
    const v = i1 - off1 + (i2 - off2) - dd;
    if (
      v > K_HEUR * ec &&
      v > best &&
      off1 + SNAKE_CNT <= i1 &&
      i1 < lim1 &&
      off2 + SNAKE_CNT <= i2 &&
      i2 < lim2
    ) {
      for (let j = 1; ha1[i1 - j] === ha2[i2 - j]; j++) {
        if (j === SNAKE_CNT) {
          best = v;
          spl.i1 = i1;
          spl.i2 = i2;
          break;
        }
      }
    }
  }
  if (best > 0) {
    spl.minLo = true;
    spl.minHi = false;
    return true;
  }
  for (let d = bmax; d >= bmin; d -= 2) {
    const dd = d > bmid ? d - bmid : bmid - d;
    const i1 = kvdb[k + d];
    const i2 = i1 - d;
    const v = lim1 - i1 + (lim2 - i2) - dd;
    if (
      v > K_HEUR * ec &&
      v > best &&
      off1 < i1 &&
      i1 <= lim1 - SNAKE_CNT &&
      off2 < i2 &&
      i2 <= lim2 - SNAKE_CNT
    ) {
      for (let j = 0; ha1[i1 + j] === ha2[i2 + j]; j++) {
        if (j === SNAKE_CNT - 1) {
          best = v;
          spl.i1 = i1;
          spl.i2 = i2;
          break;
        }
      }
    }
  }
  if (best > 0) {
    spl.minLo = false;
    spl.minHi = true;
    return true;
  }
  return false;
}

/** The cost limit reached: split at the furthest-reaching path by the (i1 + i2) measure. */
function furthestSplit(
  { off1, lim1, off2, lim2, kvdf, kvdb, k }: Box,
  fmin: number,
  fmax: number,
  bmin: number,
  bmax: number,
  spl: Split,
): void {
  let fbest = -1;
  let fbest1 = -1;
  for (let d = fmax; d >= fmin; d -= 2) {
    let i1 = Math.min(kvdf[k + d], lim1);
    let i2 = i1 - d;
    if (lim2 < i2) {
      i1 = lim2 + d;
      i2 = lim2;
    }
    if (fbest < i1 + i2) {
      fbest = i1 + i2;
      fbest1 = i1;
    }
  }
  let bbest = LINE_MAX;
  let bbest1 = LINE_MAX;
  for (let d = bmax; d >= bmin; d -= 2) {
    let i1 = Math.max(off1, kvdb[k + d]);
    let i2 = i1 - d;
    if (i2 < off2) {
      i1 = off2 + d;
      i2 = off2;
    }
    if (i1 + i2 < bbest) {
      bbest = i1 + i2;
      bbest1 = i1;
    }
  }
  if (lim1 + lim2 - bbest < fbest - (off1 + off2)) {
    spl.i1 = fbest1;
    spl.i2 = fbest - fbest1;
    spl.minLo = true;
    spl.minHi = false;
  } else {
    spl.i1 = bbest1;
    spl.i2 = bbest - bbest1;
    spl.minLo = false;
    spl.minHi = true;
  }
}

/** xdl_split: the middle snake of [off1, lim1) x [off2, lim2), or a heuristic split point. */
function split(
  ha1: Int32Array,
  off1: number,
  lim1: number,
  ha2: Int32Array,
  off2: number,
  lim2: number,
  kvdf: Int32Array,
  kvdb: Int32Array,
  k: number,
  needMin: boolean,
  env: Env,
  spl: Split,
): boolean {
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[k + fmid] = off1;
  kvdb[k + bmid] = lim1;
  const box: Box = { ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, k };
  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[k + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[k + ++fmax + 1] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kvdf[k + d - 1] >= kvdf[k + d + 1] ? kvdf[k + d - 1] + 1 : kvdf[k + d + 1];
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]) {
        i1++;
        i2++;
      }
      env.work += 1 + i1 - prev1;
      if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
      kvdf[k + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[k + d] <= i1) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLo = spl.minHi = true;
        return true;
      }
    }
    if (bmin > dmin) kvdb[k + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[k + ++bmax + 1] = LINE_MAX;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kvdb[k + d - 1] < kvdb[k + d + 1] ? kvdb[k + d - 1] : kvdb[k + d + 1] - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]) {
        i1--;
        i2--;
      }
      env.work += 1 + prev1 - i1;
      if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
      kvdb[k + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[k + d]) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLo = spl.minHi = true;
        return true;
      }
    }
    if (env.work > env.maxWork) return false;
    if (needMin) continue;

    // A good snake far from the corner after a high cost: split there (xdiff's snake heuristic).
    if (gotSnake && ec > HEUR_MIN_COST && snakeSplit(box, fmin, fmax, fmid, bmin, bmax, bmid, ec, spl))
      return true;

    // Enough: take the furthest-reaching path by the (i1 + i2) measure.
    if (ec >= env.mxcost) {
      furthestSplit(box, fmin, fmax, bmin, bmax, spl);
      return true;
    }
  }
}

/** xdl_recs_cmp, with an explicit stack (no deep recursion on long inputs). */
function compare(
  r1: Reduced,
  r2: Reduced,
  rchg1: Uint8Array,
  rchg2: Uint8Array,
  minimal: boolean,
  env: Env,
): boolean {
  const ha1 = r1.ha;
  const ha2 = r2.ha;
  const size = r1.n + r2.n + 3;
  const kvdf = new Int32Array(size);
  const kvdb = new Int32Array(size);
  const k = r2.n + 1;
  const spl: Split = { i1: 0, i2: 0, minLo: false, minHi: false };
  let approximate = false;
  // Entries of five numbers: off1, lim1, off2, lim2, needMin. The high half is pushed first so
  // the low half is done first, as xdiff's recursion does (the marks do not depend on the order).
  const stack: number[] = [0, r1.n, 0, r2.n, minimal ? 1 : 0];
  while (stack.length) {
    const needMin = stack.pop() === 1;
    let lim2 = stack.pop()!;
    let off2 = stack.pop()!;
    let lim1 = stack.pop()!;
    let off1 = stack.pop()!;
    while (off1 < lim1 && off2 < lim2 && ha1[off1] === ha2[off2]) {
      off1++;
      off2++;
    }
    while (off1 < lim1 && off2 < lim2 && ha1[lim1 - 1] === ha2[lim2 - 1]) {
      lim1--;
      lim2--;
    }
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) rchg2[r2.rindex[off2]] = 1;
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) rchg1[r1.rindex[off1]] = 1;
    } else if (
      env.work > env.maxWork ||
      !split(ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, k, needMin, env, spl)
    ) {
      // Out of budget: this region counts as replaced.
      approximate = true;
      for (; off1 < lim1; off1++) rchg1[r1.rindex[off1]] = 1;
      for (; off2 < lim2; off2++) rchg2[r2.rindex[off2]] = 1;
    } else {
      const { i1, i2, minLo, minHi } = spl;
      stack.push(i1, lim1, i2, lim2, minHi ? 1 : 0);
      stack.push(off1, i1, off2, i2, minLo ? 1 : 0);
    }
  }
  return approximate;
}

/**
 * Which lines of A are deleted and which of B inserted, given each line as an id (equal
 * lines, equal ids; ids are small non-negative integers, as LineInterner makes them).
 */
export function diffIds(a: Int32Array, b: Int32Array, options: MyersOptions = {}): ChangeMarks {
  const minimal = !!options.minimal;
  const rchg1 = new Uint8Array(a.length);
  const rchg2 = new Uint8Array(b.length);
  // xdl_trim_ends
  const lim = Math.min(a.length, b.length);
  let start = 0;
  while (start < lim && a[start] === b[start]) start++;
  let tail = 0;
  while (tail < lim - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const end1 = a.length - tail - 1;
  const end2 = b.length - tail - 1;
  if (start > end1 && start > end2) return { a: rchg1, b: rchg2, approximate: false, work: 0 };

  // Occurrence counts over the whole files, as xdiff's classifier counts them.
  let maxId = 0;
  for (const v of a) if (v > maxId) maxId = v;
  for (const v of b) if (v > maxId) maxId = v;
  const countA = new Int32Array(maxId + 1);
  const countB = new Int32Array(maxId + 1);
  for (const v of a) countA[v]++;
  for (const v of b) countB[v]++;
  const dis1 = classify(a, start, end1, countB, a.length);
  const dis2 = classify(b, start, end2, countA, b.length);
  const r1 = reduce(a, start, end1, dis1, rchg1, minimal);
  const r2 = reduce(b, start, end2, dis2, rchg2, minimal);

  const ndiags = r1.n + r2.n + 3;
  const env: Env = {
    mxcost: minimal ? LINE_MAX : Math.max(bogoSqrt(ndiags), MAX_COST_MIN),
    work: 0,
    maxWork: options.maxWork ?? DEFAULT_MAX_WORK,
  };
  const approximate = compare(r1, r2, rchg1, rchg2, minimal, env);
  return { a: rchg1, b: rchg2, approximate, work: env.work };
}

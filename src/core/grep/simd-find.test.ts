import { describe, expect, it } from 'vitest';
import { CandidateLines } from './lines';
import { byteFinder } from './lines';
import { rarestPair, SIMD_FIND, SIMD_FIND_MODULE, simdCount, simdCursors, simdModule } from './simd-find';

const enc = new TextEncoder();

/** Every start of `needle` in `hay` (caseless: ASCII letters of either case). */
function naiveAll(hay: Uint8Array, needle: Uint8Array, caseless: boolean): number[] {
  const fold = (b: number) => (caseless && b >= 65 && b <= 90 ? b + 32 : b);
  const out: number[] = [];
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let k = 0;
    while (k < needle.length && fold(hay[i + k]) === needle[k]) k++;
    if (k === needle.length) out.push(i);
  }
  return out;
}

function all(next: (from: number) => number): number[] {
  const out: number[] = [];
  for (let i = next(0); i !== -1; i = next(i + 1)) out.push(i);
  return out;
}

describe('the SIMD byte filter', () => {
  it('is valid WebAssembly and runs here', () => {
    expect(WebAssembly.validate(SIMD_FIND_MODULE)).toBe(true);
    expect(simdModule()).not.toBeNull();
  });

  it('tests the two rarest bytes of a needle', () => {
    expect(rarestPair(enc.encode('Effect'), false)).toEqual([0, 1]); // 'E', then the first of the 'f's
    expect(rarestPair(enc.encode('type('), false)).toEqual([4, 1]); // '(', then 'y'
    expect(rarestPair(enc.encode('x'), false)).toEqual([0, 0]);
  });

  it('finds every occurrence in a haystack larger than its memory so far (it grows), caseless too', () => {
    const m = simdModule()!;
    // a first search: the module's view of its memory exists before the memory grows
    expect(all(simdCursors(enc.encode('ab'), false)!(enc.encode('x ab '.repeat(40)))!)).toHaveLength(40);
    const line = 'const useEffect = 1; // USEEFFECT useeffect\n';
    const size = m.memory.buffer.byteLength;
    const hay = enc.encode(line.repeat(Math.ceil((size + 200_000) / line.length)) + 'tail useEffect');
    for (const caseless of [false, true]) {
      const needle = enc.encode(caseless ? 'useeffect' : 'useEffect');
      const cursors = simdCursors(needle, caseless)!;
      const next = cursors(hay)!;
      expect(all(next)).toEqual(naiveAll(hay, needle, caseless));
    }
    expect(m.memory.buffer.byteLength).toBeGreaterThan(size);
  });

  it('cursors of one scope share a copy; other scopes in between do not disturb them', () => {
    const a = enc.encode('alpha beta gamma\n'.repeat(50));
    const b = enc.encode('beta beta alpha\n'.repeat(50));
    const alpha = simdCursors(enc.encode('alpha'), false)!;
    const beta = simdCursors(enc.encode('beta'), false)!;
    const scopeA = {};
    const scopeB = {};
    const inA = [alpha(a, scopeA)!, beta(a, scopeA)!];
    const inB = [alpha(b, scopeB)!, beta(b, scopeB)!];
    const got: number[][] = [[], [], [], []];
    const at = [0, 0, 0, 0];
    // interleaved: each call may find the other scope's bytes in the memory
    for (let round = 0; round < 200; round++) {
      [...inA, ...inB].forEach((next, k) => {
        if (at[k] === -1) return;
        const i = next(at[k]);
        if (i === -1) at[k] = -1;
        else {
          got[k].push(i);
          at[k] = i + 1;
        }
      });
    }
    expect(got[0]).toEqual(naiveAll(a, enc.encode('alpha'), false));
    expect(got[1]).toEqual(naiveAll(a, enc.encode('beta'), false));
    expect(got[2]).toEqual(naiveAll(b, enc.encode('alpha'), false));
    expect(got[3]).toEqual(naiveAll(b, enc.encode('beta'), false));
  });

  it('a reused buffer with new bytes is searched afresh by a new scope (a transient read)', () => {
    const buf = enc.encode('needle here\n'.repeat(20));
    const find = simdCursors(enc.encode('needle'), false)!;
    expect(all(find(buf, {})!)).toEqual(naiveAll(buf, enc.encode('needle'), false));
    buf.set(enc.encode('xxxxxx here\n'.repeat(20)));
    expect(find(buf, {})!(0)).toBe(-1);
  });

  it('a scope handed a haystack over other memory copies it (the copy is of the bytes it was made from)', () => {
    const scope = {};
    const find = simdCursors(enc.encode('needle'), false)!;
    const a = enc.encode('needle here\n'.repeat(20));
    const b = enc.encode('xxxxxx here\n'.repeat(20));
    expect(find(a, scope)!(0)).toBe(0);
    expect(find(b, scope)!(0)).toBe(-1);
    // the same bytes at another offset of one buffer
    const both = new Uint8Array([...b, ...a]);
    expect(find(both.subarray(0, b.length), scope)!(0)).toBe(-1);
    expect(find(both.subarray(b.length), scope)!(0)).toBe(0);
  });

  it('leaves haystacks outside its sizes to the search in JavaScript', () => {
    const find = simdCursors(enc.encode('ab'), false)!;
    expect(find(new Uint8Array(SIMD_FIND.minBytes - 1))).toBeNull();
    expect(find(new Uint8Array(SIMD_FIND.minBytes))).not.toBeNull();
  });

  it("counts a byte in the scope's copy, and leaves bytes it does not hold to the caller", () => {
    const hay = enc.encode('a\nbb\n\nccc\n'.repeat(300) + 'x');
    const scope = {};
    simdCursors(enc.encode('ccc'), false)!(hay, scope)!(500); // copies hay[500, end)
    const naive = (a: number, b: number) => hay.subarray(a, b).filter((x) => x === 10).length;
    for (const [a, b] of [
      [500, hay.length],
      [517, 1999],
      [600, 600 + SIMD_FIND.minBytes],
      [1000, 1000 + SIMD_FIND.minBytes + 15],
    ])
      expect(simdCount(scope, a, b, 10)).toBe(naive(a, b));
    // every length from none to a few blocks (the block loop and the byte loop at each split)
    const saved = SIMD_FIND.minBytes;
    SIMD_FIND.minBytes = 0;
    try {
      for (let len = 0; len <= 70; len++)
        expect(simdCount(scope, 777, 777 + len, 10)).toBe(naive(777, 777 + len));
    } finally {
      SIMD_FIND.minBytes = saved;
    }
    expect(simdCount(scope, 499, 1000, 10)).toBeNull(); // before the copy
    expect(simdCount({}, 600, 1000, 10)).toBeNull(); // another scope's bytes
    expect(simdCount(scope, 600, 610, 10)).toBeNull(); // too few to be worth the call
  });

  it('candidate lines of several needles over one long file match a naive search', () => {
    const text = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? `x${i} useLayoutEffect()` : i % 11 === 0 ? `useEffect(${i})` : `plain line ${i}`,
    ).join('\n');
    const hay = enc.encode(text);
    const needles = ['useEffect', 'useLayoutEffect'].map((s) => enc.encode(s));
    const lines = new CandidateLines(
      hay,
      0,
      needles.map((n) => byteFinder(n, false)),
    );
    const starts: number[] = [];
    for (let ls = lines.next(); ls !== -1; ls = lines.next()) starts.push(ls);
    let pos = 0;
    const want: number[] = [];
    for (const line of text.split('\n')) {
      if (line.includes('useEffect') || line.includes('useLayoutEffect')) want.push(pos);
      pos += line.length + 1;
    }
    expect(starts).toEqual(want);
  });
});

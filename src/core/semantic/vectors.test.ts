import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VectorTable } from './vectors';

function unit(values: readonly number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((a, x) => a + x * x, 0));
  return Float32Array.from(values, (x) => x / norm);
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** A unit vector of `dims` numbers, from the generator's values (never all zeros). */
const unitVector = (dims: number) =>
  fc
    .array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims })
    .filter((v) => v.some((x) => Math.abs(x) > 1e-3))
    .map(unit);

/** A one-hot-ish vector: 1 at `i % dims`, small elsewhere, normalised. */
function marker(i: number, dims: number): Float32Array {
  return unit(Array.from({ length: dims }, (_, j) => (j === i % dims ? 1 : 0.01 * (((i + j) % 7) - 3))));
}

describe('VectorTable', () => {
  it('keeps every cosine within 0.01 of the float one (int8 rows, a scale per row)', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(16, 64, 512)
          .chain((dims) =>
            fc.tuple(
              fc.constant(dims),
              unitVector(dims),
              fc.array(unitVector(dims), { minLength: 1, maxLength: 4 }),
            ),
          ),
        ([dims, q, rows]) => {
          const table = new VectorTable(dims);
          rows.forEach((v, i) => table.add(`row ${i}`, v));
          const scores = table.scoreAll(q);
          expect(scores.length).toBe(rows.length);
          rows.forEach((v, i) => expect(Math.abs(scores[i] - dot(q, v))).toBeLessThan(0.01));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('scores a stored vector against itself as about 1, and an all-zero vector as 0 (not NaN)', () => {
    const t = new VectorTable(8);
    const v = unit([3, -1, 0.5, 0, 0, 2, -2, 0.25]);
    t.add('v', v);
    t.add('zero', new Float32Array(8));
    const [self, zero] = t.scoreAll(v);
    expect(self).toBeCloseTo(1, 2);
    expect(zero).toBe(0);
  });

  it('add() of a text already stored returns its row and keeps the first vector', () => {
    const t = new VectorTable(4);
    expect(t.add('a', unit([1, 0, 0, 0]))).toBe(0);
    expect(t.add('b', unit([0, 1, 0, 0]))).toBe(1);
    expect(t.add('a', unit([0, 0, 0, 1]))).toBe(0);
    expect(t.rows).toBe(2);
    expect(t.rowFor('a')).toBe(0);
    expect(t.rowFor('b')).toBe(1);
    expect(t.rowFor('c')).toBeUndefined();
    // the row still holds [1, 0, 0, 0]
    expect(t.scoreAll(unit([1, 0, 0, 0]))[0]).toBeCloseTo(1, 3);
    expect(t.scoreAll(unit([0, 0, 0, 1]))[0]).toBeCloseTo(0, 3);
  });

  it('grows past its initial 64 rows without losing any row', () => {
    const dims = 12;
    const t = new VectorTable(dims);
    const n = 300;
    for (let i = 0; i < n; i++) expect(t.add(`text ${i}`, marker(i, dims))).toBe(i);
    expect(t.rows).toBe(n);
    expect(t.byteSize).toBe(n * (dims + 4));
    for (const i of [0, 63, 64, 65, 127, 128, 200, n - 1]) {
      expect(t.rowFor(`text ${i}`)).toBe(i);
      const v = marker(i, dims);
      const scores = t.scoreAll(v);
      expect(scores.length).toBe(n);
      expect(Math.abs(scores[i] - dot(v, v))).toBeLessThan(0.01);
      // the rows with the same hot component score high, every other row low
      for (let r = 0; r < n; r++) expect(scores[r] > 0.9).toBe(r % dims === i % dims);
    }
  });

  it('compact() keeps the used rows, renumbered in order, with their vectors and texts', () => {
    const dims = 6;
    const t = new VectorTable(dims);
    const vecs = Array.from({ length: 5 }, (_, i) => marker(i, dims));
    vecs.forEach((v, i) => t.add(`t${i}`, v));
    const map = t.compact(new Set([3, 1]));
    expect([...map]).toEqual([-1, 0, -1, 1, -1]);
    expect(t.rows).toBe(2);
    expect(t.byteSize).toBe(2 * (dims + 4));
    expect(t.rowFor('t1')).toBe(0);
    expect(t.rowFor('t3')).toBe(1);
    for (const gone of ['t0', 't2', 't4']) expect(t.rowFor(gone)).toBeUndefined();
    const s1 = t.scoreAll(vecs[1]);
    const s3 = t.scoreAll(vecs[3]);
    expect(s1[0]).toBeCloseTo(1, 2);
    expect(s3[1]).toBeCloseTo(1, 2);
    expect(s1[1]).toBeLessThan(0.5);
    // a dropped text is new again; rows after a compact grow as before
    expect(t.add('t0', vecs[0])).toBe(2);
    for (let i = 0; i < 100; i++) t.add(`more ${i}`, marker(i, dims));
    expect(t.rows).toBe(103);
    expect(t.scoreAll(vecs[3])[1]).toBeCloseTo(1, 2);
    expect(t.scoreAll(vecs[0])[2]).toBeCloseTo(1, 2);
  });

  it('compact() of nothing empties the table, which still takes rows', () => {
    const t = new VectorTable(4);
    t.add('a', unit([1, 0, 0, 0]));
    expect([...t.compact(new Set())]).toEqual([-1]);
    expect(t.rows).toBe(0);
    expect(t.rowFor('a')).toBeUndefined();
    expect(t.scoreAll(unit([1, 0, 0, 0])).length).toBe(0);
    expect(t.add('b', unit([0, 1, 0, 0]))).toBe(0);
    expect(t.scoreAll(unit([0, 1, 0, 0]))[0]).toBeCloseTo(1, 2);
  });

  it('toState/fromState round trip: same texts, rows and scores, and no shared arrays', () => {
    const dims = 5;
    const t = new VectorTable(dims);
    const vecs = Array.from({ length: 70 }, (_, i) => marker(i, dims));
    vecs.forEach((v, i) => t.add(`t${i}`, v));
    const state = t.toState();
    expect(state.texts).toEqual(vecs.map((_, i) => `t${i}`));
    expect(state.data.length).toBe(70 * dims);
    expect(state.scales.length).toBe(70);
    const back = VectorTable.fromState(dims, state);
    expect(back.rows).toBe(70);
    expect(back.byteSize).toBe(t.byteSize);
    for (const i of [0, 33, 69]) {
      expect(back.rowFor(`t${i}`)).toBe(i);
      expect([...back.scoreAll(vecs[i])]).toEqual([...t.scoreAll(vecs[i])]);
    }
    // the state is a copy both ways
    state.data.fill(0);
    state.texts[0] = 'changed';
    expect(back.scoreAll(vecs[0])[0]).toBeCloseTo(1, 2);
    expect(back.rowFor('t0')).toBe(0);
    expect(t.toState().data.some((x) => x !== 0)).toBe(true);
    // a restored table (filled to its exact size) grows on the next add
    expect(back.add('new', vecs[1])).toBe(70);
    expect(back.scoreAll(vecs[1])[70]).toBeCloseTo(back.scoreAll(vecs[1])[1], 5);
  });

  it('fromState of an empty table', () => {
    const back = VectorTable.fromState(3, new VectorTable(3).toState());
    expect(back.rows).toBe(0);
    expect(back.add('a', unit([0, 0, 1]))).toBe(0);
    expect(back.scoreAll(unit([0, 0, 1]))[0]).toBeCloseTo(1, 2);
  });

  it('fromState refuses vectors that do not match their texts', () => {
    const t = new VectorTable(4);
    t.add('a', unit([1, 0, 0, 0]));
    t.add('b', unit([0, 1, 0, 0]));
    const s = t.toState();
    const message = 'stored vectors do not match their texts';
    expect(() => VectorTable.fromState(4, { ...s, data: s.data.slice(0, 7) })).toThrow(message);
    expect(() => VectorTable.fromState(4, { ...s, scales: s.scales.slice(0, 1) })).toThrow(message);
    expect(() => VectorTable.fromState(4, { ...s, texts: ['a'] })).toThrow(message);
    expect(() => VectorTable.fromState(3, s)).toThrow(message);
    expect(() => VectorTable.fromState(4, s)).not.toThrow();
  });
});

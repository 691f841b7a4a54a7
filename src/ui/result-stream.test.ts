/** Rows built a part at a time are the rows of the whole file at once: headers, gaps, hits in order. */
import { describe, expect, it } from 'vitest';
import type { GrepFileResult, GrepMatch } from '../core/grep/types';
import { hitShift, toBlocks } from './blocks';
import { MATCHES_PER_STEP, ResultRows, type Row } from './result-stream';

/** A file whose lines `hitLines` match, with two lines of context (as the engine sends them). */
function file(path: string, hitLines: number[], lineCount: number): GrepFileResult {
  const text = (n: number) => `line ${n} of ${path}`;
  const matches: GrepMatch[] = hitLines.map((line) => ({
    path,
    line,
    text: text(line),
    ranges: [[0, 4]],
    contextBefore: [line - 2, line - 1].filter((n) => n >= 1).map(text),
    contextAfter: [line + 1, line + 2].filter((n) => n <= lineCount).map(text),
  }));
  return { path, matches };
}

/** The rows of each file built whole, in one go (what the list showed before it was built in parts). */
function wholeRows(files: GrepFileResult[]): { rows: Row[]; hits: number[] } {
  const rows: Row[] = [];
  const hits: number[] = [];
  for (const f of files) {
    rows.push({ kind: 'file', path: f.path, count: f.matches.length });
    toBlocks(f.matches).forEach((block, b) => {
      if (b > 0) rows.push({ kind: 'gap', path: f.path });
      for (const l of block) {
        const hit = l.ranges ? hits.length : -1;
        if (l.ranges) hits.push(rows.length);
        const shift = l.ranges ? hitShift(l.text, l.ranges) : 0;
        rows.push({
          kind: 'line',
          path: f.path,
          line: l.line,
          text: l.text,
          ranges: l.ranges,
          hit,
          shift,
          from: (l.textStart ?? 0) + shift,
        });
      }
    });
  }
  return { rows, hits };
}

/** Indexes of the hit rows. */
function hitIndexes(rows: Row[]): number[] {
  return rows.flatMap((row, i) => (row.kind === 'line' && row.ranges ? [i] : []));
}

function build(files: GrepFileResult[][]): ResultRows {
  const r = new ResultRows();
  for (const batch of files) {
    r.push(batch);
    while (r.step());
  }
  return r;
}

/** Hit lines: runs of neighbours (blocks that join across parts) and lone hits (blocks apart). */
function mixedHits(count: number): number[] {
  const out: number[] = [];
  let line = 1;
  for (let i = 0; out.length < count; i++) {
    out.push(line);
    line += i % 7 === 0 ? 9 : i % 3 === 0 ? 3 : 1;
  }
  return out;
}

describe('ResultRows', () => {
  it('builds a file of thousands of hits in parts, the same rows as at once', () => {
    const big = file('gen/index.d.ts', mixedHits(MATCHES_PER_STEP * 5 + 17), 20_000);
    const small = file('a.ts', [3, 4, 40], 60);
    const r = build([[small, big], [file('z.ts', [1], 2)]]);
    const want = wholeRows([small, big, file('z.ts', [1], 2)]);
    expect(r.rows).toEqual(want.rows);
    expect(hitIndexes(r.rows)).toEqual(want.hits);
    expect(r.hitCount).toBe(want.hits.length);
  });

  it('takes a bounded number of matches per step', () => {
    const r = new ResultRows();
    r.push([file('gen/big.ts', mixedHits(MATCHES_PER_STEP * 2 + 1), 10_000)]);
    let steps = 0;
    while (r.step()) steps++;
    expect(steps).toBe(3);
    expect(r.pending).toBe(false);
    expect(r.step()).toBe(false);
  });

  it('turns a context line of one part into a hit when the next part matches it', () => {
    // the part boundary falls between hits 2 lines apart: line n+1 is context, then a hit
    const lines = Array.from({ length: MATCHES_PER_STEP + 2 }, (_, i) => 1 + i * 2);
    const f = file('dense.ts', lines, 2000);
    const r = build([[f]]);
    expect(r.rows).toEqual(wholeRows([f]).rows);
    const hitRows = r.rows.filter((row) => row.kind === 'line' && row.ranges);
    expect(hitRows).toHaveLength(lines.length);
    // hit numbers follow the list order
    expect(hitIndexes(r.rows).map((i) => (r.rows[i] as Extract<Row, { kind: 'line' }>).hit)).toEqual(
      lines.map((_, i) => i),
    );
  });

  it('continues a file sent in two results: one header counting both, no repeated lines', () => {
    const whole = file('split.ts', [5, 6, 7, 30, 31], 40);
    const first = { path: 'split.ts', matches: whole.matches.slice(0, 2) };
    const second = { path: 'split.ts', matches: whole.matches.slice(2) };
    const r = build([[first], [second]]);
    expect(r.rows).toEqual(wholeRows([whole]).rows);
    expect(r.rows.filter((row) => row.kind === 'file')).toEqual([
      { kind: 'file', path: 'split.ts', count: 5 },
    ]);
  });

  it('keeps files apart: a new path starts with its header and no gap', () => {
    const r = build([[file('a.ts', [10], 20), file('b.ts', [10], 20)]]);
    expect(r.rows.map((row) => row.kind)).toEqual([
      'file',
      'line',
      'line',
      'line',
      'line',
      'line',
      'file',
      'line',
      'line',
      'line',
      'line',
      'line',
    ]);
  });

  it('keeps rows per file: any order of files, a file sent in parts apart from its neighbours, ranks from the matches', () => {
    const whole = file('src/split.ts', [5, 6, 30], 40);
    const first = { path: 'src/split.ts', matches: whole.matches.slice(0, 2) };
    const second = { path: 'src/split.ts', matches: whole.matches.slice(2) };
    const other = file('CHANGELOG.md', [3], 10);
    const r = new ResultRows(['split']);
    r.push([first, other, second]);
    while (r.step());
    expect(r.files.map((f) => f.path)).toEqual(['src/split.ts', 'CHANGELOG.md']);
    // hits are numbered as they arrive: the changelog's is the third
    const want = wholeRows([other, whole]).rows.map((row) =>
      row.kind === 'line' && row.hit >= 0 ? { ...row, hit: [2, 0, 1, 3][row.hit] } : row,
    );
    expect(r.rowsIn(['CHANGELOG.md', 'src/split.ts'])).toEqual(want);
    expect(r.file('src/split.ts')?.rank).toMatchObject({ matches: 3, name: 2, tier: 0 });
    expect(r.file('CHANGELOG.md')?.rank).toMatchObject({ matches: 1, name: 0, tier: 5 });
    expect(r.rowsIn(['nowhere.ts'])).toEqual([]);
  });

  it('settles a file once every part queued for it is built (the list shows it from then on)', () => {
    const big = file('gen/big.ts', mixedHits(MATCHES_PER_STEP + 5), 10_000);
    const r = new ResultRows();
    r.push([
      { path: big.path, matches: big.matches.slice(0, 3) },
      { path: big.path, matches: big.matches.slice(3) },
      file('b.ts', [1], 2),
    ]);
    r.step(); // the first part: the second is queued
    expect(r.file('gen/big.ts')?.settled).toBe(false);
    r.step(); // MATCHES_PER_STEP of the second part
    expect(r.file('gen/big.ts')?.settled).toBe(false);
    r.step();
    expect(r.file('gen/big.ts')?.settled).toBe(true);
    expect(r.file('b.ts')).toBeUndefined();
    r.step();
    expect(r.file('b.ts')?.settled).toBe(true);
  });
});

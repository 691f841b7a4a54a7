import { describe, expect, it } from 'vitest';
import { hitShift, toBlocks } from './blocks';
import type { GrepMatch } from '../core/grep/types';

const m = (line: number, before: string[], after: string[]): GrepMatch => ({
  path: 'a.ts',
  line,
  text: `L${line}`,
  ranges: [[0, 1]],
  contextBefore: before,
  contextAfter: after,
});

describe('toBlocks', () => {
  it('joins overlapping and touching windows and keeps far ones apart', () => {
    const blocks = toBlocks([m(3, ['L1', 'L2'], ['L4']), m(5, ['L4'], ['L6']), m(20, ['L19'], [])]);
    expect(blocks.map((b) => b.map((l) => [l.line, l.ranges ? 'hit' : 'ctx']))).toEqual([
      [
        [1, 'ctx'],
        [2, 'ctx'],
        [3, 'hit'],
        [4, 'ctx'],
        [5, 'hit'],
        [6, 'ctx'],
      ],
      [
        [19, 'ctx'],
        [20, 'hit'],
      ],
    ]);
  });

  it('marks a context line that is itself a match', () => {
    const blocks = toBlocks([m(2, [], ['L3']), m(3, ['L2'], [])]);
    expect(blocks[0].map((l) => [l.line, !!l.ranges])).toEqual([
      [2, true],
      [3, true],
    ]);
  });

  it('gives a context line that is itself a match the match text, which may be a preview window', () => {
    const ctx = { ...m(2, [], ['x'.repeat(10)]) };
    const hit: GrepMatch = {
      path: 'a.ts',
      line: 3,
      text: 'xxneedle',
      ranges: [[2, 8]],
      textStart: 40,
      contextBefore: ['L2'],
      contextAfter: [],
    };
    const [block] = toBlocks([ctx, hit]);
    expect(block[1]).toEqual({ line: 3, text: 'xxneedle', ranges: [[2, 8]], textStart: 40 });
  });

  it('merges a file whose every line matches into one block, each line once and marked', () => {
    // a generated file: thousands of hits, each one's context the neighbouring hits
    const n = 3000;
    const all = Array.from({ length: n }, (_, i) => {
      const line = i + 1;
      return m(
        line,
        line > 2 ? [`L${line - 2}`, `L${line - 1}`] : line === 2 ? ['L1'] : [],
        line < n ? [`L${line + 1}`] : [],
      );
    });
    const blocks = toBlocks(all);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].map((l) => l.line)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(blocks[0].every((l) => l.ranges !== null && l.text === `L${l.line}`)).toBe(true);
  });

  it('leaves a context line before the block start alone', () => {
    // a later match's context reaching back past where the block began is not a row to change
    const blocks = toBlocks([m(5, [], ['L6']), m(7, ['L3', 'L4', 'L5', 'L6'], [])]);
    expect(blocks[0].map((l) => [l.line, !!l.ranges])).toEqual([
      [5, true],
      [6, false],
      [7, true],
    ]);
  });
});

describe('hitShift', () => {
  it('starts a hit row 24 characters before a far first hit, and at the line start otherwise', () => {
    expect(hitShift('abc needle', [[4, 10]])).toBe(0);
    expect(hitShift('x'.repeat(40) + 'needle', [[40, 46]])).toBe(0);
    expect(hitShift('x'.repeat(60) + 'needle tail', [[60, 66]])).toBe(36);
    // never inside a surrogate pair
    const emoji = 'x'.repeat(35) + '😀' + 'y'.repeat(23) + 'needle';
    expect(hitShift(emoji, [[emoji.indexOf('needle'), emoji.length]])).toBe(35);
  });
});

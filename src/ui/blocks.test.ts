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
    const hit: GrepMatch = { path: 'a.ts', line: 3, text: 'xxneedle', ranges: [[2, 8]], textStart: 40, contextBefore: ['L2'], contextAfter: [] };
    const [block] = toBlocks([ctx, hit]);
    expect(block[1]).toEqual({ line: 3, text: 'xxneedle', ranges: [[2, 8]], textStart: 40 });
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

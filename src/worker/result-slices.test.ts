import { describe, expect, it } from 'vitest';
import type { GrepMatch } from '../core/grep/types';
import { BATCH_MAX_ITEMS } from './protocol';
import { BATCH_CHARS_PER_ITEM, fileSlices, fileWeight, matchWeight } from './result-slices';

const match = (line: number, chars: number, context: number): GrepMatch => ({
  path: 'a.js',
  line,
  text: 'x'.repeat(chars),
  ranges: [[0, 1]],
  contextBefore: Array.from({ length: context }, () => 'c'.repeat(chars)),
  contextAfter: Array.from({ length: context }, () => 'c'.repeat(chars)),
});

describe('search result slices', () => {
  it('weighs a match as one plus its line and context characters', () => {
    expect(matchWeight(match(1, 0, 0))).toBe(1);
    expect(matchWeight(match(1, BATCH_CHARS_PER_ITEM, 2))).toBe(6);
  });

  it('hands a light file back whole', () => {
    const file = {
      path: 'a.js',
      matches: Array.from({ length: BATCH_MAX_ITEMS }, (_, i) => match(i + 1, 0, 0)),
    };
    expect(fileSlices(file)).toEqual([file]);
  });

  it('cuts a file of many short hits and one of long-line hits into slices within the weight, in order, losing none', () => {
    for (const file of [
      { path: 'a.js', matches: Array.from({ length: 1342 }, (_, i) => match(i + 1, 40, 2)) },
      { path: 'a.js', matches: Array.from({ length: 200 }, (_, i) => match(i + 1, 1000, 2)) },
    ]) {
      const slices = fileSlices(file);
      expect(slices.length).toBeGreaterThan(1);
      for (const s of slices) {
        expect(s.path).toBe('a.js');
        expect(fileWeight(s)).toBeLessThanOrEqual(BATCH_MAX_ITEMS);
      }
      expect(slices.flatMap((s) => s.matches)).toEqual(file.matches);
    }
  });

  it('gives a match heavier than a batch a slice of its own', () => {
    const file = {
      path: 'a.js',
      matches: [match(1, 10, 0), match(2, 60 * BATCH_CHARS_PER_ITEM, 0), match(3, 10, 0)],
    };
    expect(fileSlices(file).map((s) => s.matches.map((m) => m.line))).toEqual([[1], [2], [3]]);
  });
});

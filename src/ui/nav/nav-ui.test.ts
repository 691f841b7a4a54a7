import { describe, expect, it } from 'vitest';
import { subsequence } from './SymbolPicker';
import { stepMatch } from './use-viewer-keys';

describe('the in-file symbol filter', () => {
  it('matches characters in order, case-insensitively, and says where', () => {
    expect(subsequence('Ledger.total', 'ltot')).toEqual([0, 7, 8, 9]);
    expect(subsequence('formatMoney', 'FM')).toEqual([0, 6]); // the camelCase hump, not the m of 'format'
    expect(subsequence('formatMoney', 'fmat')).toEqual([0, 3, 4, 5]); // no word-start alignment: in order
    expect(subsequence('formatMoney', 'mf')).toBeNull();
    expect(subsequence('anything', '')).toEqual([]);
    expect(subsequence('a b', 'a b')).toEqual([0, 2]); // spaces in the query are ignored
  });
});

describe('F3 / Shift+F3', () => {
  const go = (lines: number[], line: number, dir: 1 | -1) => {
    let to = -1;
    stepMatch(lines, line, dir, (n) => (to = n));
    return to;
  };
  it('moves to the next or previous matching line and wraps around', () => {
    expect(go([3, 10, 20], 0, 1)).toBe(3);
    expect(go([3, 10, 20], 10, 1)).toBe(20);
    expect(go([3, 10, 20], 20, 1)).toBe(3);
    expect(go([3, 10, 20], 10, -1)).toBe(3);
    expect(go([3, 10, 20], 3, -1)).toBe(20);
    expect(go([3, 10, 20], 15, -1)).toBe(10);
    expect(go([], 5, 1)).toBe(-1);
  });
});

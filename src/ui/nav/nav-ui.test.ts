import { describe, expect, it } from 'vitest';
import { lineStart } from './NavPanel';
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

describe('a listed reference line', () => {
  it('starts past the indentation, or near a far hit at the start of a word', () => {
    expect(lineStart('    return total;', [[11, 16]])).toBe(4);
    const line = 'export interface DefinitionQuery extends Base {';
    expect(line.slice(lineStart(line, [[17, 32]]))).toBe('interface DefinitionQuery extends Base {'); // not 't interface'
    expect(lineStart('  type Query = 1;', [[7, 12]])).toBe(2); // a hit near the start: the whole line
    const far = 'const result = computeEverything(alpha, beta, gamma, DefinitionQuery);';
    const at = far.indexOf('DefinitionQuery');
    const start = lineStart(far, [[at, at + 15]]);
    expect(start).toBeGreaterThan(0);
    expect(far.slice(start)).toMatch(/^(beta|gamma), /); // a whole word, a few before the hit
    expect(far.slice(start).startsWith('DefinitionQuery') || start < at).toBe(true);
  });
});

/** Collapsible result files: what the list shows and what keyboard focus moves through. */
import { describe, expect, it } from 'vitest';
import {
  ALL_COLLAPSED,
  isCollapsed,
  NONE_COLLAPSED,
  toggleCollapsed,
  visibleRows,
  type ResultRowLike,
} from './result-rows';

const file = (path: string): ResultRowLike => ({ kind: 'file', path });
const hit = (path: string): ResultRowLike => ({ kind: 'line', path, ranges: [[0, 1]] });
const ctx = (path: string): ResultRowLike => ({ kind: 'line', path, ranges: null });
const gap = (path: string): ResultRowLike => ({ kind: 'gap', path });
const ROWS = [
  file('a'),
  ctx('a'),
  hit('a'),
  gap('a'),
  hit('a'),
  file('b'),
  hit('b'),
  ctx('b'),
  file('c'),
  hit('c'),
];

describe('visibleRows', () => {
  it('shows everything, headers and hits focusable, when nothing is collapsed', () => {
    const v = visibleRows(ROWS, NONE_COLLAPSED);
    expect(v.rows).toHaveLength(ROWS.length);
    expect(v.focusable).toEqual([0, 2, 4, 5, 6, 8, 9]);
    expect([...v.focusIndex]).toEqual([0, -1, 1, -1, 2, 3, 4, -1, 5, 6]);
    expect([v.files, v.collapsed]).toEqual([3, 0]);
  });

  it('keeps a collapsed file header and drops its lines and gaps', () => {
    const v = visibleRows(ROWS, toggleCollapsed(NONE_COLLAPSED, 'a'));
    expect(v.rows.map((r) => `${r.kind}:${r.path}`)).toEqual([
      'file:a',
      'file:b',
      'line:b',
      'line:b',
      'file:c',
      'line:c',
    ]);
    expect(v.focusable).toEqual([0, 1, 2, 4, 5]);
    expect([v.files, v.collapsed]).toEqual([3, 1]);
  });

  it('collapse all also holds for files that arrive later; a toggle makes an exception', () => {
    const state = toggleCollapsed(ALL_COLLAPSED, 'b');
    expect(isCollapsed(state, 'a')).toBe(true);
    expect(isCollapsed(state, 'b')).toBe(false);
    expect(isCollapsed(state, 'not-yet-streamed')).toBe(true);
    const v = visibleRows(ROWS, state);
    expect(v.rows.map((r) => `${r.kind}:${r.path}`)).toEqual([
      'file:a',
      'file:b',
      'line:b',
      'line:b',
      'file:c',
    ]);
    expect(toggleCollapsed(state, 'b')).toEqual(ALL_COLLAPSED);
  });
});

/**
 * Long content rendered a part at a time: the first part at once, then one more part whenever
 * the main thread is idle, each as a transition (time-sliced). A README of a few hundred blocks
 * rendered in one go was one render of ~150 ms and a layout and paint of ~800 ms on a busy
 * 2-core machine (Chrome trace, the overview while a folder loads).
 */
import { startTransition, useEffect, useState } from 'react';
import { whenIdle } from '../idle';

/** How many of `total` parts to show now; starts again from `first` when `key` changes. */
export function useProgressiveCount(total: number, key: unknown, first = 1): number {
  const [state, setState] = useState({ key, count: first });
  const current = state.key === key ? state.count : first;
  // a new document: start again (React's "adjust state while rendering" pattern)
  if (state.key !== key) setState({ key, count: first });
  useEffect(() => {
    if (current >= total) return;
    return whenIdle(
      () => startTransition(() => setState((s) => (s.key === key ? { key, count: s.count + 1 } : s))),
      200,
      16,
    );
  }, [current, total, key]);
  return Math.min(current, total);
}

/** `items` cut into parts of `size` (stable while `items` is). */
export function partsOf<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

import { useEffect, useState } from 'react';
import type { Progress } from '../worker/protocol';

/** A tiny external store, so progress events re-render only the bar that shows them. */
export class ProgressStore {
  value: Progress | null = null;
  private listeners = new Set<() => void>();
  set(p: Progress) {
    this.value = p;
    for (const l of this.listeners) l();
  }
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };
}

export interface ProgressSource {
  value: Progress | null;
  subscribe: (l: () => void) => () => void;
}

/**
 * A store's latest progress as component state. Not useSyncExternalStore: its updates are
 * synchronous renders, and a synchronous render throws away any transition React is rendering
 * in time slices (the workspace swap, a file opened, a README): with progress every 50 ms
 * during a load or an index build, a transition that needed more than a few slices restarted
 * again and again until React gave up after 5 s and rendered it in one long task. As state set
 * from the worker's message, an update renders at default priority, after the transition.
 */
export function useProgress(store: ProgressSource): Progress | null {
  const [value, setValue] = useState(store.value);
  useEffect(() => {
    setValue(store.value);
    return store.subscribe(() => setValue(store.value));
  }, [store]);
  return value;
}

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

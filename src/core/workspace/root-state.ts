/**
 * Everything a root holds beyond its indexes, in one place the root owns: each service keeps
 * its per-root state (semantic vectors, the symbol table, the history log's object store...)
 * in a slot of the root's RootState instead of a side table keyed by the root, so closing the
 * root releases all of it at once (a value with `dispose` is disposed).
 */
export interface Slot<T> {
  /** For debugging: what the slot holds. */
  readonly name: string;
  /** Never set: carries the type of the slot's value. */
  readonly _value?: T;
}

export function slot<T>(name: string): Slot<T> {
  return { name };
}

export class RootState {
  private readonly values = new Map<Slot<unknown>, unknown>();
  private closed = false;

  get<T>(slot: Slot<T>): T | undefined {
    return this.values.get(slot) as T | undefined;
  }

  /** The slot's value, made on first use (never after the root closed: then each call makes a fresh one). */
  getOrMake<T>(slot: Slot<T>, make: () => T): T {
    if (this.values.has(slot)) return this.values.get(slot) as T;
    const value = make();
    if (!this.closed) this.values.set(slot, value);
    return value;
  }

  set<T>(slot: Slot<T>, value: T): void {
    if (!this.closed) this.values.set(slot, value);
  }

  delete(slot: Slot<unknown>): void {
    dispose(this.values.get(slot));
    this.values.delete(slot);
  }

  /** The slots in use (tests, diagnostics). */
  get size(): number {
    return this.values.size;
  }

  /** Release every slot; later writes are dropped. */
  clear(): void {
    this.closed = true;
    for (const v of this.values.values()) dispose(v);
    this.values.clear();
  }
}

function dispose(value: unknown): void {
  const d = (value as { dispose?: unknown } | null)?.dispose;
  if (typeof d === 'function') {
    try {
      d.call(value);
    } catch {
      // a failing dispose must not keep the rest alive
    }
  }
}

/**
 * A small least-recently-used map: `get` and `set` make a key the most recent, and a `set`
 * past `max` entries drops the least recently used one. Insertion order of a Map is the
 * recency order (a touched key is deleted and set again).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The value of `key` (now the most recent), or undefined. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Sets `key` as the most recent, dropping the least recently used entry past `max`. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  clear(): void {
    this.map.clear();
  }
}

/**
 * A bounded memo for the guard's caches (value forms, prepared outward texts): two generations of at most `size`
 * entries each. When the current one is full it becomes the old one and the oldest generation is dropped whole;
 * an entry found in the old generation moves to the current one. Every operation is O(1): evicting the first key of
 * one Map on each insertion walks the holes deleted entries leave, which grew with every distinct value.
 */
export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly size: number) {}

  get(key: K): V | undefined {
    const v = this.current.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) this.set(key, o);
    return o;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.size) {
      this.old = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  /** Drops every entry. */
  clear(): void {
    this.current = new Map();
    this.old = new Map();
  }
}

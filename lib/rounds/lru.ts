// A small least-recently-used map: Map keeps insertion order, so re-inserting marks a key fresh.
// Bounded by entries, or by a total weight when `weigh` is given (say, lines of text held).
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  private total = 0;
  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    // A value heavier than the whole cache would only evict everything else.
    if (weight > this.capacity) return;
    this.map.set(key, value);
    this.weights.set(key, weight);
    this.total += weight;
    while (this.total > this.capacity) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.total -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.weights.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }
}

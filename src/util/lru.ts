/**
 * A map that keeps the most recently used entries within a weight budget (bytes, characters):
 * what a replay reads from disk on demand stays in memory while it is served again and again,
 * and memory stays bounded whatever the cassette's size.
 */
export interface Lru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V, weight: number): void;
  /** The cached value, or `load()` cached under `weigh(value)`. */
  through(key: K, load: () => V, weigh: (value: V) => number): V;
  readonly size: number;
  readonly weight: number;
  clear(): void;
}

export function createLru<K, V>(options: { maxWeight: number; maxEntries?: number }): Lru<K, V> {
  const { maxWeight } = options;
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const entries = new Map<K, { value: V; weight: number }>();
  let total = 0;
  const evict = () => {
    for (const [key, entry] of entries) {
      if (total <= maxWeight && entries.size <= maxEntries) break;
      entries.delete(key);
      total -= entry.weight;
    }
  };
  const lru: Lru<K, V> = {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Map keeps insertion order: re-inserting makes it the most recent
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, weight) {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        total -= old.weight;
      }
      // a value heavier than the whole budget is not kept (it would evict everything else)
      if (weight > maxWeight) return;
      entries.set(key, { value, weight });
      total += weight;
      evict();
    },
    through(key, load, weigh) {
      const hit = lru.get(key);
      if (hit !== undefined) return hit;
      const value = load();
      lru.set(key, value, weigh(value));
      return value;
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return total;
    },
    clear() {
      entries.clear();
      total = 0;
    },
  };
  return lru;
}

/**
 * A bounded cache in two generations: entries live in `young` until it fills, then `young` becomes
 * `old` and the previous `old` is dropped whole. A hit in `old` moves the entry back to `young`.
 * Every operation is O(1); an LRU built on Map delete/re-insert is not, since V8 has to step over the
 * deleted slots each time it looks for the oldest entry.
 */
export class GenerationalCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly generationSize: number) {}

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}

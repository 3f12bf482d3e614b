/**
 * One shared copy per distinct value. Strings read from SQLite or parsed from headers are new copies
 * each time; a cache holding tens of thousands of rows whose columns repeat a handful of values
 * (the site, the state, the content type) would otherwise hold tens of thousands of copies. Once
 * `capacity` distinct values are pooled, further ones are returned as they are.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  intern<T extends string>(value: T): T {
    const pooled = this.pool.get(value);
    if (pooled !== undefined) return pooled as T;
    if (this.pool.size < this.capacity) this.pool.set(value, value);
    return value;
  }

  internOrNull<T extends string>(value: T | null): T | null {
    return value === null ? null : this.intern(value);
  }
}

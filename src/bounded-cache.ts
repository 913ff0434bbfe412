// A cache whose size has a limit whatever it is asked for: at most `maxEntries` entries, the least
// recently used one dropped to make room, each entry good for `ttlMs` after it was set (forever when
// no ttlMs is given). Every cache in the process that is keyed by something callers choose (a host,
// a community, a key) is one of these, so memory stays bounded however many communities, hosts or
// keys requests name. A Map's insertion order is the recency list: a hit is re-inserted at the end.
export type BoundedCacheOptions = {
  /** The most entries kept; the least recently used is dropped to make room for a new one. */
  maxEntries: number;
  /** How long an entry is good after it was set (ms); unset: until evicted or deleted. */
  ttlMs?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
};

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
  readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(o: BoundedCacheOptions) {
    if (!Number.isInteger(o.maxEntries) || o.maxEntries < 1)
      throw new Error(`maxEntries must be a positive integer, not ${o.maxEntries}`);
    this.maxEntries = o.maxEntries;
    this.ttlMs = o.ttlMs ?? Infinity;
    this.now = o.now ?? Date.now;
  }

  /** The value kept for `key` if it is still good (it becomes the most recently used). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.at >= this.ttlMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for `key` from now on, dropping the least recently used entry beyond the limit. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Entries held now (expired ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }
}

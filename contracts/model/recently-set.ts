/**
 * A map that forgets its least recently set entries once it holds more than `capacity`: the model's
 * memory of keys and records stays bounded however long a proxy watches. It forgets a tenth of its
 * capacity at a time, because a Map leaves a hole where an entry was deleted, and dropping the oldest
 * entry on every set would walk past all the earlier holes each time.
 * @example const buckets = new RecentlySet<number>(10_000); buckets.set('key a', 1);
 */
export class RecentlySet<V> {
  readonly #entries = new Map<string, V>();
  // Setting the newest key again needs no move: most traffic is one key answered over and over.
  #newest: string | undefined;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: V): void {
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#newest = key;
    }
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity + Math.ceil(this.capacity / 10)) {
      let excess = this.#entries.size - this.capacity;
      for (const oldest of this.#entries.keys()) {
        if (excess-- === 0) break;
        this.#entries.delete(oldest);
      }
    }
  }

  /** Forgets one key; false when it was not held. */
  delete(key: string): boolean {
    if (key === this.#newest) this.#newest = undefined;
    return this.#entries.delete(key);
  }

  /** Forgets every key but `kept`. */
  keepOnly(kept: string): void {
    for (const key of [...this.#entries.keys()]) if (key !== kept) this.#entries.delete(key);
    if (this.#newest !== kept) this.#newest = undefined;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
  }

  /** From the least recently set. */
  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.#entries.entries();
  }
}

/**
 * A bounded cache, least recently used out first: at most `maxEntries` entries and, when `sizeOf`
 * is given, at most `maxBytes` of them in total. The renderer's caches are keyed on content (a
 * hash of an image's bytes, a text with its box and style, a font file's key with its glyphs), so a
 * changed brand kit or design is a new key, never a stale hit, and a long-running worker's caches
 * stay within these bounds however many brands and designs it renders.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private bytes = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly sizeOf?: (value: V) => number,
    private readonly maxBytes = Infinity,
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.bytes -= this.sizeOf?.(old) ?? 0;
    }
    const size = this.sizeOf?.(value) ?? 0;
    if (size > this.maxBytes) return;
    this.map.set(key, value);
    this.bytes += size;
    for (const [oldest, v] of this.map) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.map.delete(oldest);
      this.bytes -= this.sizeOf?.(v) ?? 0;
    }
  }

  delete(key: K): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    this.bytes -= this.sizeOf?.(old) ?? 0;
  }

  get size(): number {
    return this.map.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}

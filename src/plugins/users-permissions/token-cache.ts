/**
 * A bounded, short-lived cache of what a credential grants (a custom API token's actions, keyed by
 * the token's id and the stamp its permissions' writes move), so a request reads its token but not
 * its permissions. Least recently used entries go first once `max` is reached. An entry older than
 * `ttlMs` is read again: writes that bypass the stamp (an app's `strapi.db.query` on the
 * permission entries) are seen within that time.
 * Only `hits` and `misses` counters on the hot path (for logs and health output).
 */
export class CredentialCache<Value> {
  private readonly entries = new Map<string, { value: Value; loadedAt: number }>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly max = 1000,
    private readonly ttlMs = 2000,
  ) {}

  get(key: string, now = Date.now()): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry || now - entry.loadedAt >= this.ttlMs) {
      if (entry) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    // most recently used last (Map keeps insertion order)
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry.value;
  }

  set(key: string, value: Value, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, loadedAt: now });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  invalidate(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

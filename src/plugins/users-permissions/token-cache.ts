/**
 * A bounded, short-lived cache of looked-up credentials (API tokens by the hash of their key), so
 * an authenticated request costs no database command. Least recently used entries go first once
 * `max` is reached. Exact within this process: every change made here (`revoke`, a new token)
 * calls `invalidate`; a change made by another instance sharing the database (or by the `token`
 * command of the CLI) is seen once an entry is older than `ttlMs`.
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

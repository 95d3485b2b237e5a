import type { CredentialsEpoch } from '../../database/credentials-epoch.js';

/**
 * A bounded cache of looked-up credentials (API tokens by the hash of their key), so an
 * authenticated request costs no database command. Least recently used entries go first once
 * `max` is reached. An entry serves while the credentials epoch says its stamp does
 * (`src/database/credentials-epoch.ts`): a change made by any instance ends that. The stamp is
 * taken before the read, so a value read across a change is never served.
 * Only `hits` and `misses` counters on the hot path (for logs and health output).
 */
export class CredentialCache<Value> {
  private readonly entries = new Map<string, { value: Value; stamp: number }>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly epoch: CredentialsEpoch,
    private readonly max = 1000,
  ) {}

  /** The entry of `key`, while the epoch lets it serve. */
  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry || !this.epoch.serves(entry.stamp)) {
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

  /** Keeps `value`, read under `stamp` (taken before the read); nothing is kept while the stamp is unknown. */
  set(key: string, value: Value, stamp: number | undefined): void {
    this.entries.delete(key);
    if (stamp === undefined) return;
    this.entries.set(key, { value, stamp });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

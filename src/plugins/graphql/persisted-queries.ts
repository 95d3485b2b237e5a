/**
 * Automatic persisted queries, as Strapi v4's Apollo Server 3 serves them by default: a client
 * (Apollo Client's persisted-query link) first sends only `extensions.persistedQuery.sha256Hash`;
 * an unknown hash answers `PersistedQueryNotFound`, and the client sends the query with its hash,
 * which is checked and remembered once the query parses and validates; later requests (GET ones,
 * which CDNs cache, above all) carry the hash alone. `apolloServer.persistedQueries: false`
 * turns them off (`PersistedQueryNotSupported`, as Apollo). The store is per process and bounded
 * (least recently used out): a miss only costs the client one more round trip.
 */
import { createHash } from 'node:crypto';
import { isRecord } from './values.js';

/** What a request's operation becomes: itself with its query filled in, or Apollo's answer. */
export type PersistedQueryOutcome =
  | { kind: 'run'; operation: Record<string, unknown>; register?: { hash: string; query: string } }
  | { kind: 'answer'; status: number; body: string };

/** the query text kept in all, in characters */
const STORE_BUDGET = 8 * 1024 * 1024;

const apolloError = (status: number, message: string, code: string): PersistedQueryOutcome => ({
  kind: 'answer',
  status,
  body: JSON.stringify({ errors: [{ message, extensions: { code } }] }),
});

export class PersistedQueries {
  private readonly queries = new Map<string, string>();
  private size = 0;

  constructor(private readonly enabled: boolean) {}

  /**
   * The operation to run for `operation` (a POST body, a GET's parameters, an item of a batch);
   * `extensions` may be a JSON text, as a GET carries it.
   */
  resolve(operation: Record<string, unknown>): PersistedQueryOutcome {
    const extensions = parsedExtensions(operation.extensions);
    const persisted = isRecord(extensions) ? extensions.persistedQuery : undefined;
    if (persisted === undefined || persisted === null) return { kind: 'run', operation };
    if (!this.enabled) return apolloError(200, 'PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED');
    if (!isRecord(persisted) || persisted.version !== 1)
      return apolloError(400, 'Unsupported persisted query version', 'INTERNAL_SERVER_ERROR');
    const hash = typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : '';
    const query = operation.query;
    if (query === undefined || query === null || query === '') {
      const known = this.lookup(hash);
      if (known === undefined) return apolloError(200, 'PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      return { kind: 'run', operation: { ...operation, query: known } };
    }
    if (typeof query !== 'string') return { kind: 'run', operation };
    if (createHash('sha256').update(query).digest('hex') !== hash)
      return apolloError(400, 'provided sha does not match query', 'INTERNAL_SERVER_ERROR');
    return { kind: 'run', operation, register: this.queries.has(hash) ? undefined : { hash, query } };
  }

  /** Remembers a query that parsed and validated. */
  remember({ hash, query }: { hash: string; query: string }): void {
    if (query.length > STORE_BUDGET || this.queries.has(hash)) return;
    this.queries.set(hash, query);
    this.size += query.length;
    for (const [oldest, text] of this.queries) {
      if (this.size <= STORE_BUDGET) break;
      this.queries.delete(oldest);
      this.size -= text.length;
    }
  }

  private lookup(hash: string): string | undefined {
    const query = this.queries.get(hash);
    if (query !== undefined) {
      this.queries.delete(hash);
      this.queries.set(hash, query);
    }
    return query;
  }
}

function parsedExtensions(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

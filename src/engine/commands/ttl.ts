import { valueKey } from '../bson/compare.js';
import type { Catalog } from '../storage/catalog.js';
import { matching } from './matching.js';

/** What the TTL monitor did since start-up, as serverStatus reports it (`metrics.ttl`). */
export interface TtlStats {
  passes: number;
  deletedDocuments: number;
}

/**
 * One pass of the TTL monitor (mongod runs one every 60 s): in every collection, each
 * single-field index with `expireAfterSeconds` deletes the documents whose indexed date (the
 * earliest, for an array) is older than that many seconds. The dates past the cut-off are a range
 * of the index (a `$lt` on a date stays within the dates). Compound TTL indexes expire nothing,
 * as in mongod. Answers the number of documents deleted.
 */
export function expireDocuments(catalog: Catalog, now: number): number {
  let deleted = 0;
  for (const db of catalog.databases()) {
    for (const coll of catalog.collections(db)) {
      for (const index of coll.indexes) {
        const seconds = index.spec.expireAfterSeconds;
        if (typeof seconds !== 'number' || index.fields.length !== 1) continue;
        const cutoff = new Date(now - seconds * 1000);
        for (const doc of matching(coll, { filter: { [index.fields[0]]: { $lt: cutoff } } })) {
          catalog.remove(coll, valueKey(doc._id));
          deleted++;
        }
      }
    }
  }
  return deleted;
}

import type { RelatedEntries } from '../filters/index.js';

type Doc = Record<string, unknown>;
type Aggregate = (uid: string, pipeline: Doc[]) => Promise<Doc[]>;

/**
 * The queries relation filters are pushed down to (filters/push-down.ts), as aggregations on the
 * related content-type's collection (served by its indexes: `$match` first, only `_id` or the
 * inverse field read).
 */
export function relatedEntries(aggregate: Aggregate): RelatedEntries {
  return {
    async ids(uid, match) {
      const docs = await aggregate(uid, [{ $match: match }, { $project: { _id: 1 } }]);
      return docs.map((doc) => doc._id);
    },
    async values(uid, field, match) {
      const docs = await aggregate(uid, [
        { $match: match },
        { $unwind: `$${field}` },
        { $group: { _id: `$${field}` } },
      ]);
      return docs.map((doc) => doc._id);
    },
  };
}

import type { Doc } from '../bson/types.js';
import { compileFilter } from '../query/filter.js';
import { allDocuments, countMatches, matches, sortedMatches } from '../query/plan.js';
import { parseSort, sortDocs } from '../query/sort.js';
import { collationCompare } from '../query/collation.js';
import { compareStrings } from '../bson/compare.js';
import type { Collection } from '../storage/collection.js';
import { filterWork, finish, tick, type Work } from '../work.js';

export interface MatchRequest {
  filter: unknown;
  sort?: unknown;
  collation?: unknown;
  variables?: Doc;
  /** stop after this many matches (in sort order when there is a sort); 0 or absent: no limit */
  limit?: number;
}

/** Stored documents matching a filter (planned on the indexes), optionally sorted; never copies. */
export function matching(coll: Collection | undefined, req: MatchRequest): Doc[] {
  return finish(matchingWork(coll, req));
}

/** `matching` as cooperative work (reads yield between slices; see work.ts). */
export function* matchingWork(coll: Collection | undefined, req: MatchRequest): Work<Doc[]> {
  if (!coll) return [];
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  const sort = parseSort(req.sort);
  const limit = req.limit !== undefined && req.limit > 0 ? req.limit : undefined;
  if (req.collation) {
    const docs = yield* filterWork(allDocuments(coll), predicate);
    if (!sort) return docs.slice(0, limit);
    const sorted = sortDocs(docs, sort, limit, collationCompare(req.collation));
    tick(docs.length);
    return sorted;
  }
  if (!sort) return yield* matches(coll, req.filter, predicate, limit);
  return yield* sortedMatches(coll, req.filter, predicate, sort, limit, compareStrings);
}

/** How many stored documents match a filter (from index entries alone when they express it). */
export function* countMatchingWork(coll: Collection | undefined, req: MatchRequest): Work<number> {
  if (!coll) return 0;
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  if (req.collation) return (yield* filterWork(allDocuments(coll), predicate)).length;
  return yield* countMatches(coll, req.filter, predicate);
}

import type { Doc } from '../bson/types.js';
import { compileFilter } from '../query/filter.js';
import { countMatches, matches, sortedMatches } from '../query/plan.js';
import { parseSort, sortDocs } from '../query/sort.js';
import { collationCompare } from '../query/collation.js';
import { compareStrings } from '../bson/compare.js';
import type { Collection } from '../storage/collection.js';

export interface MatchRequest {
  filter: unknown;
  sort?: unknown;
  collation?: unknown;
  variables?: Doc;
  /** stop after this many matches (in sort order when there is a sort) */
  limit?: number;
}

/** Stored documents matching a filter (planned on the indexes), optionally sorted; never copies. */
export function matching(coll: Collection | undefined, req: MatchRequest): Doc[] {
  if (!coll) return [];
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  const sort = parseSort(req.sort);
  if (req.collation) {
    const docs = [...coll.all()].filter(predicate);
    return sort ? sortDocs(docs, sort, req.limit, collationCompare(req.collation)) : docs.slice(0, req.limit);
  }
  if (!sort) return matches(coll, req.filter, predicate, req.limit);
  return sortedMatches(coll, req.filter, predicate, sort, req.limit, compareStrings);
}

/** How many stored documents match a filter (from index entries alone when they express it). */
export function countMatching(coll: Collection | undefined, req: MatchRequest): number {
  if (!coll) return 0;
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  if (req.collation) return [...coll.all()].filter(predicate).length;
  return countMatches(coll, req.filter, predicate);
}

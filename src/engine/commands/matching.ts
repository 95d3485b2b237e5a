import type { Doc } from '../bson/types.js';
import { compileFilter } from '../query/filter.js';
import { candidates } from '../query/plan.js';
import { parseSort, sortDocs } from '../query/sort.js';
import { collationCompare } from '../query/collation.js';
import type { Collection } from '../storage/collection.js';
import { filterWork, finish, tick, type Work } from '../work.js';

export interface MatchRequest {
  filter: unknown;
  sort?: unknown;
  collation?: unknown;
  variables?: Doc;
  /** stop after this many matches when there is no sort */
  limit?: number;
}

/** Stored documents matching a filter (index-assisted), optionally sorted; never copies. */
export function matching(coll: Collection | undefined, req: MatchRequest): Doc[] {
  return finish(matchingWork(coll, req));
}

/** `matching` as cooperative work (reads yield between slices; see work.ts). */
export function* matchingWork(coll: Collection | undefined, req: MatchRequest): Work<Doc[]> {
  if (!coll) return [];
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  const pool = req.collation ? [...coll.all()] : candidates(coll, req.filter);
  const sort = parseSort(req.sort);
  if (!sort && req.limit !== undefined && req.limit > 0) {
    const out: Doc[] = [];
    for (const d of pool) {
      if (predicate(d)) out.push(d);
      if (out.length >= req.limit) break;
      if (tick()) yield;
    }
    return out;
  }
  const docs = yield* filterWork(pool, predicate);
  if (!sort) return docs;
  const sorted = sortDocs(docs, sort, req.limit, req.collation ? collationCompare(req.collation) : undefined);
  tick(docs.length);
  return sorted;
}

import { isPlainObject, type Doc } from '../bson/types.js';
import { valueKey } from '../bson/compare.js';
import { commandError } from '../errors.js';
import { compileFilter } from '../query/filter.js';
import { allDocuments, countMatches, matches, sortedMatches, type Hint } from '../query/plan.js';
import { parseSort, sortDocs } from '../query/sort.js';
import { collationCompare } from '../query/collation.js';
import { compareStrings } from '../bson/compare.js';
import type { Collection } from '../storage/collection.js';
import type { OverlayOf } from '../storage/overlay.js';
import { filterWork, finish, tick, type Work } from '../work.js';

export interface MatchRequest {
  filter: unknown;
  sort?: unknown;
  collation?: unknown;
  variables?: Doc;
  /** stop after this many matches (in sort order when there is a sort); 0 or absent: no limit */
  limit?: number;
  /** the access path the command's `hint` imposes (see resolveHint) */
  hint?: Hint;
  /** what the command reads instead of other transactions' uncommitted writes (none: the stored documents) */
  overlay?: OverlayOf;
}

/** Documents matching a filter (planned on the indexes), optionally sorted; never copies. */
export function matching(coll: Collection | undefined, req: MatchRequest): Doc[] {
  return finish(matchingWork(coll, req));
}

/** `matching` as cooperative work (reads yield between slices; see work.ts). */
export function* matchingWork(coll: Collection | undefined, req: MatchRequest): Work<Doc[]> {
  if (!coll) return [];
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  const sort = parseSort(req.sort);
  const limit = req.limit !== undefined && req.limit > 0 ? req.limit : undefined;
  const overlay = req.overlay?.(coll);
  if (req.collation) {
    const docs = yield* filterWork(allDocuments(coll, overlay), predicate);
    if (!sort) return docs.slice(0, limit);
    const sorted = sortDocs(docs, sort, limit, collationCompare(req.collation));
    tick(docs.length);
    return sorted;
  }
  if (!sort) return yield* matches(coll, req.filter, predicate, limit, req.hint, overlay);
  return yield* sortedMatches(coll, req.filter, predicate, sort, limit, compareStrings, req.hint, overlay);
}

/** How many documents match a filter (from index entries alone when they express it). */
export function* countMatchingWork(coll: Collection | undefined, req: MatchRequest): Work<number> {
  if (!coll) return 0;
  const predicate = compileFilter(req.filter, { collation: req.collation, variables: req.variables });
  const overlay = req.overlay?.(coll);
  if (req.collation) return (yield* filterWork(allDocuments(coll, overlay), predicate)).length;
  return yield* countMatches(coll, req.filter, predicate, req.hint, overlay);
}

/**
 * The access path a `hint` names: an index by name or key pattern (not hidden), `{ $natural }`
 * for a collection scan; none for an absent or empty hint or a missing collection (mongod
 * checks hints against existing indexes only). BadValue as mongod when no index matches.
 */
export function resolveHint(coll: Collection | undefined, raw: unknown): Hint | undefined {
  if (raw === undefined || raw === null || !coll) return undefined;
  if (isPlainObject(raw)) {
    if (Object.keys(raw).length === 0) return undefined;
    if (raw.$natural !== undefined) return 'natural';
  } else if (typeof raw !== 'string') throw commandError('FailedToParse', 'hint must be a string or an object');
  const index = coll.indexes.find(
    (ix) =>
      !ix.spec.hidden && (typeof raw === 'string' ? ix.spec.name === raw : valueKey(ix.spec.key) === valueKey(raw)),
  );
  if (!index)
    throw commandError(
      'BadValue',
      `error processing query: ns=${coll.ns} planner returned error :: caused by :: hint provided does not correspond to an existing index`,
    );
  return index;
}

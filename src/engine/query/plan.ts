import { compareValues } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import type { Collection } from '../storage/collection.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';

/**
 * Chooses the documents a filter can possibly match using `_id` and declared indexes: equality and
 * `$in` on an indexed field (first field of the index), or a range (`$gt/$gte/$lt/$lte`). The
 * filter itself is still applied to every candidate, so the plan only has to be a superset.
 * Returns all documents (natural order) when no index applies.
 */
export function candidates(coll: Collection, filter: unknown): Doc[] {
  const ids = indexedIds(coll, filter);
  if (!ids) return [...coll.all()];
  return coll.inNaturalOrder(ids);
}

function indexedIds(coll: Collection, filter: unknown): Set<string> | undefined {
  if (!isPlainObject(filter)) return undefined;
  let best: Set<string> | undefined;
  const consider = (s: Set<string> | undefined) => {
    if (s && (!best || s.size < best.size)) best = s;
  };
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const sub of cond) consider(indexedIds(coll, sub));
      continue;
    }
    if (field.startsWith('$')) continue;
    const ix = coll.indexOn(field);
    if (!ix) continue;
    consider(idsFor(coll, ix, cond));
    if (best && best.size === 0) return best;
  }
  return best;
}

function isScalarKey(v: unknown): boolean {
  return (
    !Array.isArray(v) &&
    !isPlainObject(v) &&
    !(v instanceof RegExp) &&
    (v as { _bsontype?: string } | null)?._bsontype !== 'BSONRegExp'
  );
}

function idsFor(coll: Collection, ix: SecondaryIndex, cond: unknown): Set<string> | undefined {
  if (isScalarKey(cond)) return ix.lookup([cond]);
  if (!isPlainObject(cond)) return undefined;
  const keys = Object.keys(cond);
  if (keys.length === 0 || keys.some((k) => !k.startsWith('$'))) return undefined;
  let best: Set<string> | undefined;
  const consider = (s: Set<string> | undefined) => {
    if (s && (!best || s.size < best.size)) best = s;
  };
  if ('$eq' in cond && isScalarKey(cond.$eq)) consider(ix.lookup([cond.$eq]));
  if ('$in' in cond && Array.isArray(cond.$in) && cond.$in.every(isScalarKey)) consider(ix.lookup(cond.$in));
  const lo = '$gte' in cond ? { v: cond.$gte, inc: true } : '$gt' in cond ? { v: cond.$gt, inc: false } : undefined;
  const hi = '$lte' in cond ? { v: cond.$lte, inc: true } : '$lt' in cond ? { v: cond.$lt, inc: false } : undefined;
  if ((lo && isScalarKey(lo.v) && lo.v !== null) || (hi && isScalarKey(hi.v) && hi.v !== null)) {
    consider(rangeIds(coll, ix, lo, hi));
  }
  return best;
}

/** Binary search in the index's sorted view; bounds are inclusive supersets (type bracketing is left to the filter). */
function rangeIds(coll: Collection, ix: SecondaryIndex, lo?: { v: unknown }, hi?: { v: unknown }): Set<string> {
  const entries = ix.sortedEntries(() => coll.entries());
  let start = 0;
  let end = entries.length;
  if (lo) start = lowerBound(entries, lo.v);
  if (hi) end = upperBound(entries, hi.v);
  const out = new Set<string>();
  for (let i = start; i < end; i++) out.add(entries[i].id);
  return out;
}

function lowerBound(entries: Array<{ value: unknown }>, v: unknown): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareValues(entries[mid].value, v) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(entries: Array<{ value: unknown }>, v: unknown): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareValues(entries[mid].value, v) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

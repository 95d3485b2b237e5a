import { compareStrings, compareValues, type StringCompare } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import type { Doc } from '../bson/types.js';
import type { Collection } from '../storage/collection.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';
import { filterBounds, indexBounds, type FilterBounds, type KeyRange } from './index-bounds.js';
import { sortDocs, type SortSpec } from './sort.js';
import { executorStats } from './stats.js';
import { filterWork, tick, type Work } from '../work.js';

/** A filter's access path: the key ranges of one index (positions in its entries), or a full scan. */
interface AccessPlan {
  index?: SecondaryIndex;
  /** [start, end) positions in the index's entries, in index order, disjoint */
  spans: Array<[number, number]>;
  /** entries in the spans (documents in a full scan) */
  count: number;
  /** counting the entries counts the matching documents */
  exact: boolean;
  /** the documents reached are the matching ones */
  setExact: boolean;
  /** candidates found otherwise (a trigram index), instead of spans; `count` is then an upper bound */
  docs?: () => Doc[];
}

/**
 * The cheapest access path for a filter: for every index whose first field the filter bounds,
 * the number of entries in its ranges is counted (two O(log n) look-ups per range), and the
 * smallest wins (an exact one on ties). Without bounds: a scan of the collection.
 */
function accessPlan(coll: Collection, bounds: FilterBounds): AccessPlan {
  let best: AccessPlan | undefined;
  for (const index of coll.indexes) {
    const plan = indexPlan(index, bounds);
    if (plan && (!best || plan.count < best.count || (plan.count === best.count && plan.exact && !best.exact)))
      best = plan;
  }
  for (const { field, literal } of bounds.texts) {
    // substring candidates for fields the application indexed (an index on the field opts it in)
    if (!coll.indexes.some((ix) => ix.fields[0] === field)) continue;
    const trigrams = coll.trigramIndex(field);
    const count = trigrams.estimate(literal);
    if (!best || count < best.count)
      best = { spans: [], docs: () => trigrams.candidates(literal), count, exact: false, setExact: false };
  }
  const all = bounds.fields.size === 0 && !bounds.residual;
  return best ?? { spans: [], count: coll.size, exact: all, setExact: all };
}

function indexPlan(index: SecondaryIndex, bounds: FilterBounds): AccessPlan | undefined {
  const found = indexBounds(index, bounds);
  if (!found) return undefined;
  const spans = positions(index, found.ranges);
  const count = spans.reduce((n, [a, b]) => n + b - a, 0);
  return { index, spans, count, exact: found.exact, setExact: found.setExact };
}

function positions(index: SecondaryIndex, ranges: KeyRange[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const r of ranges) {
    const start = index.entries.rank(r.lo, r.loTail);
    const end = index.entries.rank(r.hi, r.hiTail);
    if (end > start) spans.push([start, end]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return merged;
}

/** The documents an access plan reaches, each once, in index order (natural order for a scan). */
function reach(coll: Collection, plan: AccessPlan): Doc[] {
  if (plan.docs) {
    const docs = plan.docs();
    executorStats.scanned += docs.length;
    return docs;
  }
  const index = plan.index;
  if (!index) {
    executorStats.scannedObjects += coll.size;
    return [...coll.all()];
  }
  executorStats.scanned += plan.count;
  const docs: Doc[] = [];
  const collect = (_key: unknown, doc: Doc) => {
    docs.push(doc);
    return true;
  };
  for (const [a, b] of plan.spans) index.entries.scan(a, b, 1, collect);
  return index.multikey ? [...new Set(docs)] : docs;
}

/**
 * Chooses the documents a filter can possibly match using `_id` and declared indexes: equality,
 * `$in`, ranges, `$ne`, on one field or on an index's leading fields. The filter itself is still
 * applied to every candidate, so the plan only has to be a superset. Natural order.
 */
export function candidates(coll: Collection, filter: unknown): Doc[] {
  return coll.inNaturalOrder(reach(coll, accessPlan(coll, filterBounds(filter))));
}

/**
 * Documents whose `field` equals one of `values` (scalars; null also finds missing), as a
 * `$lookup` equality join reads them, in natural order.
 */
export function equalTo(coll: Collection, field: string, values: unknown[]): Doc[] {
  const plan = accessPlan(coll, filterBounds({ [field]: { $in: values } }));
  const pool = reach(coll, plan);
  if (plan.setExact) return coll.inNaturalOrder(pool);
  executorStats.scannedObjects += pool.length;
  const equal = (v: unknown) => values.some((w) => compareValues(v === undefined ? null : v, w) === 0);
  return coll.inNaturalOrder(pool.filter((doc) => pathValues(doc, field).some(equal)));
}

/** Matches of a filter in natural order, at most `limit`. */
export function* matches(
  coll: Collection,
  filter: unknown,
  predicate: (d: Doc) => boolean,
  limit?: number,
): Work<Doc[]> {
  const plan = accessPlan(coll, filterBounds(filter));
  if (limit === undefined) return coll.inNaturalOrder(yield* checked(reach(coll, plan), predicate));
  // with a limit, the first matches in natural order: order the candidates first
  const out: Doc[] = [];
  for (const d of coll.inNaturalOrder(reach(coll, plan))) {
    if (out.length >= limit) break;
    executorStats.scannedObjects++;
    if (predicate(d)) out.push(d);
    if (tick()) yield;
  }
  return out;
}

/** The documents of `pool` that pass `predicate`, each counted as a document examined. */
function checked(pool: Doc[], predicate: (d: Doc) => boolean): Work<Doc[]> {
  executorStats.scannedObjects += pool.length;
  return filterWork(pool, predicate);
}

/**
 * The number of documents a filter matches. When an index's ranges express the whole filter, the
 * number of entries in them (no document is read: O(log n) per range); otherwise the candidates
 * are checked.
 */
export function* countMatches(coll: Collection, filter: unknown, predicate: (d: Doc) => boolean): Work<number> {
  const bounds = filterBounds(filter);
  const plan = accessPlan(coll, bounds);
  if (plan.exact) {
    executorStats.scanned += plan.spans.length * 2;
    return plan.count;
  }
  return (yield* checked(reach(coll, plan), predicate)).length;
}

/**
 * The first `take` matches of a filter in `sort` order. An index whose first field is the first
 * sort key is walked in that order (entries with equal values are ordered by the rest of the
 * spec, group by group) until the window is full, when that looks cheaper than reading every
 * candidate of the best filter plan: the walk gets as many steps as that plan has candidates,
 * then gives up. Otherwise (and without `take`): candidates, filter, (top-k) sort.
 */
export function* sortedMatches(
  coll: Collection,
  filter: unknown,
  predicate: (d: Doc) => boolean,
  sort: SortSpec,
  take: number | undefined,
  strings: StringCompare,
): Work<Doc[]> {
  const bounds = filterBounds(filter);
  const plan = accessPlan(coll, bounds);
  if (take !== undefined && plan.count > take) {
    const walked = walkInOrder(coll, bounds, predicate, sort, take, plan.count, strings);
    if (walked) return walked;
  }
  const docs = yield* checked(reach(coll, plan), predicate);
  // natural order first, so that documents with equal sort keys keep it
  const sorted = sortDocs(coll.inNaturalOrder(docs), sort, take, strings);
  tick(docs.length);
  return sorted;
}

/** An index that yields documents in the order of the sort's first key (not through arrays). */
function orderingIndex(coll: Collection, field: string): SecondaryIndex | undefined {
  let best: SecondaryIndex | undefined;
  for (const index of coll.indexes) {
    if (index.fields[0] !== field || index.multikeyFields.has(0) || index.sparse) continue;
    if (!best || index.fields.length < best.fields.length) best = index;
  }
  return best;
}

function walkInOrder(
  coll: Collection,
  bounds: FilterBounds,
  predicate: (d: Doc) => boolean,
  sort: SortSpec,
  take: number,
  budget: number,
  strings: StringCompare,
): Doc[] | undefined {
  const [field, direction] = sort[0];
  const index = orderingIndex(coll, field);
  if (!index || strings !== compareStrings) return undefined;
  const spans = indexBounds(index, bounds)?.ranges ?? [{ lo: undefined, loTail: -1, hi: undefined, hiTail: 1 }];
  const walk = spans[0].lo === undefined ? [[0, index.entries.size] as [number, number]] : positions(index, spans);
  const scanDirection = (direction * index.directions[0]) as 1 | -1;
  const first = index.fields.length === 1 ? (key: unknown) => key : (key: unknown) => (key as unknown[])[0];
  // a forward walk of a single-field index already orders equal values by _id
  const inOrder =
    index.fields.length === 1 &&
    scanDirection === 1 &&
    (sort.length === 1 || (sort.length === 2 && sort[1][0] === '_id' && sort[1][1] === 1));
  const out: Doc[] = [];
  let group: Doc[] = [];
  let groupKey: unknown = undefined;
  let steps = 0;
  let full = false;
  const visit = (key: unknown, doc: Doc): boolean => {
    if (!inOrder) {
      const value = first(key);
      if (group.length > 0 && compareValues(value, groupKey) !== 0) {
        appendGroup(out, group, sort, strings);
        group = [];
        if (out.length >= take) {
          full = true;
          return false;
        }
      }
      groupKey = value;
    }
    if (++steps > budget) return false;
    // the walk is bounded by the plan's candidates; tick() still stops it at the time budget
    tick();
    executorStats.scannedObjects++;
    if (!predicate(doc)) return true;
    if (!inOrder) group.push(doc);
    else if (out.push(doc) >= take) full = true;
    return !full;
  };
  const ordered = scanDirection === 1 ? walk : [...walk].reverse();
  for (const [a, b] of ordered) {
    index.entries.scan(a, b, scanDirection, visit);
    if (full || steps > budget) break;
  }
  executorStats.scanned += Math.min(steps, budget);
  if (!full && steps > budget) return undefined;
  appendGroup(out, group, sort, strings);
  return out.slice(0, take);
}

/** Documents with one value of the first sort key, put in the order of the rest of the spec. */
function appendGroup(out: Doc[], group: Doc[], sort: SortSpec, strings: StringCompare): void {
  for (const d of group.length > 1 ? sortDocs(group, sort, undefined, strings) : group) out.push(d);
}

import { compareStrings, compareValues, type StringCompare } from '../bson/compare.js';
import { TypeEdge } from '../storage/index-keys.js';
import { pathValues } from '../bson/path.js';
import type { Doc } from '../bson/types.js';
import type { Collection } from '../storage/collection.js';
import { committedVersions, countAdjustment, seenCandidates, seenDocuments, type Overlay } from '../storage/overlay.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';
import { foldCase, type TrigramIndex } from '../storage/trigram-index.js';
import {
  filterBounds,
  filterWithout,
  indexBounds,
  keyChecks,
  keyTest,
  type FilterBounds,
  type Interval,
  type KeyRange,
  type TextCondition,
} from './index-bounds.js';
import { countKeysByRank } from './key-count.js';
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
  /** the intervals of the index's leading fields (see IndexBounds) */
  intervals?: Interval[][];
  /** the literal whose trigram candidates are read (`docs`) */
  substring?: { field: string; literal: string };
  /** the plans of an `$or`'s branches whose documents `docs` unites */
  union?: AccessPlan[];
}

/** An index a command's `hint` names (visible, existing), or `$natural`: a collection scan. */
export type Hint = SecondaryIndex | 'natural';

/** What the planner did for one read, as `explain` reports it (commands/explain.ts renders it). */
export interface PlanChoice {
  /** the index read; none: a scan of the collection in natural order */
  index?: SecondaryIndex;
  /** the intervals of the index's leading fields; later fields (or none at all): every value */
  intervals: Interval[][];
  /** the candidates of an unanchored regex, through the trigrams of the indexed field */
  substring?: { field: string; literal: string };
  /** the branches of an `$or` read one by one (each with its index), their documents united */
  union?: PlanChoice[];
  /** the index is walked in this direction of its own order */
  direction: 1 | -1;
  /** the answer is the number of index entries in range: no document is read */
  countOnly: boolean;
  /** the documents come out in the requested sort order (an index walk): no sort stage */
  sorted: boolean;
  /** the documents reached are exactly the matches: the filter is not evaluated on them */
  covered: boolean;
  /** documents (or, counting, 0) this access handed on */
  returned: number;
}

let recorder: ((choice: PlanChoice) => void) | undefined;

/**
 * Runs `read` (synchronously) and answers, with its result, the plan choices it made, outermost
 * first: the first is the command's own access, later ones come from joins.
 */
export function recordingPlans<T>(read: () => T): { result: T; plans: PlanChoice[] } {
  const plans: PlanChoice[] = [];
  const saved = recorder;
  recorder = (choice) => plans.push(choice);
  try {
    return { result: read(), plans };
  } finally {
    recorder = saved;
  }
}

/** Notes a plan's use: the index's access count ($indexStats), the choice for a recording explain. */
function record(plan: AccessPlan, returned: number, how: Partial<PlanChoice> = {}): void {
  for (const used of plan.union ?? [plan]) if (used.index) used.index.accesses.ops++;
  recorder?.({ ...choiceOf(plan), returned, ...how });
}

function choiceOf(plan: AccessPlan): PlanChoice {
  return {
    index: plan.index,
    intervals: plan.intervals ?? [],
    substring: plan.substring,
    union: plan.union?.map(choiceOf),
    direction: 1,
    countOnly: false,
    sorted: false,
    covered: plan.setExact && plan.index !== undefined,
    returned: 0,
  };
}

/**
 * The cheapest access path for a filter: for every index whose first field the filter bounds,
 * the number of entries in its ranges is counted (two O(log n) look-ups per range), and the
 * smallest wins (an exact one on ties). Without bounds: a scan of the collection.
 */
function accessPlan(coll: Collection, bounds: FilterBounds, hint?: Hint): AccessPlan {
  if (hint !== undefined) return hintedPlan(coll, bounds, hint);
  let best: AccessPlan | undefined;
  for (const index of coll.indexes) {
    if (index.spec.hidden) continue; // kept up to date, not used by queries
    const plan = indexPlan(index, bounds);
    if (plan && (!best || plan.count < best.count || (plan.count === best.count && plan.exact && !best.exact)))
      best = plan;
  }
  for (const text of bounds.texts) {
    const trigrams = textIndex(coll, text);
    if (!trigrams) continue;
    const count = trigrams.index.estimate(text.literal);
    if (!best || count < best.count)
      best = {
        index: trigrams.fieldIndex,
        spans: [],
        // an exact text's candidates are settled on the trigram index's folded values
        docs: () =>
          text.exact ? textMatches(trigrams.index, text.literal) : textCandidates(trigrams.index, text.literal),
        count,
        exact: false,
        setExact: false,
        substring: { field: text.field, literal: text.literal },
      };
  }
  for (const branches of bounds.unions) {
    const union = unionPlan(coll, branches);
    if (union && union.count < coll.size && (!best || union.count < best.count)) best = union;
  }
  const all = bounds.fields.size === 0 && !bounds.residual;
  return best ?? { spans: [], count: coll.size, exact: all, setExact: all };
}

/**
 * An `$or` over several fields (a filter through two relations, pushed down to `$in`s of ids) as
 * the union of its branches' own plans, when each has one that is not a scan: the documents any
 * branch reaches, each once (the whole filter is then applied to them). MongoDB's OR stage.
 */
function unionPlan(coll: Collection, branches: unknown[]): AccessPlan | undefined {
  const plans: AccessPlan[] = [];
  let count = 0;
  for (const branch of branches) {
    const plan = accessPlan(coll, filterBounds(branch));
    if (!plan.index) return undefined;
    plans.push(plan);
    count += plan.count;
  }
  return {
    spans: [],
    count,
    exact: false,
    setExact: false,
    union: plans,
    docs: () => {
      const reached = new Set<Doc>();
      for (const plan of plans) for (const doc of reachStored(coll, plan)) reached.add(doc);
      return [...reached];
    },
  };
}

/**
 * The trigram index of a text condition's field, for fields the application indexed (an index
 * whose first field it is opts the field in), with that index (explain names it).
 */
function textIndex(
  coll: Collection,
  text: TextCondition,
): { index: TrigramIndex; fieldIndex: SecondaryIndex } | undefined {
  const fieldIndex = coll.indexes.find((ix) => ix.fields[0] === text.field && !ix.spec.hidden);
  return fieldIndex && { index: coll.trigramIndex(text.field), fieldIndex };
}

/** The number of documents matching an exact text condition, its settled candidates counted as keys examined. */
function textMatchCount(index: TrigramIndex, literal: string): number {
  const { count, settled } = index.matchCount(literal);
  executorStats.scanned += settled;
  return count;
}

/** The documents that may match a text condition, counted as keys examined. */
function textCandidates(index: TrigramIndex, literal: string): Doc[] {
  const docs = index.candidates(literal);
  executorStats.scanned += docs.length;
  return docs;
}

/** The documents matching an exact text condition, its settled candidates counted as keys examined. */
function textMatches(index: TrigramIndex, literal: string): Doc[] {
  const { docs, settled } = index.matches(literal);
  executorStats.scanned += settled;
  return docs;
}

/** The plan a hint imposes: its index's ranges (all of its entries when the filter does not bound it), or a scan. */
function hintedPlan(coll: Collection, bounds: FilterBounds, hint: Hint): AccessPlan {
  const all = bounds.fields.size === 0 && !bounds.residual;
  if (hint === 'natural') return { spans: [], count: coll.size, exact: all, setExact: all };
  const size = hint.entries.size;
  return indexPlan(hint, bounds) ?? { index: hint, spans: [[0, size]], count: size, exact: false, setExact: false };
}

function indexPlan(index: SecondaryIndex, bounds: FilterBounds): AccessPlan | undefined {
  const found = indexBounds(index, bounds);
  if (!found) return undefined;
  const spans = positions(index, found.ranges);
  const count = spans.reduce((n, [a, b]) => n + b - a, 0);
  return { index, spans, count, exact: found.exact, setExact: found.setExact, intervals: found.intervals };
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

/**
 * The documents an access plan reaches, each once, in index order (natural order for a scan); read
 * through an overlay, a superset of the documents seen that match (the caller applies the filter).
 */
function reach(coll: Collection, plan: AccessPlan, overlay: Overlay | undefined): Doc[] {
  const stored = reachStored(coll, plan);
  return overlay ? seenCandidates(stored, overlay) : stored;
}

function reachStored(coll: Collection, plan: AccessPlan): Doc[] {
  // the candidates count themselves as keys examined
  if (plan.docs) return plan.docs();
  const index = plan.index;
  // a scan's documents are counted as examined where the filter is applied to them
  if (!index) return [...coll.all()];
  executorStats.scanned += plan.count;
  const docs: Doc[] = [];
  const collect = (_key: unknown, doc: Doc) => {
    docs.push(doc);
    return true;
  };
  for (const [a, b] of plan.spans) index.entries.scan(a, b, 1, collect);
  return index.multikey ? [...new Set(docs)] : docs;
}

/*
 * Each read below takes the overlay of other transactions' uncommitted writes (storage/overlay.ts)
 * from its caller, taken in the same synchronous step as the call: it reaches the stored documents
 * before its first yield, and answers what the overlay's reader sees.
 */

/**
 * Chooses the documents a filter can possibly match using `_id` and declared indexes: equality,
 * `$in`, ranges, `$ne`, on one field or on an index's leading fields. The filter itself is still
 * applied to every candidate, so the plan only has to be a superset. Natural order.
 */
export function candidates(coll: Collection, filter: unknown, overlay: Overlay | undefined): Doc[] {
  const plan = accessPlan(coll, filterBounds(filter));
  const docs = coll.inNaturalOrder(reach(coll, plan, overlay));
  if (!plan.index) executorStats.scannedObjects += docs.length;
  record(plan, docs.length, { covered: false });
  return docs;
}

/** Every document in natural order (a collection scan: each counts as examined). */
export function allDocuments(coll: Collection, overlay: Overlay | undefined): Doc[] {
  const docs = seenDocuments(coll, overlay);
  executorStats.scannedObjects += docs.length;
  recorder?.({ intervals: [], direction: 1, countOnly: false, sorted: false, covered: false, returned: docs.length });
  return docs;
}

/**
 * Documents whose `field` equals one of `values` (scalars; null also finds missing), as a
 * `$lookup` equality join reads them, in natural order.
 */
export function equalTo(coll: Collection, field: string, values: unknown[], overlay: Overlay | undefined): Doc[] {
  // a populate's join on ids, the commonest: no plan to choose (an explain records the general one)
  if (field === '_id' && !overlay && !recorder) return byIds(coll, values);
  const plan = accessPlan(coll, filterBounds({ [field]: { $in: values } }));
  const pool = reach(coll, plan, overlay);
  // the committed versions an overlay adds are not from the index's range: checked below
  if (plan.setExact && !overlay) {
    record(plan, pool.length);
    return coll.inNaturalOrder(pool);
  }
  executorStats.scannedObjects += pool.length;
  const equal = (v: unknown) => values.some((w) => compareValues(v === undefined ? null : v, w) === 0);
  const docs = coll.inNaturalOrder(pool.filter((doc) => pathValues(doc, field).some(equal)));
  record(plan, docs.length);
  return docs;
}

/** The documents of `ids` (key scalars), counted as the `_id` index's plan counts them. */
function byIds(coll: Collection, ids: unknown[]): Doc[] {
  const docs: Doc[] = [];
  const found = new Set<Doc>();
  for (const id of ids) {
    const doc = coll.getById(id);
    if (doc && !found.has(doc)) {
      found.add(doc);
      docs.push(doc);
    }
  }
  executorStats.scanned += docs.length;
  coll.idIndex.accesses.ops++;
  return coll.inNaturalOrder(docs);
}

/** Matches of a filter in natural order, at most `limit`. */
export function* matches(
  coll: Collection,
  filter: unknown,
  predicate: (d: Doc) => boolean,
  limit: number | undefined,
  hint: Hint | undefined,
  overlay: Overlay | undefined,
): Work<Doc[]> {
  const plan = accessPlan(coll, filterBounds(filter), hint);
  if (limit === undefined) {
    const docs = coll.inNaturalOrder(yield* checked(reach(coll, plan, overlay), predicate));
    record(plan, docs.length);
    return docs;
  }
  // with a limit, the first matches in natural order: order the candidates first
  const out: Doc[] = [];
  for (const d of coll.inNaturalOrder(reach(coll, plan, overlay))) {
    if (out.length >= limit) break;
    executorStats.scannedObjects++;
    if (predicate(d)) out.push(d);
    if (tick()) yield;
  }
  record(plan, out.length);
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
 * are checked. Through an overlay: the count of the stored documents, adjusted by the few the
 * overlay covers (each way of counting counts exactly the stored documents that match).
 */
export function* countMatches(
  coll: Collection,
  filter: unknown,
  predicate: (d: Doc) => boolean,
  hint: Hint | undefined,
  overlay: Overlay | undefined,
): Work<number> {
  // taken with the stored documents it corrects, before any yield
  const adjustment = countAdjustment(overlay, predicate);
  const bounds = filterBounds(filter);
  const plan = accessPlan(coll, bounds, hint);
  if (hint === undefined && !plan.exact) {
    const counted = textCount(coll, filter, bounds, plan.count);
    if (counted !== undefined) return counted + adjustment;
  }
  if (plan.exact) {
    executorStats.scanned += plan.spans.length * 2;
    record(plan, 0, { countOnly: true, covered: true });
    return plan.count + adjustment;
  }
  const checks = plan.index && !plan.docs ? keyChecks(plan.index, bounds, plan.intervals ?? []) : undefined;
  if (plan.index && checks) {
    const probes = { n: 0 };
    const ranked = countKeysByRank(plan.index, plan.spans, checks, probes);
    if (ranked !== undefined) {
      executorStats.scanned += probes.n;
      record(plan, 0, { countOnly: true, covered: true });
      return ranked + adjustment;
    }
  }
  if (plan.index && checks) {
    const test = keyTest(plan.index, checks);
    // every condition is settled on the keys in range: count them, no document read
    let n = 0;
    const count = (key: unknown) => {
      if (test(key)) n++;
      return true;
    };
    for (const [a, b] of plan.spans) plan.index.entries.scan(a, b, 1, count);
    executorStats.scanned += plan.count;
    record(plan, 0, { countOnly: true, covered: true });
    // the keys read count toward the next yield, as documents read would
    if (tick(plan.count)) yield;
    return n + adjustment;
  }
  const n = (yield* checked(reachStored(coll, plan), predicate)).length;
  record(plan, n);
  return n + adjustment;
}

/**
 * The count of a filter with an exact text condition on a trigram-indexed field, without reading
 * a document, when the rest of the filter is nothing or one index's ranges exactly: the documents
 * in those ranges whose folded values contain the literal, or, when the ranges hold most of the
 * index, the text's matches less those outside them. Undefined when that does not apply or would
 * examine more keys than the best plan has documents to check (`budget`).
 */
function textCount(coll: Collection, filter: unknown, bounds: FilterBounds, budget: number): number | undefined {
  for (const text of bounds.texts) {
    const trigrams = text.exact ? textIndex(coll, text) : undefined;
    if (!trigrams) continue;
    const restBounds = filterBounds(filterWithout(filter, text.owner, text.field));
    const recordCount = (n: number) => {
      const substring = { field: text.field, literal: text.literal };
      const plan = { index: trigrams.fieldIndex, spans: [], count: n, exact: true, setExact: true, substring };
      record(plan, 0, { countOnly: true });
      return n;
    };
    if (restBounds.fields.size === 0 && !restBounds.residual)
      return recordCount(textMatchCount(trigrams.index, text.literal));
    const rest = accessPlan(coll, restBounds);
    const index = rest.index;
    if (!index || !rest.exact || rest.docs || index.multikey) continue;
    const inside = rest.count;
    // one entry per document: the entries outside the ranges are the other documents
    const outside = index.entries.size === coll.size ? index.entries.size - inside : Infinity;
    if (Math.min(inside, outside) > budget) continue;
    const needle = foldCase(text.literal);
    let found = 0;
    const contains = (_key: unknown, doc: Doc) => {
      if (trigrams.index.contains(doc, needle)) found++;
      return true;
    };
    if (inside <= outside) {
      for (const [a, b] of rest.spans) index.entries.scan(a, b, 1, contains);
      executorStats.scanned += inside;
      return recordCount(found);
    }
    let from = 0;
    for (const [a, b] of [...rest.spans, [index.entries.size, index.entries.size]]) {
      if (a > from) index.entries.scan(from, a, 1, contains);
      from = b;
    }
    executorStats.scanned += outside;
    return recordCount(textMatchCount(trigrams.index, text.literal) - found);
  }
  return undefined;
}

/**
 * The first `take` matches of a filter in `sort` order. An index on the first sort key (see
 * orderingIndex) is walked in that order (entries with equal values are ordered by the rest of the
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
  hint: Hint | undefined,
  overlay: Overlay | undefined,
): Work<Doc[]> {
  const bounds = filterBounds(filter);
  const plan = accessPlan(coll, bounds, hint);
  // a hint fixes the access path: no walk of another index
  if (take !== undefined && plan.count > take && hint === undefined) {
    const walked = walkInOrder(coll, bounds, predicate, sort, take, plan.count, strings, overlay);
    if (walked) return walked;
  }
  const docs = yield* checked(reach(coll, plan, overlay), predicate);
  // natural order first, so that documents with equal sort keys keep it
  const sorted = sortDocs(coll.inNaturalOrder(docs), sort, take, strings);
  tick(docs.length);
  record(plan, docs.length);
  return sorted;
}

/**
 * An index that yields documents in the order of the sort's first key (not through arrays): that
 * key is its first field, or follows leading fields the filter pins to one value each (an
 * equality-pinned prefix: `{ category: 1, order: 1 }` walks one category in `order`). Answers the
 * index and the position of the sort key in it; the most pinned fields win (the shortest walk),
 * then the fewest fields after the sort key.
 */
function orderingIndex(
  coll: Collection,
  bounds: FilterBounds,
  field: string,
): { index: SecondaryIndex; position: number } | undefined {
  let best: { index: SecondaryIndex; position: number } | undefined;
  for (const index of coll.indexes) {
    if (index.spec.hidden || index.sparse) continue;
    const position = index.fields.indexOf(field);
    if (position < 0) continue;
    const leading = index.fields.slice(0, position + 1);
    if (leading.some((_f, f) => index.multikeyFields.has(f))) continue;
    if (!leading.slice(0, position).every((f) => isPinned(bounds, f))) continue;
    const better =
      !best ||
      position > best.position ||
      (position === best.position && index.fields.length < best.index.fields.length);
    if (better) best = { index, position };
  }
  return best;
}

/** Whether the filter's conjunction holds `field` to a single value (equality, `$in` of one). */
function isPinned(bounds: FilterBounds, field: string): boolean {
  return (bounds.fields.get(field) ?? []).some(
    ({ intervals: [only, ...others] }) =>
      only !== undefined &&
      others.length === 0 &&
      only.loInc &&
      only.hiInc &&
      !(only.lo instanceof TypeEdge) &&
      !(only.hi instanceof TypeEdge) &&
      compareValues(only.lo, only.hi) === 0,
  );
}

function walkInOrder(
  coll: Collection,
  bounds: FilterBounds,
  predicate: (d: Doc) => boolean,
  sort: SortSpec,
  take: number,
  budget: number,
  strings: StringCompare,
  overlay: Overlay | undefined,
): Doc[] | undefined {
  const [field, direction] = sort[0];
  const ordering = orderingIndex(coll, bounds, field);
  if (!ordering || strings !== compareStrings) return undefined;
  const { index, position } = ordering;
  const found = indexBounds(index, bounds);
  const spans = found?.ranges ?? [{ lo: undefined, loTail: -1, hi: undefined, hiTail: 1 }];
  const walk =
    spans.length > 0 && spans[0].lo === undefined
      ? [[0, index.entries.size] as [number, number]]
      : positions(index, spans);
  const scanDirection = (direction * index.directions[position]) as 1 | -1;
  const textTest = exactTextTest(coll, bounds);
  const first = index.fields.length === 1 ? (key: unknown) => key : (key: unknown) => (key as unknown[])[position];
  // a forward walk already orders equal values of the sort key by _id when no field follows it
  const inOrder =
    index.fields.length === position + 1 &&
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
    // a document the exact text rules out is passed over on the trigram index's folded values
    if (textTest && !textTest(doc)) return true;
    // another transaction's uncommitted version: its committed one is merged in after the walk
    if (overlay?.replaced.has(doc)) return true;
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
  const page = overlay ? withCommitted(coll, out, overlay, predicate, sort, take, strings) : out.slice(0, take);
  index.accesses.ops++;
  recorder?.({
    index,
    intervals: found?.intervals ?? [],
    direction: scanDirection,
    countOnly: false,
    sorted: true,
    covered: false,
    returned: page.length,
  });
  return page;
}

/**
 * A walk's page of stored committed documents (the first `take` of them in sort order) with the
 * overlay's committed versions that match merged in: the first `take` of both, in sort order.
 */
function withCommitted(
  coll: Collection,
  walked: Doc[],
  overlay: Overlay,
  predicate: (d: Doc) => boolean,
  sort: SortSpec,
  take: number,
  strings: StringCompare,
): Doc[] {
  const matching = committedVersions(overlay).filter(predicate);
  executorStats.scannedObjects += matching.length;
  if (matching.length === 0) return walked.slice(0, take);
  return sortDocs(coll.inNaturalOrder([...walked.slice(0, take), ...matching]), sort, take, strings);
}

/** A test of the filter's first exact text condition on a trigram-indexed field, without reading the document. */
function exactTextTest(coll: Collection, bounds: FilterBounds): ((doc: Doc) => boolean) | undefined {
  for (const text of bounds.texts) {
    const trigrams = text.exact ? textIndex(coll, text) : undefined;
    if (!trigrams) continue;
    const needle = foldCase(text.literal);
    return (doc) => trigrams.index.contains(doc, needle);
  }
  return undefined;
}

/** Documents with one value of the first sort key, put in the order of the rest of the spec. */
function appendGroup(out: Doc[], group: Doc[], sort: SortSpec, strings: StringCompare): void {
  for (const d of group.length > 1 ? sortDocs(group, sort, undefined, strings) : group) out.push(d);
}

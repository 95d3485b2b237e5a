import { BSONRegExp } from 'bson';
import { compareValues } from '../bson/compare.js';
import { bsonTypeOf, isPlainObject, type Doc } from '../bson/types.js';
import { BOTTOM, bracketOf, compareKeyValue, FIRST, LAST, TOP, TypeEdge } from '../storage/index-keys.js';
import type { Tail } from '../storage/key-list.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';
import { containedLiteral, regexLiteral } from '../storage/trigram-index.js';

/** An interval of values in MongoDB's order; ends may be type-bracket edges (never inside keys). */
export interface Interval {
  lo: unknown;
  loInc: boolean;
  hi: unknown;
  hiInc: boolean;
}

/** What one operator of a filter says about a field, as intervals of its (indexed) values. */
interface Predicate {
  intervals: Interval[];
  /** the intervals are exactly the operator's matches (for a field that never holds an array) */
  exact: boolean;
  /** `$ne`/`$nin`: on an array, one element outside the values does not make a match */
  negative?: boolean;
}

/** The filter's top-level conjunction, per field, and whether anything else is left to check. */
export interface FilterBounds {
  fields: Map<string, Predicate[]>;
  /** literals that unanchored or anchored regexes of the conjunction look for (3+ characters) */
  texts: TextCondition[];
  /** conditions no interval expresses (regexes, `$expr`, `$elemMatch`...): checked on documents */
  residual: boolean;
  /** the branches of each `$or` of the conjunction over several fields (a union of index reads may serve it) */
  unions: unknown[][];
}

/** A regex condition of the conjunction that is a literal (`{ [field]: /literal/ }`). */
export interface TextCondition {
  field: string;
  literal: string;
  /** unanchored and case-insensitive: the trigram index's `matches` settles it exactly */
  exact: boolean;
  /** the filter object holding the condition under `field` (see filterWithout) */
  owner: Doc;
}

/** A range of keys of one index, as probes for KeyList.rank with their tails. */
export interface KeyRange {
  lo: unknown;
  loTail: Tail;
  hi: unknown;
  hiTail: Tail;
}

export interface IndexBounds {
  ranges: KeyRange[];
  /** counting the entries in `ranges` counts the matching documents (nothing to check on them) */
  exact: boolean;
  /** the documents of the entries in `ranges` are the matching ones (some may have several entries) */
  setExact: boolean;
  /** the intervals of the index's leading fields that `ranges` combine (later fields: every value) */
  intervals: Interval[][];
}

const FULL: Interval = { lo: BOTTOM, loInc: true, hi: TOP, hiInc: true };
const MAX_RANGES = 4096;

/** Reads a filter into per-field intervals (its top-level conjunction; `$and` flattened). */
export function filterBounds(filter: unknown): FilterBounds {
  const out: FilterBounds = { fields: new Map(), texts: [], residual: false, unions: [] };
  collect(filter, out);
  return out;
}

function collect(filter: unknown, out: FilterBounds): void {
  if (!isPlainObject(filter)) {
    out.residual = true;
    return;
  }
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) collect(sub, out);
    } else if (key === '$or' && Array.isArray(cond)) {
      const union = orPredicate(cond);
      if (union) addPredicate(out, union.field, union.predicate);
      else {
        out.residual = true;
        if (cond.length > 0) out.unions.push(cond);
      }
    } else if (key.startsWith('$')) {
      if (key !== '$comment') out.residual = true;
    } else {
      const { predicates, residual } = conditionPredicates(cond);
      for (const p of predicates) addPredicate(out, key, p);
      if (residual) out.residual = true;
      const text = textLiteral(cond);
      if (text !== undefined && text.literal.length >= 3) out.texts.push({ field: key, ...text, owner: filter });
    }
  }
}

/** The literal of a regex condition (`/x/i`, `{ $regex, $options }`), when it is one. */
function textLiteral(cond: unknown): { literal: string; exact: boolean } | undefined {
  const regex = (v: unknown, options?: unknown) => {
    const extra = typeof options === 'string' ? options : '';
    if (v instanceof RegExp) return literalOf(v.source, v.flags + extra);
    if (v instanceof BSONRegExp) return literalOf(v.pattern, v.options + extra);
    if (typeof v === 'string') return literalOf(v, extra);
    return undefined;
  };
  if (isPlainObject(cond) && '$regex' in cond) {
    const others = Object.keys(cond).filter((k) => k !== '$regex' && k !== '$options');
    return others.length === 0 ? regex(cond.$regex, cond.$options) : undefined;
  }
  return cond instanceof RegExp || cond instanceof BSONRegExp ? regex(cond) : undefined;
}

function literalOf(source: string, flags: string): { literal: string; exact: boolean } | undefined {
  const contained = containedLiteral(source, flags);
  if (contained !== undefined) return { literal: contained, exact: true };
  const literal = regexLiteral(source, flags);
  return literal === undefined ? undefined : { literal, exact: false };
}

/** The filter without one condition of its conjunction (`owner[field]`, as filterBounds found it). */
export function filterWithout(filter: unknown, owner: Doc, field: string): unknown {
  if (filter === owner) {
    const { [field]: _dropped, ...rest } = owner;
    return rest;
  }
  if (!isPlainObject(filter) || !Array.isArray(filter.$and)) return filter;
  return { ...filter, $and: filter.$and.map((sub: unknown) => filterWithout(sub, owner, field)) };
}

function addPredicate(out: FilterBounds, field: string, predicate: Predicate): void {
  const list = out.fields.get(field);
  if (list) list.push(predicate);
  else out.fields.set(field, [predicate]);
}

/** `$or` whose branches all constrain one and the same field (e.g. `{ f: { $in: ids } }` or `{ f: null }`). */
function orPredicate(branches: unknown[]): { field: string; predicate: Predicate } | undefined {
  let field: string | undefined;
  const intervals: Interval[] = [];
  let exact = true;
  for (const branch of branches) {
    const bounds = filterBounds(branch);
    if (bounds.residual || bounds.fields.size !== 1) return undefined;
    const [[name, predicates]] = [...bounds.fields];
    if (field !== undefined && name !== field) return undefined;
    field = name;
    intervals.push(...intersectAll(predicates.map((p) => p.intervals)));
    exact &&= predicates.every((p) => p.exact && !p.negative);
  }
  if (field === undefined) return undefined;
  return { field, predicate: { intervals: normalize(intervals), exact } };
}

function conditionPredicates(cond: unknown): { predicates: Predicate[]; residual: boolean } {
  if (!isOperatorObject(cond)) {
    const point = pointOf(cond);
    return point ? { predicates: [point], residual: false } : { predicates: [], residual: true };
  }
  const predicates: Predicate[] = [];
  let residual = false;
  for (const [op, operand] of Object.entries(cond)) {
    const p = operatorPredicate(op, operand);
    if (p) predicates.push(p);
    else residual = true;
  }
  return { predicates, residual };
}

function isOperatorObject(v: unknown): v is Doc {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** Values an index compares exactly as a query does: scalars of the usual BSON types. */
export function isKeyScalar(v: unknown): boolean {
  switch (bsonTypeOf(v)) {
    case 'null':
    case 'int':
    case 'long':
    case 'double':
    case 'decimal':
    case 'string':
    case 'bool':
    case 'date':
    case 'objectId':
      return !(typeof v === 'number' && Number.isNaN(v));
    default:
      return false;
  }
}

function pointOf(v: unknown): Predicate | undefined {
  if (!isKeyScalar(v)) return undefined;
  return { intervals: [{ lo: v, loInc: true, hi: v, hiInc: true }], exact: true };
}

function operatorPredicate(op: string, operand: unknown): Predicate | undefined {
  switch (op) {
    case '$eq':
      return pointOf(operand);
    case '$in': {
      if (!Array.isArray(operand) || !operand.every(isKeyScalar)) return undefined;
      const intervals = operand.map((v) => ({ lo: v, loInc: true, hi: v, hiInc: true }));
      return { intervals: normalize(intervals), exact: true };
    }
    case '$ne':
    case '$nin': {
      const values = op === '$ne' ? [operand] : operand;
      if (!Array.isArray(values) || !values.every(isKeyScalar)) return undefined;
      const points = normalize(values.map((v) => ({ lo: v, loInc: true, hi: v, hiInc: true })));
      return { intervals: complement(points), exact: true, negative: true };
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (!isKeyScalar(operand) || operand === null) return undefined;
      return { intervals: [rangeInterval(op, operand)], exact: true };
    }
    case '$exists':
      // missing is indexed as null: `$exists: false` is within the null keys (which also hold nulls)
      return operand === false
        ? { intervals: [{ lo: null, loInc: true, hi: null, hiInc: true }], exact: false }
        : undefined;
    default:
      return undefined;
  }
}

/** `$gt` and friends stay within the type bracket of their operand (numbers exclude NaN, as queries do). */
function rangeInterval(op: string, v: unknown): Interval {
  const numeric = typeof v === 'number' || bsonTypeOf(v) === 'long' || bsonTypeOf(v) === 'decimal';
  const bracket = bracketOf(v);
  const start = numeric ? { v: -Infinity, inc: true } : { v: bracket.start, inc: true };
  const end = numeric ? { v: Infinity, inc: true } : { v: bracket.end, inc: true };
  if (op === '$gt' || op === '$gte') return { lo: v, loInc: op === '$gte', hi: end.v, hiInc: end.inc };
  return { lo: start.v, loInc: start.inc, hi: v, hiInc: op === '$lte' };
}

/** Compares two interval ends in value order (edges included). */
function compareEnds(a: unknown, b: unknown): number {
  if (a instanceof TypeEdge && b instanceof TypeEdge)
    return a.rank !== b.rank ? a.rank - b.rank : Number(a.high) - Number(b.high);
  if (a instanceof TypeEdge) return -compareKeyValue(b, a);
  return compareKeyValue(a, b);
}

function isEmpty(i: Interval): boolean {
  const c = compareEnds(i.lo, i.hi);
  return c > 0 || (c === 0 && !(i.loInc && i.hiInc));
}

/** Sorted, disjoint intervals covering the same values. */
function normalize(intervals: Interval[]): Interval[] {
  const list = intervals.filter((i) => !isEmpty(i)).sort((a, b) => compareEnds(a.lo, b.lo) || (a.loInc ? -1 : 1));
  const out: Interval[] = [];
  for (const i of list) {
    const last = out[out.length - 1];
    if (last) {
      const c = compareEnds(i.lo, last.hi);
      if (c < 0 || (c === 0 && (i.loInc || last.hiInc))) {
        const h = compareEnds(i.hi, last.hi);
        if (h > 0 || (h === 0 && i.hiInc)) {
          last.hi = i.hi;
          last.hiInc = i.hiInc || (h === 0 && last.hiInc);
        }
        continue;
      }
    }
    out.push({ ...i });
  }
  return out;
}

function complement(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  let lo: unknown = BOTTOM;
  let loInc = true;
  for (const i of intervals) {
    out.push({ lo, loInc, hi: i.lo, hiInc: !i.loInc });
    lo = i.hi;
    loInc = !i.hiInc;
  }
  out.push({ lo, loInc, hi: TOP, hiInc: true });
  return normalize(out);
}

function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const lc = compareEnds(x.lo, y.lo);
      const hc = compareEnds(x.hi, y.hi);
      const lo = lc > 0 ? x : lc < 0 ? y : { lo: x.lo, loInc: x.loInc && y.loInc };
      const hi = hc < 0 ? x : hc > 0 ? y : { hi: x.hi, hiInc: x.hiInc && y.hiInc };
      const i = { lo: lo.lo, loInc: lo.loInc, hi: hi.hi, hiInc: hi.hiInc };
      if (!isEmpty(i)) out.push(i);
    }
  }
  return normalize(out);
}

function intersectAll(lists: Interval[][]): Interval[] {
  return lists.reduce((acc, l) => intersect(acc, l), [FULL]);
}

function isPoint(i: Interval): boolean {
  return i.loInc && i.hiInc && !(i.lo instanceof TypeEdge) && compareValues(i.lo, i.hi) === 0;
}

/**
 * The key ranges of `index` that hold every document the filter can match: equality prefixes
 * (cartesian product of points), then one field's intervals, the remaining fields unbounded.
 * Undefined when the index cannot narrow the search (no bounds on its first field, or a sparse
 * index that would miss documents).
 */
export function indexBounds(index: SecondaryIndex, bounds: FilterBounds): IndexBounds | undefined {
  if (!bounds.fields.has(index.fields[0])) return undefined;
  let setExact = !bounds.residual;
  let repeats = false;
  const used = new Set<string>();
  const perField: Interval[][] = [];
  for (let f = 0; f < index.fields.length; f++) {
    const field = index.fields[f];
    const predicates = bounds.fields.get(field);
    const previous = perField[perField.length - 1];
    if (!predicates || (previous && !previous.every(isPoint))) break;
    used.add(field);
    let intervals: Interval[];
    if (index.multikeyFields.has(f)) {
      // conditions on an array may hold for different elements: bounds from one condition only
      const chosen = predicates.find((p) => p.intervals.every(isPoint)) ?? predicates[0];
      intervals = chosen.intervals;
      if (predicates.length > 1 || !chosen.exact || chosen.negative) setExact = false;
      if (intervals.length !== 1 || !isPoint(intervals[0])) repeats = true;
    } else {
      intervals = intersectAll(predicates.map((p) => p.intervals));
      if (!predicates.every((p) => p.exact)) setExact = false;
    }
    perField.push(intervals);
  }
  for (const field of bounds.fields.keys()) if (!used.has(field)) setExact = false;
  // unbounded multikey fields hold one entry per element: counting entries would repeat documents
  for (let f = perField.length; f < index.fields.length; f++) if (index.multikeyFields.has(f)) repeats = true;
  if (index.sparse && perField[0].some((i) => compareEnds(i.lo, null) <= 0 && compareEnds(i.hi, null) >= 0)) {
    return undefined;
  }
  const ranges = keyRanges(index, perField);
  return ranges && { ranges, exact: setExact && !repeats, setExact, intervals: perField };
}

/** Probes for the cartesian product of the per-field intervals, in index order. */
function keyRanges(index: SecondaryIndex, perField: Interval[][]): KeyRange[] | undefined {
  let partial: Array<{ lo: unknown[]; hi: unknown[]; loInc: boolean; hiInc: boolean }> = [
    { lo: [], hi: [], loInc: true, hiInc: true },
  ];
  for (let f = 0; f < perField.length; f++) {
    const descending = index.directions[f] < 0;
    const intervals = descending ? [...perField[f]].reverse() : perField[f];
    const next: typeof partial = [];
    for (const p of partial) {
      for (const i of intervals) {
        const [a, aInc, b, bInc] = descending ? [i.hi, i.hiInc, i.lo, i.loInc] : [i.lo, i.loInc, i.hi, i.hiInc];
        next.push({ lo: [...p.lo, a], hi: [...p.hi, b], loInc: aInc, hiInc: bInc });
      }
    }
    if (next.length > MAX_RANGES) return undefined;
    partial = next;
  }
  const width = index.fields.length;
  return partial.map((p) => {
    // fields after the bounded ones: before or after every key sharing the bounded prefix
    const lo = pad(p.lo, width, p.loInc ? FIRST : LAST);
    const hi = pad(p.hi, width, p.hiInc ? LAST : FIRST);
    return {
      lo: width === 1 ? lo[0] : lo,
      loTail: p.loInc ? -1 : 1,
      hi: width === 1 ? hi[0] : hi,
      hiTail: p.hiInc ? 1 : -1,
    };
  });
}

function pad(values: unknown[], width: number, sentinel: symbol): unknown[] {
  const out = [...values];
  while (out.length < width) out.push(sentinel);
  return out;
}

/** The conditions a key test checks: for each position of the key, the intervals its value must lie in. */
export interface KeyCheck {
  position: number;
  intervals: Interval[];
}

/**
 * The checks of an index entry's key that settle whether its document matches the filter, without
 * reading the document: when every condition is on a field of `index`, exactly expressed by
 * intervals (`exact`), and no field is an array except one the ranges pin to a single value
 * (`ranged`: the ranges' intervals per leading field; each document then has one entry in range).
 * Undefined otherwise. `{ tags: 3, locale, publishedAt: { $ne: null } }` counted on the
 * `{ tags, locale, publishedAt }` index reads keys only (or ranks, key-count.ts).
 */
export function keyChecks(index: SecondaryIndex, bounds: FilterBounds, ranged: Interval[][]): KeyCheck[] | undefined {
  if (bounds.residual) return undefined;
  const checks: KeyCheck[] = [];
  for (const [field, predicates] of bounds.fields) {
    const position = index.fields.indexOf(field);
    if (position < 0 || !predicates.every((p) => p.exact)) return undefined;
    if (index.multikeyFields.has(position)) {
      const pinned = ranged[position];
      const only = predicates.length === 1 ? predicates[0] : undefined;
      if (!only || only.negative || pinned?.length !== 1 || !isPoint(pinned[0] as Interval)) return undefined;
      continue; // the range itself is the condition
    }
    checks.push({ position, intervals: intersectAll(predicates.map((p) => p.intervals)) });
  }
  // unbounded array fields after the ranged ones would give a document several entries
  for (let f = 0; f < index.fields.length; f++) {
    if (!index.multikeyFields.has(f)) continue;
    const pinned = ranged[f];
    if (pinned?.length !== 1 || !isPoint(pinned[0] as Interval)) return undefined;
  }
  return checks;
}

/** The test of an entry's key that `checks` (keyChecks) make. */
export function keyTest(index: SecondaryIndex, checks: KeyCheck[]): (key: unknown) => boolean {
  const single = index.fields.length === 1;
  return (key) =>
    checks.every(({ position, intervals }) => {
      const value = single ? key : (key as unknown[])[position];
      return intervals.some((i) => inInterval(value, i));
    });
}

export function inInterval(value: unknown, i: Interval): boolean {
  const lo = compareKeyValue(value, i.lo);
  if (lo < 0 || (lo === 0 && !i.loInc)) return false;
  const hi = compareKeyValue(value, i.hi);
  return hi < 0 || (hi === 0 && i.hiInc);
}

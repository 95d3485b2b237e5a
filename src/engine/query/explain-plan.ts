import { Binary, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { isPlainObject, type Doc } from '../bson/types.js';
import { BOTTOM, TOP, TypeEdge } from '../storage/index-keys.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';
import type { Interval } from './index-bounds.js';
import type { PlanChoice } from './plan.js';

/**
 * Plan stages as MongoDB's `explain` shows them (`COLLSCAN`, `IXSCAN`, `FETCH`, `COUNT_SCAN`...),
 * built from the choices the planner recorded while the command ran (plan.ts `PlanChoice`).
 */
export type Stage = Doc & { stage: string; inputStage?: Stage };

/** The values at the ends of each BSON type bracket, as MongoDB prints bounds (`("a", {})`). */
const BRACKET_ENDS: Record<number, [string, string]> = {
  2: ['null', 'null'],
  3: ['-inf.0', 'inf.0'],
  4: ['""', '{}'],
  5: ['{}', '[]'],
  6: ['[]', 'BinData(0, )'],
  7: ['BinData(0, )', "ObjectId('000000000000000000000000')"],
  8: ["ObjectId('000000000000000000000000')", "ObjectId('ffffffffffffffffffffffff')"],
  9: ['false', 'true'],
  10: ['new Date(-9223372036854775808)', 'new Date(9223372036854775807)'],
  11: ['Timestamp(0, 0)', 'Timestamp(4294967295, 4294967295)'],
};

/** One bound value printed as mongod prints it in `indexBounds`. */
function boundValue(v: unknown): string {
  if (v === BOTTOM) return 'MinKey';
  if (v === TOP) return 'MaxKey';
  if (v instanceof TypeEdge) return BRACKET_ENDS[v.rank]?.[v.high ? 1 : 0] ?? (v.high ? 'MaxKey' : 'MinKey');
  if (typeof v === 'number') return v === Infinity ? 'inf.0' : v === -Infinity ? '-inf.0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Long || v instanceof Decimal128) return v.toString();
  if (v instanceof Timestamp) return `Timestamp(${v.high}, ${v.low})`;
  if (v instanceof Binary) return `BinData(${v.sub_type}, ${v.toString('hex').toUpperCase()})`;
  if (v instanceof MinKey) return 'MinKey';
  if (v instanceof MaxKey) return 'MaxKey';
  return JSON.stringify(v);
}

function intervalText(i: Interval, descending: boolean): string {
  const [lo, loInc, hi, hiInc] = descending ? [i.hi, i.hiInc, i.lo, i.loInc] : [i.lo, i.loInc, i.hi, i.hiInc];
  return `${loInc ? '[' : '('}${boundValue(lo)}, ${boundValue(hi)}${hiInc ? ']' : ')'}`;
}

/** `indexBounds` of an IXSCAN: every field's intervals in the scan's order; unbounded fields `[MinKey, MaxKey]`. */
function indexBoundsOf(index: SecondaryIndex, intervals: Interval[][], direction: 1 | -1): Doc {
  const out: Doc = {};
  index.fields.forEach((field, f) => {
    const descending = index.directions[f] * direction < 0;
    const list = intervals[f] ?? [{ lo: BOTTOM, loInc: true, hi: TOP, hiInc: true }];
    const ordered = descending ? [...list].reverse() : list;
    out[field] = ordered.map((i) => intervalText(i, descending));
  });
  return out;
}

function indexFacts(index: SecondaryIndex): Doc {
  const multikey = index.multikeyFields;
  const multiKeyPaths: Doc = {};
  index.fields.forEach((field, f) => {
    multiKeyPaths[field] = multikey.has(f) ? [field] : [];
  });
  return {
    keyPattern: { ...index.spec.key },
    indexName: index.spec.name,
    isMultiKey: multikey.size > 0,
    multiKeyPaths,
    isUnique: index.spec.unique === true || index.spec.name === '_id_',
    isSparse: index.spec.sparse === true,
    isPartial: false,
    indexVersion: 2,
  };
}

function ixscan(choice: PlanChoice & { index: SecondaryIndex }): Stage {
  const bounds = choice.substring
    ? { [choice.substring.field]: ['["", {})', `[/${choice.substring.literal}/, /${choice.substring.literal}/]`] }
    : indexBoundsOf(choice.index, choice.intervals, choice.direction);
  return {
    stage: 'IXSCAN',
    ...indexFacts(choice.index),
    direction: choice.direction === 1 ? 'forward' : 'backward',
    indexBounds: bounds,
  };
}

/**
 * `COUNT_SCAN` bounds: one interval per bounded field, as a start key and an end key (a substring
 * count is not one key range: an `IXSCAN` with the regex bounds).
 */
function countScan(choice: PlanChoice & { index: SecondaryIndex }): Stage | undefined {
  if (choice.substring || !choice.intervals.every((list) => list.length === 1)) return undefined;
  const startKey: Doc = {};
  const endKey: Doc = {};
  let startKeyInclusive = true;
  let endKeyInclusive = true;
  choice.index.fields.forEach((field, f) => {
    const i = choice.intervals[f]?.[0];
    startKey[field] = i ? keyValue(i.lo, false) : new MinKey();
    endKey[field] = i ? keyValue(i.hi, true) : new MaxKey();
    if (i) {
      startKeyInclusive &&= i.loInc;
      endKeyInclusive &&= i.hiInc;
    }
  });
  return {
    stage: 'COUNT_SCAN',
    ...indexFacts(choice.index),
    indexBounds: { startKey, startKeyInclusive, endKey, endKeyInclusive },
  };
}

/** A bound as a key value: bracket edges become MinKey/MaxKey (the printable form is in `indexBounds`). */
function keyValue(v: unknown, high: boolean): unknown {
  if (v instanceof TypeEdge) return high ? new MaxKey() : new MinKey();
  return v;
}

/**
 * The stages that reach the documents: `COLLSCAN` (with the filter), `FETCH` over `IXSCAN` (the
 * filter on the fetched documents unless the index bounds are exactly the filter), `IXSCAN` or
 * `COUNT_SCAN` alone when the entries are counted; `EOF` when the collection does not exist.
 */
export function accessStages(choice: PlanChoice | undefined, filter: unknown): Stage {
  const filterDoc = isPlainObject(filter) && Object.keys(filter).length > 0 ? { filter } : {};
  if (!choice) return { stage: 'EOF' };
  if (choice.union) {
    const inputStages = choice.union.map((branch) =>
      branch.index ? ixscan({ ...branch, index: branch.index }) : accessStages(branch, undefined),
    );
    return { stage: 'FETCH', ...filterDoc, inputStage: { stage: 'OR', inputStages } };
  }
  const { index } = choice;
  if (!index) return { stage: 'COLLSCAN', ...filterDoc, direction: 'forward' };
  const scan = { ...choice, index };
  if (choice.countOnly) return countScan(scan) ?? ixscan(scan);
  return { stage: 'FETCH', ...(choice.covered ? {} : filterDoc), inputStage: ixscan(scan) };
}

/** A copy of a plan tree with each stage's execution figures, as `executionStats.executionStages`. */
export function withExecutionFigures(
  plan: Stage,
  figures: { nReturned: number; keysExamined: number; docsExamined: number; millis: number },
): Stage {
  const annotate = (stage: Stage, root: boolean): Stage => {
    const out: Stage = { ...stage };
    if (root) out.nReturned = figures.nReturned;
    out.executionTimeMillisEstimate = figures.millis;
    if (stage.stage === 'IXSCAN' || stage.stage === 'COUNT_SCAN') out.keysExamined = figures.keysExamined;
    if (stage.stage === 'FETCH' || stage.stage === 'COLLSCAN') out.docsExamined = figures.docsExamined;
    if (stage.inputStage) out.inputStage = annotate(stage.inputStage, false);
    if (Array.isArray(stage.inputStages))
      out.inputStages = stage.inputStages.map((input) => annotate(input as Stage, false));
    return out;
  };
  return annotate(plan, true);
}

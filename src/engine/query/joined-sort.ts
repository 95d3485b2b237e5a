import { isPlainObject, type Doc } from '../bson/types.js';
import { tick, type Work, isWork } from '../work.js';
import { addFieldsStage } from './add-fields.js';
import { lookupJoiner, type RunPipeline } from './lookup.js';
import { mingoOptions } from './operators.js';
import type { PipelineEnv } from './pipeline.js';
import { parseSort, type SortSpec } from './sort.js';
import { MISSING, windowOrder, type Stage } from './computed-sort.js';
import type { StringCompare } from '../bson/compare.js';

/**
 * If stages[i] starts a sort on a joined value (below), how many stages it spans (3), else 0:
 * `$lookup` (not `$unwind`ed), `$addFields`/`$set` of its `as` field alone from that field alone,
 * `$sort` on it. The caller checks that a window follows.
 */
export function joinedSortLength(stages: Stage[], i: number): number {
  const [lookup, add, sort] = [stages[i], stages[i + 1], stages[i + 2]];
  if (lookup?.name !== '$lookup' || !isPlainObject(lookup.spec)) return 0;
  const as = lookup.spec.as;
  if (typeof as !== 'string' || as.includes('.') || as.startsWith('$')) return 0;
  if ((add?.name !== '$addFields' && add?.name !== '$set') || !isPlainObject(add.spec)) return 0;
  const fields = Object.keys(add.spec);
  if (fields.length !== 1 || fields[0] !== as || !readsOnly(add.spec[as], as)) return 0;
  if (sort?.name !== '$sort' || !isPlainObject(sort.spec) || !Object.hasOwn(sort.spec, as)) return 0;
  return 3;
}

/** Whether an expression reads no field but `field` (and its sub-fields) and no variable. */
function readsOnly(expr: unknown, field: string): boolean {
  if (typeof expr === 'string')
    return !expr.startsWith('$') || (!expr.startsWith('$$') && (expr === `$${field}` || expr.startsWith(`$${field}.`)));
  if (Array.isArray(expr)) return expr.every((e) => readsOnly(e, field));
  if (isPlainObject(expr)) return Object.values(expr).every((e) => readsOnly(e, field));
  return true;
}

/**
 * The three stages `joinedSortLength` found, followed by a window of `limit` documents: the same
 * documents in the same order as running them one by one, without building a new document for
 * every input document (Strapi's `sort=author.name` over 10k entries). The join is memoized per
 * join value (lookup.ts), the added field's value per joined result; the sort runs on small key
 * documents holding only the sorted fields, and only the `limit` first are built.
 */
export function* joinedSortStage(
  docs: Doc[],
  stages: Stage[],
  i: number,
  limit: number,
  env: PipelineEnv,
  run: RunPipeline,
  strings: StringCompare,
): Work<Doc[]> {
  const { as, join } = lookupJoiner(stages[i]?.spec, env, run);
  const add = addFieldsStage(stages[i + 1]?.name as string, stages[i + 1]?.spec) as (d: Doc, o: unknown) => Doc;
  const sort = parseSort(stages[i + 2]?.spec) as SortSpec;
  const options = mingoOptions(env);
  // the added field's value per joined result (the join's memo hands out one array per join value)
  const valueOf = new Map<Doc[], unknown>();
  const values: unknown[] = new Array<unknown>(docs.length);
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k] as Doc;
    const found = join(doc);
    const joined = isWork(found) ? yield* found : found;
    let value = valueOf.get(joined);
    if (value === undefined) {
      const added = add({ [as]: joined }, options);
      value = Object.hasOwn(added, as) ? added[as] : MISSING;
      valueOf.set(joined, value);
    }
    values[k] = value;
    if (tick()) yield;
  }
  return windowOrder(docs, values, as, sort, limit, strings).map((k) => {
    const doc = docs[k] as Doc;
    const value = values[k];
    const out: Doc = { ...doc, [as]: value };
    if (value === MISSING) delete out[as];
    return out;
  });
}

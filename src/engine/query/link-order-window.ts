import { isPlainObject, type Doc } from '../bson/types.js';
import type { Collection } from '../storage/collection.js';
import { linkKey } from '../storage/link-order-index.js';
import { tick, type Work } from '../work.js';
import { addFieldsStage } from './add-fields.js';
import type { Stage } from './computed-sort.js';
import { parseKeyLookup } from './expression-shortcuts.js';
import { mingoOptions } from './operators.js';
import type { PipelineEnv } from './pipeline.js';
import { executorStats } from './stats.js';

/**
 * The first entries of a to-many inverse relation in its link order, as the service populates
 * one (a tag's first 5 articles):
 *
 *   { $match: { tags: { $in: [7] }, ...more } }
 *   { $addFields: { __position: <the value at __order.tags["7"]> } }   (expression-shortcuts.ts)
 *   { $sort: { __position: 1, _id: 1 } }, then $skip / $limit
 *
 * answered by a walk of id 7's entries in the collection's link-order index (storage/
 * link-order-index.ts), each document tested against the whole filter, stopping once the window
 * is full, instead of computing the position of every document that holds the id. Same documents,
 * same order: the index orders by that very position (none first), then `_id`.
 *
 * Undefined when the stages are not of that form, or the read must take the general path: a
 * collation, another transaction's uncommitted writes on the collection, values the index cannot
 * represent exactly.
 */
export function* linkOrderWindow(
  source: Collection,
  filter: unknown,
  predicate: (doc: Doc) => boolean,
  stages: Stage[],
  window: number,
  env: PipelineEnv,
): Work<Doc[] | undefined> {
  const add = stages[1];
  if (!add || !isPositionSort(add, stages[2])) return undefined;
  if (env.collation || env.overlay?.(source)) return undefined;
  const field = Object.keys(add.spec as Doc)[0] as string;
  const options = mingoOptions(env);
  const lookup = parseKeyLookup((add.spec as Doc)[field], options);
  if (!lookup) return undefined;
  const held = heldIds(filter).find(({ id }) => linkKey(id) === lookup.key);
  if (!held) return undefined;
  const index = source.linkOrderIndex(held.field, lookup.path);
  if (!index.exact) return undefined;
  const picked: Doc[] = [];
  let visited = 0;
  index.walk(held.id, (doc) => {
    visited++;
    if (predicate(doc)) picked.push(doc);
    return picked.length < window;
  });
  executorStats.scanned += visited;
  executorStats.scannedObjects += visited;
  if (tick(visited)) yield;
  const withPosition = addFieldsStage(add.name, add.spec) as (doc: Doc, options: unknown) => Doc;
  return picked.map((doc) => withPosition(doc, options));
}

/** `$addFields` of one top-level field, then `$sort` on exactly that field and `_id`, both ascending. */
function isPositionSort(add: Stage, sort: Stage | undefined): boolean {
  if ((add.name !== '$addFields' && add.name !== '$set') || !isPlainObject(add.spec)) return false;
  const fields = Object.keys(add.spec);
  const field = fields[0];
  if (fields.length !== 1 || field === undefined || field.includes('.') || field.startsWith('$')) return false;
  if (sort?.name !== '$sort' || !isPlainObject(sort.spec)) return false;
  const keys = Object.keys(sort.spec);
  return keys.length === 2 && keys[0] === field && keys[1] === '_id' && sort.spec[field] === 1 && sort.spec._id === 1;
}

/**
 * The `(top-level field, id)` pairs a filter requires a document to hold: `{ f: id }`,
 * `{ f: { $eq: id } }`, `{ f: { $in: [id] } }`, also inside `$and`.
 */
function heldIds(filter: unknown): Array<{ field: string; id: number | string }> {
  const out: Array<{ field: string; id: number | string }> = [];
  if (!isPlainObject(filter)) return out;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const clause of condition) out.push(...heldIds(clause));
      continue;
    }
    if (key.startsWith('$') || key.includes('.')) continue;
    const id = heldId(condition);
    if (id !== undefined) out.push({ field: key, id });
  }
  return out;
}

function heldId(condition: unknown): number | string | undefined {
  if (typeof condition === 'number' || typeof condition === 'string') return condition;
  if (!isPlainObject(condition)) return undefined;
  const ops = Object.keys(condition);
  if (ops.length !== 1) return undefined;
  const value = ops[0] === '$eq' ? condition.$eq : ops[0] === '$in' ? onlyElement(condition.$in) : undefined;
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

function onlyElement(values: unknown): unknown {
  return Array.isArray(values) && values.length === 1 ? values[0] : undefined;
}

import type { StringCompare } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { tick, type Work } from '../work.js';
import { addFieldsStage } from './add-fields.js';
import { expressionEvaluator } from './expression-shortcuts.js';
import { mingoOptions } from './operators.js';
import type { PipelineEnv } from './pipeline.js';
import { parseSort, sortDocs, type SortSpec } from './sort.js';

/** A parsed pipeline stage (pipeline.ts, checkStage). */
export interface Stage {
  name: string;
  spec: unknown;
}

/** A computed value that is nothing: `$addFields` then leaves its field out. */
export const MISSING = Symbol('missing');

/**
 * If stages[i] is `$addFields`/`$set` of one top-level field from an expression and the next
 * stage sorts on that field, 2, else 0. The caller checks that a window follows.
 */
export function computedSortLength(stages: Stage[], i: number): number {
  const [add, sort] = [stages[i], stages[i + 1]];
  if ((add?.name !== '$addFields' && add?.name !== '$set') || !isPlainObject(add.spec)) return 0;
  const fields = Object.keys(add.spec);
  const field = fields[0];
  if (fields.length !== 1 || field === undefined || field.includes('.') || field.startsWith('$')) return 0;
  const expr = add.spec[field];
  // a nested document of fields (not an expression) sets sub-fields: the general path
  if (isPlainObject(expr) && Object.keys(expr).length > 0 && !Object.keys(expr)[0]?.startsWith('$')) return 0;
  if (sort?.name !== '$sort' || !isPlainObject(sort.spec) || !Object.hasOwn(sort.spec, field)) return 0;
  return 2;
}

/**
 * `$addFields` of one field followed by a `$sort` on it and a window of `limit` documents (an
 * inverse relation's entries in their link order, 5 per related entry): the same documents in
 * the same order as running the stages one by one, but the expression is evaluated without
 * copying every document, the sort runs on small key documents, and only the window's documents
 * get the field added.
 */
export function* computedSortStage(
  docs: Doc[],
  stages: Stage[],
  i: number,
  limit: number,
  env: PipelineEnv,
  strings: StringCompare,
): Work<Doc[]> {
  const { name, spec } = stages[i] as { name: string; spec: Doc };
  const field = Object.keys(spec)[0] as string;
  const expr = spec[field];
  const options = mingoOptions(env);
  const evaluate = expressionEvaluator(expr, options);
  const values: unknown[] = new Array<unknown>(docs.length);
  for (let k = 0; k < docs.length; k++) {
    const value = evaluate(docs[k] as Doc);
    values[k] = value === undefined ? MISSING : value;
    if (tick()) yield;
  }
  const add = addFieldsStage(name, spec) as (doc: Doc, options: unknown) => Doc;
  return windowOrder(docs, values, field, parseSort(stages[i + 1]?.spec) as SortSpec, limit, strings).map((k) =>
    add(docs[k] as Doc, options),
  );
}

/**
 * The positions of the first `limit` documents sorted by `sort`, where `field` takes the values
 * given (MISSING: absent) and every other sorted field is the document's own.
 */
export function windowOrder(
  docs: Doc[],
  values: unknown[],
  field: string,
  sort: SortSpec,
  limit: number,
  strings: StringCompare,
): number[] {
  const roots = [...new Set(sort.map(([path]) => path.split('.')[0] as string))].filter((root) => root !== field);
  const keys: Doc[] = new Array<Doc>(docs.length);
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k] as Doc;
    const key: Doc = { __index: k };
    for (const root of roots) if (Object.hasOwn(doc, root)) key[root] = doc[root];
    if (values[k] !== MISSING) key[field] = values[k];
    keys[k] = key;
  }
  return sortDocs(keys, sort, limit, strings).map((key) => key.__index as number);
}

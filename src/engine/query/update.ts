import { Decimal128, Long } from 'bson';
import { update as mingoUpdate } from 'mingo/updater';
import { cloneDoc } from '../bson/clone.js';
import { valueKey } from '../bson/compare.js';
import { getPath } from '../bson/path.js';
import { bsonTypeOf, isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import { formatKeyValue } from '../storage/key-format.js';
import { mingoOptions } from './operators.js';
import type { PipelineEnv } from './pipeline.js';
import { runPipeline } from './pipeline.js';
import { normalizeRegexes } from './regex.js';

const MODIFIERS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$min',
  '$max',
  '$currentDate',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$bit',
  '$setOnInsert',
]);
const PIPELINE_UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export type UpdateKind = 'operators' | 'replacement' | 'pipeline';

export function updateKind(u: unknown): UpdateKind {
  if (Array.isArray(u)) return 'pipeline';
  if (!isPlainObject(u)) throw commandError('FailedToParse', 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  if (keys.length > 0 && keys[0].startsWith('$')) return 'operators';
  return 'replacement';
}

export interface ApplyOptions {
  arrayFilters?: unknown;
  /** the query, for the positional `$` operator */
  query?: unknown;
  /** applying to a document being upserted: `$setOnInsert` applies, `_id` may be set */
  inserting: boolean;
  env: PipelineEnv;
}

/** Returns the updated copy of `doc` (never modifies it). */
export function applyUpdate(doc: Doc, u: unknown, opts: ApplyOptions): Doc {
  const kind = updateKind(u);
  let next: Doc;
  if (kind === 'replacement') {
    next = replacement(doc, u as Doc, opts.inserting);
  } else if (kind === 'pipeline') {
    for (const stage of u as unknown[]) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !PIPELINE_UPDATE_STAGES.has(name)) {
        throw commandError('InvalidOptions', `${name ?? 'stage'} is not allowed to be used within an update`);
      }
    }
    const [out] = runPipeline([cloneDoc(doc)], u, opts.env);
    next = out ?? {};
  } else {
    next = applyOperators(doc, u as Doc, opts);
  }
  if (!opts.inserting && valueKey(next._id) !== valueKey(doc._id)) {
    if (kind === 'operators') {
      throw commandError(
        'ImmutableField',
        "Performing an update on the path '_id' would modify the immutable field '_id'",
      );
    }
    throw commandError(
      'ImmutableField',
      `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatKeyValue({ v: next._id }).slice(5, -2)}`,
    );
  }
  if (next._id === undefined && doc._id !== undefined) next = { _id: doc._id, ...next };
  else if (Object.keys(next)[0] !== '_id' && next._id !== undefined) {
    const { _id, ...rest } = next;
    next = { _id, ...rest };
  }
  return next;
}

function replacement(doc: Doc, repl: Doc, inserting: boolean): Doc {
  for (const k of Object.keys(repl)) {
    if (k.startsWith('$'))
      throw commandError(
        'BadValue',
        `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document.`,
        { code: 2 },
      );
  }
  const copy = cloneDoc(repl);
  if (copy._id === undefined) return { _id: doc._id, ...copy };
  if (!inserting && valueKey(copy._id) !== valueKey(doc._id)) return copy;
  return copy;
}

function applyOperators(doc: Doc, u: Doc, opts: ApplyOptions): Doc {
  const modifier: Doc = {};
  for (const [op, spec] of Object.entries(u)) {
    if (!MODIFIERS.has(op)) {
      throw commandError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(spec)) {
      throw commandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${bsonTypeOf(spec)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${String(spec)}}`,
      );
    }
    if (op === '$setOnInsert') {
      if (opts.inserting) modifier.$set = { ...(modifier.$set as Doc | undefined), ...spec };
      continue;
    }
    if (op === '$set') {
      modifier.$set = { ...(modifier.$set as Doc | undefined), ...spec };
      continue;
    }
    modifier[op] = spec;
  }
  const next = cloneDoc(doc);
  exactNumericIncrements(next, modifier);
  if (Object.keys(modifier).length === 0) return next;
  try {
    mingoUpdate(
      next,
      normalizeRegexes(modifier),
      opts.arrayFilters as Doc[] | undefined,
      // the query only serves the positional `$` (mingo re-evaluates it, without `let` variables)
      usesPositional(modifier) ? ((opts.query ?? undefined) as Doc | undefined) : undefined,
      { cloneMode: 'deep', queryOptions: mingoOptions(opts.env) },
    );
  } catch (err) {
    throw err instanceof CommandError ? err : toCommandError(err);
  }
  return next;
}

/** `$inc` on int64/Decimal128 values keeps their type (mingo would add them as strings). */
function exactNumericIncrements(doc: Doc, modifier: Doc): void {
  const inc = modifier.$inc;
  if (!isPlainObject(inc)) return;
  const rest: Doc = {};
  for (const [path, by] of Object.entries(inc)) {
    const current = getPath(doc, path);
    const tc = bsonTypeOf(current);
    const tb = bsonTypeOf(by);
    if (!['int', 'long', 'double', 'decimal'].includes(tb)) {
      throw new CommandError(
        14,
        'TypeMismatch',
        `Cannot increment with non-numeric argument: {${path}: ${String(by)}}`,
      );
    }
    if (current !== undefined && current !== null && !['int', 'long', 'double', 'decimal'].includes(tc)) {
      throw new CommandError(
        14,
        'TypeMismatch',
        `Cannot apply $inc to a value of non-numeric type. {_id: ${String(doc._id)}} has the field '${path}' of non-numeric type ${tc}`,
      );
    }
    if (tc === 'decimal' || tb === 'decimal') {
      const sum = Number((current ?? 0).toString()) + Number(String(by));
      modifier.$set = { ...(modifier.$set as Doc | undefined), [path]: Decimal128.fromString(String(sum)) };
    } else if (tc === 'long' || tb === 'long') {
      const a = current instanceof Long ? current.toBigInt() : BigInt(Math.trunc(Number(current ?? 0)));
      const b = by instanceof Long ? by.toBigInt() : BigInt(Math.trunc(Number(by)));
      const isFloat = tc === 'double' || tb === 'double';
      modifier.$set = {
        ...(modifier.$set as Doc | undefined),
        [path]: isFloat ? Number(a + b) : Long.fromBigInt(a + b),
      };
    } else {
      rest[path] = by;
    }
  }
  if (Object.keys(rest).length) modifier.$inc = rest;
  else delete modifier.$inc;
}

function usesPositional(modifier: Doc): boolean {
  return Object.values(modifier).some(
    (spec) => isPlainObject(spec) && Object.keys(spec).some((path) => /(^|\.)\$(\.|$)/.test(path)),
  );
}

/** The document an upsert starts from: the query's equality conditions (MongoDB "upsert behavior"). */
export function upsertSeed(query: unknown): Doc {
  const seed: Doc = {};
  addEqualities(seed, query);
  return seed;
}

function addEqualities(seed: Doc, query: unknown): void {
  if (!isPlainObject(query)) return;
  for (const [field, cond] of Object.entries(query)) {
    if (field === '$and' && Array.isArray(cond)) {
      cond.forEach((c) => addEqualities(seed, c));
      continue;
    }
    if (field.startsWith('$')) continue;
    let value: unknown;
    if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
      if (!('$eq' in cond)) continue;
      value = cond.$eq;
    } else if (cond instanceof RegExp || bsonTypeOf(cond) === 'regex') {
      continue;
    } else {
      value = cond;
    }
    setPath(seed, field, cloneDoc({ v: value }).v);
  }
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (!isPlainObject(next)) cur[parts[i]] = {};
    cur = cur[parts[i]] as Doc;
  }
  cur[parts[parts.length - 1]] = value;
}

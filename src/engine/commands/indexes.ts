import { Long } from 'bson';
import { valueKey } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import type { IndexSpec } from '../storage/secondary-index.js';
import { collectionName, type CommandHandler } from './context.js';

const SUPPORTED_OPTIONS = new Set([
  'key',
  'name',
  'unique',
  'sparse',
  'background',
  'v',
  'partialFilterExpression',
  'expireAfterSeconds',
  'collation',
  'hidden',
]);

function parseSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw commandError('TypeMismatch', 'index specification must be an object');
  const { key, name } = raw;
  if (!isPlainObject(key) || Object.keys(key).length === 0)
    throw commandError('CannotCreateIndex', 'Index keys cannot be empty.');
  for (const [field, dir] of Object.entries(key)) {
    if (dir === 'text' || dir === '2dsphere' || dir === '2d' || dir === 'hashed' || dir === 'geoHaystack') {
      throw commandError(
        'CannotCreateIndex',
        `Index type '${dir}' on field '${field}' is not supported by the embedded engine`,
      );
    }
    if (typeof dir !== 'number' || dir === 0 || !Number.isFinite(dir)) {
      throw commandError(
        'CannotCreateIndex',
        `Values in the index key pattern can only be numbers or strings, found ${String(dir)} for field '${field}'`,
      );
    }
  }
  if (typeof name !== 'string' || name === '')
    throw new CommandError(9, 'FailedToParse', "The 'name' field is a required property of an index specification");
  for (const k of Object.keys(raw)) {
    if (!SUPPORTED_OPTIONS.has(k))
      throw commandError(
        'InvalidOptions',
        `The field '${k}' is not valid for an index specification. Specification: ${JSON.stringify(raw)}`,
      );
  }
  if (raw.partialFilterExpression !== undefined) {
    throw commandError('CannotCreateIndex', 'partialFilterExpression is not supported by the embedded engine');
  }
  if (raw.collation !== undefined)
    throw commandError('CannotCreateIndex', 'index collation is not supported by the embedded engine');
  const spec: IndexSpec = { v: 2, key: key as Record<string, number>, name };
  if (raw.unique) spec.unique = true;
  if (raw.sparse) spec.sparse = true;
  if (raw.hidden === true) {
    if (name === '_id_') throw commandError('BadValue', "can't hide _id index");
    spec.hidden = true;
  }
  // as in mongod, a compound index keeps the option and never expires anything
  if (raw.expireAfterSeconds !== undefined) {
    if (Object.keys(key).length === 1 && Object.keys(key)[0] === '_id')
      throw commandError(
        'CannotCreateIndex',
        "The field 'expireAfterSeconds' is not valid for an _id index specification",
      );
    spec.expireAfterSeconds = checkExpireAfterSeconds(raw.expireAfterSeconds);
  }
  return spec;
}

const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

/** A TTL index's `expireAfterSeconds`: a whole number of seconds, 0 to 2^31 - 1. */
export function checkExpireAfterSeconds(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'object' && raw !== null ? Number(String(raw)) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > MAX_EXPIRE_AFTER_SECONDS)
    throw commandError(
      'CannotCreateIndex',
      `TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number`,
    );
  return Math.floor(n);
}

function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return valueKey(a.key) === valueKey(b.key) && !!a.unique === !!b.unique && !!a.sparse === !!b.sparse;
}

export const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0)
    throw commandError('BadValue', 'Must specify at least one index to create');
  const specs = cmd.indexes.map(parseSpec);
  const { coll, created } = ctx.catalog.ensure(ctx.db, name);
  const before = coll.indexes.length;
  for (const spec of specs) {
    const byName = coll.index(spec.name);
    if (byName) {
      if (sameIndex(byName.spec, spec)) continue;
      if (valueKey(byName.spec.key) === valueKey(spec.key)) {
        throw commandError(
          'IndexOptionsConflict',
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
        );
      }
      throw commandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
      );
    }
    const byKey = coll.indexes.find((ix) => valueKey(ix.spec.key) === valueKey(spec.key));
    if (byKey) {
      if (sameIndex(byKey.spec, spec) && spec.name === byKey.spec.name) continue;
      throw commandError('IndexOptionsConflict', `Index already exists with a different name: ${byKey.spec.name}`);
    }
    ctx.catalog.addIndex(coll, spec);
  }
  const after = coll.indexes.length;
  const reply: Doc = { numIndexesBefore: before, numIndexesAfter: after, createdCollectionAutomatically: created };
  if (before === after) reply.note = 'all indexes already exist';
  return { ...reply, ok: 1 };
};

export const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'listIndexes');
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) throw commandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  return { cursor: { id: Long.ZERO, ns: coll.ns, firstBatch: coll.indexes.map((ix) => ix.spec) }, ok: 1 };
};

export const dropIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'dropIndexes');
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) throw commandError('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = coll.indexes.length;
  const target = cmd.index;
  let names: string[];
  if (target === '*') names = coll.indexes.slice(1).map((ix) => ix.spec.name);
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target)) names = target.map(String);
  else if (isPlainObject(target)) {
    const found = coll.indexes.find((ix) => valueKey(ix.spec.key) === valueKey(target));
    if (!found) throw commandError('IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    names = [found.spec.name];
  } else throw commandError('TypeMismatch', "Field 'index' must be a string, an array of strings or an object");
  for (const n of names) {
    if (n === '_id_') throw commandError('InvalidOptions', 'cannot drop _id index');
    if (!coll.index(n)) throw commandError('IndexNotFound', `index not found with name [${n}]`);
  }
  for (const n of names) ctx.catalog.dropIndex(coll, n);
  return { nIndexesWas, ok: 1 };
};

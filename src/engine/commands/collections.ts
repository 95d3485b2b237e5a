import { Long } from 'bson';
import { valueKey } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import { compileFilter } from '../query/filter.js';
import type { Catalog } from '../storage/catalog.js';
import { ID_INDEX_SPEC, type Collection } from '../storage/collection.js';
import { collectionName, GENERIC_COMMAND_FIELDS, optionalDoc, type CommandHandler } from './context.js';
import { checkExpireAfterSeconds } from './indexes.js';
import { checkValidationOptions } from './validation.js';
import { collStatsReply } from './coll-stats.js';

/** `create` options the engine honours, or that change nothing it does (storage engine settings). */
const CREATE_OPTIONS = [
  'validator',
  'validationLevel',
  'validationAction',
  'storageEngine',
  'indexOptionDefaults',
  'changeStreamPreAndPostImages',
];
/** `create` options mongod honours and the engine does not: refused rather than stored and ignored. */
const UNSUPPORTED_CREATE_OPTIONS: Record<string, string> = {
  capped: 'capped collections',
  size: 'capped collections',
  max: 'capped collections',
  collation: 'collection default collations',
  timeseries: 'time-series collections',
  viewOn: 'views',
  pipeline: 'views',
  clusteredIndex: 'clustered collections',
  expireAfterSeconds: 'clustered collections',
  encryptedFields: 'queryable encryption',
};

/** `create`: idempotent when the options are the same (MongoDB 7.0), 48 otherwise. */
export const create: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'create');
  const options: Doc = {};
  for (const [k, v] of Object.entries(cmd)) {
    if (k === 'create' || GENERIC_COMMAND_FIELDS.has(k) || v === undefined) continue;
    if (!CREATE_OPTIONS.includes(k) && !Object.hasOwn(UNSUPPORTED_CREATE_OPTIONS, k))
      throw new CommandError(40415, 'Location40415', `BSON field 'create.${k}' is an unknown field.`);
    options[k] = v;
  }
  const existing = ctx.catalog.get(ctx.db, name);
  if (existing && valueKey(existing.options) !== valueKey(options))
    throw commandError('NamespaceExists', `Collection ${ctx.db}.${name} already exists.`);
  const unsupported = Object.keys(options).find(
    (k) => Object.hasOwn(UNSUPPORTED_CREATE_OPTIONS, k) && options[k] !== false,
  );
  if (unsupported)
    throw commandError(
      'CommandNotSupported',
      `${UNSUPPORTED_CREATE_OPTIONS[unsupported]} ('${unsupported}') are not supported by the embedded engine`,
    );
  const images = options.changeStreamPreAndPostImages;
  if (isPlainObject(images) && images.enabled === true)
    throw commandError('CommandNotSupported', 'change streams are not supported by the embedded engine');
  checkValidationOptions(options);
  if (existing) return { ok: 1 };
  ctx.catalog.create(ctx.db, name, options);
  return { ok: 1 };
};

/** `drop`: a missing collection is not an error in 7.0. */
export const drop: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'drop');
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.length;
  ctx.catalog.drop(ctx.db, name);
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
};

export const dropDatabase: CommandHandler = (_cmd, ctx) => {
  ctx.catalog.dropDatabase(ctx.db);
  return { ok: 1 };
};

function approximateSize(docs: number): number {
  return docs * 256;
}

export const listDatabases: CommandHandler = (cmd, ctx) => {
  const filter = compileFilter(optionalDoc(cmd, 'filter'));
  const databases = ctx.catalog
    .databases()
    .map((name) => {
      const count = ctx.catalog.collections(name).reduce((n, c) => n + c.size, 0);
      return { name, sizeOnDisk: Long.fromNumber(approximateSize(count) + 4096), empty: count === 0 };
    })
    .filter((d) => filter(d));
  if (cmd.nameOnly) return { databases: databases.map((d) => ({ name: d.name })), ok: 1 };
  const totalSize = databases.reduce((n, d) => n + Number(d.sizeOnDisk), 0);
  return {
    databases,
    totalSize: Long.fromNumber(totalSize),
    totalSizeMb: Long.fromNumber(Math.floor(totalSize / 1048576)),
    ok: 1,
  };
};

export const listCollections: CommandHandler = (cmd, ctx) => {
  const filter = compileFilter(optionalDoc(cmd, 'filter'));
  const all = ctx.catalog
    .collections(ctx.db)
    .map((c) => ({
      name: c.name,
      type: 'collection',
      options: c.options,
      info: { readOnly: false, uuid: c.uuid },
      idIndex: ID_INDEX_SPEC,
    }))
    .filter((d) => filter(d));
  const firstBatch = cmd.nameOnly ? all.map((d) => ({ name: d.name, type: d.type })) : all;
  return { cursor: { id: Long.ZERO, ns: `${ctx.db}.$cmd.listCollections`, firstBatch }, ok: 1 };
};

export const dbStats: CommandHandler = (_cmd, ctx) => {
  const colls = ctx.catalog.collections(ctx.db);
  const objects = colls.reduce((n, c) => n + c.size, 0);
  return {
    db: ctx.db,
    collections: colls.length,
    views: 0,
    objects,
    avgObjSize: objects ? 256 : 0,
    dataSize: approximateSize(objects),
    storageSize: approximateSize(objects),
    indexes: colls.reduce((n, c) => n + c.indexes.length, 0),
    indexSize: 0,
    totalSize: approximateSize(objects),
    scaleFactor: 1,
    ok: 1,
  };
};

export const collStats: CommandHandler = (cmd, ctx) => collStatsReply(ctx, collectionName(cmd, 'collStats'), cmd.scale);

/** `renameCollection` (admin database): within or across databases, `dropTarget` to replace one. */
export const renameCollection: CommandHandler = (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError(13, 'Unauthorized', 'renameCollection may only be run against the admin database.');
  const from = namespace(cmd.renameCollection, 'renameCollection');
  const to = namespace(cmd.to, 'to');
  const source = ctx.catalog.get(from.db, from.name);
  if (!source) throw commandError('NamespaceNotFound', `Source collection ${from.db}.${from.name} does not exist`);
  if (from.db === to.db && from.name === to.name)
    throw commandError('IllegalOperation', "Can't rename a collection to itself");
  if (ctx.catalog.get(to.db, to.name)) {
    if (cmd.dropTarget !== true) throw commandError('NamespaceExists', 'target namespace exists');
    ctx.catalog.drop(to.db, to.name);
  }
  ctx.catalog.rename(source, to.db, to.name);
  return { ok: 1 };
};

function namespace(v: unknown, field: string): { db: string; name: string } {
  const dot = typeof v === 'string' ? v.indexOf('.') : -1;
  if (typeof v !== 'string' || dot <= 0 || dot === v.length - 1)
    throw commandError('InvalidNamespace', `Invalid ${field} namespace: ${String(v)}`);
  return { db: v.slice(0, dot), name: v.slice(dot + 1) };
}

const COLL_MOD_OPTIONS = ['validator', 'validationLevel', 'validationAction'];
const COLL_MOD_UNSUPPORTED = [
  'viewOn',
  'pipeline',
  'expireAfterSeconds',
  'timeseries',
  'changeStreamPreAndPostImages',
  'clusteredIndex',
  'cappedSize',
  'cappedMax',
];

/** `collMod`: the validator and its level and action; an index's `expireAfterSeconds`. */
export const collMod: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collMod');
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) throw commandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const fields = Object.keys(cmd).filter((k) => k !== 'collMod' && !GENERIC_COMMAND_FIELDS.has(k));
  for (const k of fields) {
    if (COLL_MOD_UNSUPPORTED.includes(k))
      throw commandError('CommandNotSupported', `collMod '${k}' is not supported by the embedded engine`);
    if (!COLL_MOD_OPTIONS.includes(k) && k !== 'index')
      throw new CommandError(40415, 'Location40415', `BSON field 'collMod.${k}' is an unknown field.`);
  }
  const changes: Doc = {};
  for (const k of COLL_MOD_OPTIONS) if (cmd[k] !== undefined) changes[k] = cmd[k];
  checkValidationOptions(changes);
  const reply: Doc = {};
  if (cmd.index !== undefined) Object.assign(reply, modifyIndex(ctx.catalog, coll, cmd.index));
  if (Object.keys(changes).length > 0) ctx.catalog.setOptions(coll, { ...coll.options, ...changes });
  return { ...reply, ok: 1 };
};

function modifyIndex(catalog: Catalog, coll: Collection, raw: unknown): Doc {
  if (!isPlainObject(raw)) throw commandError('TypeMismatch', "BSON field 'collMod.index' is the wrong type");
  const { keyPattern, name, expireAfterSeconds, hidden, ...rest } = raw;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw commandError(
      'CommandNotSupported',
      `collMod index option '${unknown}' is not supported by the embedded engine`,
    );
  const index = coll.indexes.find((ix) =>
    typeof name === 'string' ? ix.spec.name === name : valueKey(ix.spec.key) === valueKey(keyPattern),
  );
  if (!index)
    throw commandError('IndexNotFound', `cannot find index ${JSON.stringify(name ?? keyPattern)} for ns ${coll.ns}`);
  const spec = { ...index.spec };
  const reply: Doc = {};
  if (expireAfterSeconds !== undefined) {
    if (index.spec.expireAfterSeconds === undefined)
      throw commandError('InvalidOptions', 'no expireAfterSeconds field to update');
    spec.expireAfterSeconds = checkExpireAfterSeconds(expireAfterSeconds);
    reply.expireAfterSeconds_old = index.spec.expireAfterSeconds;
    reply.expireAfterSeconds_new = spec.expireAfterSeconds;
  }
  if (hidden !== undefined) {
    if (typeof hidden !== 'boolean') throw commandError('TypeMismatch', "BSON field 'hidden' must be a boolean");
    if (index.spec.name === '_id_') throw commandError('BadValue', "can't hide _id index");
    if (hidden) spec.hidden = true;
    else delete spec.hidden;
    reply.hidden_old = index.spec.hidden === true;
    reply.hidden_new = hidden;
  }
  if (valueKey(spec) !== valueKey(index.spec)) catalog.modifyIndex(coll, spec);
  return reply;
}

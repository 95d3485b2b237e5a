import { Long } from 'bson';
import { Query } from 'mingo/query';
import { simpleProjection } from '../query/simple-projection.js';
import { projectionOrder } from '../query/projection-order.js';
import { cloneDoc } from '../bson/clone.js';
import { valueKey } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import { mingoOptions } from '../query/operators.js';
import { pipelineWork } from '../query/pipeline.js';
import { CursorReply } from '../protocol/cursor-reply.js';
import { tick, type Work } from '../work.js';
import { normalizeRegexes } from '../query/regex.js';
import {
  collectionName,
  GENERIC_COMMAND_FIELDS,
  optionalDoc,
  optionalNumber,
  pipelineEnv,
  type CommandContext,
  type CommandHandler,
} from './context.js';
import { countMatchingWork, matchingWork, resolveHint } from './matching.js';
import { METADATA_SOURCES } from './coll-stats.js';
import { seenCount } from '../storage/overlay.js';

function firstBatch(
  ctx: CommandContext,
  ns: string,
  docs: Doc[],
  batchSize: number | undefined,
  singleBatch: boolean,
): CursorReply {
  const batch = ctx.cursors.first(ns, docs, batchSize, singleBatch);
  return new CursorReply('firstBatch', batch.docs, batch.id, ns);
}

function batchSizeOf(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw commandError('BadValue', `BatchSize value must be non-negative, but received: ${String(v)}`, { code: 51024 });
  return n;
}

function project(docs: Doc[], filter: unknown, projection: Doc | undefined, variables?: Doc): Doc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  const fast = simpleProjection(projection);
  if (fast) return docs.map(fast);
  try {
    const q = new Query(isPlainObject(filter) ? normalizeRegexes(filter) : {}, mingoOptions({ variables }));
    const out = q.find(docs.map(cloneDoc), projection).all() as Doc[];
    const order = projectionOrder(projection);
    return order && out.length === docs.length ? out.map((d, i) => order(docs[i] as Doc, d)) : out;
  } catch (err) {
    throw toCommandError(err);
  }
}

/** A `find` command's options, checked. */
export interface FindRequest {
  name: string;
  filter: unknown;
  sort: unknown;
  collation: unknown;
  projection?: Doc;
  variables?: Doc;
  skip: number;
  limit: number;
  singleBatch: boolean;
  hint: unknown;
}

/** `find` fields that only matter to features the engine has not (sharding, storage) and change nothing here. */
const FIND_FIELDS = new Set([
  'find',
  'filter',
  'sort',
  'projection',
  'skip',
  'limit',
  'batchSize',
  'singleBatch',
  'collation',
  'let',
  'hint',
  'allowDiskUse',
  'noCursorTimeout',
  'allowPartialResults',
  'readOnce',
  'oplogReplay',
]);
/** `find` fields whose feature the engine has not: refused rather than ignored. */
const UNSUPPORTED_FIND_FIELDS = new Set(['tailable', 'awaitData', 'min', 'max', 'returnKey', 'showRecordId']);

export function findRequest(cmd: Doc): FindRequest {
  const name = collectionName(cmd, 'find');
  for (const k of Object.keys(cmd)) {
    if (FIND_FIELDS.has(k) || GENERIC_COMMAND_FIELDS.has(k)) continue;
    if (UNSUPPORTED_FIND_FIELDS.has(k)) {
      if (cmd[k] === false) continue;
      throw commandError('CommandNotSupported', `find '${k}' is not supported by the embedded engine`);
    }
    throw new CommandError(40415, 'Location40415', `BSON field 'find.${k}' is an unknown field.`);
  }
  const skip = optionalNumber(cmd, 'skip') ?? 0;
  let limit = optionalNumber(cmd, 'limit') ?? 0;
  if (skip < 0) throw commandError('BadValue', 'skip value must be non-negative', { code: 51024 });
  let singleBatch = cmd.singleBatch === true;
  if (limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  return {
    name,
    filter: cmd.filter ?? {},
    sort: cmd.sort,
    collation: cmd.collation,
    projection: optionalDoc(cmd, 'projection'),
    variables: optionalDoc(cmd, 'let'),
    skip,
    limit,
    singleBatch,
    hint: cmd.hint,
  };
}

/** The documents a `find` answers (every batch). */
export function* findWork(req: FindRequest, ctx: CommandContext): Work<Doc[]> {
  const { filter, skip, limit, variables } = req;
  const coll = ctx.catalog.get(ctx.db, req.name);
  let docs = yield* matchingWork(coll, {
    filter,
    sort: req.sort,
    collation: req.collation,
    variables,
    limit: limit > 0 ? skip + limit : undefined,
    hint: resolveHint(coll, req.hint),
    overlay: ctx.overlay,
  });
  if (skip) docs = docs.slice(skip);
  if (limit) docs = docs.slice(0, limit);
  docs = project(docs, filter, req.projection, variables);
  tick(docs.length);
  return docs;
}

export const find: CommandHandler = function* (cmd, ctx) {
  const req = findRequest(cmd);
  const docs = yield* findWork(req, ctx);
  return firstBatch(ctx, `${ctx.db}.${req.name}`, docs, batchSizeOf(cmd.batchSize), req.singleBatch);
};

export const getMore: CommandHandler = (cmd, ctx) => {
  const id = cmd.getMore;
  if (!(id instanceof Long)) throw commandError('TypeMismatch', "Field 'getMore' must be of type long");
  const coll = typeof cmd.collection === 'string' ? cmd.collection : '';
  const ns = `${ctx.db}.${coll}`;
  const batch = ctx.cursors.next(id, ns, batchSizeOf(cmd.batchSize));
  return new CursorReply('nextBatch', batch.docs, batch.id, ns);
};

export const killCursors: CommandHandler = (cmd, ctx) => {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const id of ids) {
    const l = id instanceof Long ? id : Long.fromNumber(Number(id));
    (ctx.cursors.kill(l) ? killed : notFound).push(l);
  }
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

/** The number a `count` command answers. */
export function* countWork(cmd: Doc, ctx: CommandContext): Work<number> {
  const name = collectionName(cmd, 'count');
  const coll = ctx.catalog.get(ctx.db, name);
  const query = optionalDoc(cmd, 'query');
  const skip = optionalNumber(cmd, 'skip') ?? 0;
  const limit = Math.abs(optionalNumber(cmd, 'limit') ?? 0);
  let n =
    !query || Object.keys(query).length === 0
      ? coll
        ? seenCount(coll, ctx.overlay(coll))
        : 0
      : yield* countMatchingWork(coll, {
          filter: query,
          collation: cmd.collation,
          hint: resolveHint(coll, cmd.hint),
          overlay: ctx.overlay,
        });
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return n;
}

export const count: CommandHandler = function* (cmd, ctx) {
  return { n: yield* countWork(cmd, ctx), ok: 1 };
};

/** The values a `distinct` command answers. */
export function* distinctWork(cmd: Doc, ctx: CommandContext): Work<unknown[]> {
  const name = collectionName(cmd, 'distinct');
  if (typeof cmd.key !== 'string')
    throw commandError('TypeMismatch', "BSON field 'distinct.key' is missing but a required field");
  const key = cmd.key;
  const docs = yield* matchingWork(ctx.catalog.get(ctx.db, name), {
    filter: optionalDoc(cmd, 'query'),
    collation: cmd.collation,
    overlay: ctx.overlay,
  });
  const seen = new Map<string, unknown>();
  for (const d of docs) {
    for (const v of pathValues(d, key)) {
      if (v === undefined) continue;
      const k = valueKey(v);
      if (!seen.has(k)) seen.set(k, v);
    }
    if (tick()) yield;
  }
  return [...seen.values()];
}

export const distinct: CommandHandler = function* (cmd, ctx) {
  return { values: yield* distinctWork(cmd, ctx), ok: 1 };
};

/** The namespace of an `aggregate` command's cursor and the documents its pipeline produces. */
export function* aggregateWork(cmd: Doc, ctx: CommandContext): Work<{ ns: string; docs: Doc[] }> {
  const target = cmd.aggregate;
  const variables = optionalDoc(cmd, 'let');
  const env = { ...pipelineEnv(ctx, cmd.collation), ...(variables ? { variables } : {}) };
  if (target === 1) return { ns: `${ctx.db}.$cmd.aggregate`, docs: yield* pipelineWork([], cmd.pipeline, env) };
  const name = collectionName(cmd, 'aggregate');
  const ns = `${ctx.db}.${name}`;
  const [first, ...rest] = Array.isArray(cmd.pipeline) ? cmd.pipeline : [];
  const stage = isPlainObject(first) && Object.keys(first).length === 1 ? Object.keys(first)[0] : '';
  const source = Object.hasOwn(METADATA_SOURCES, stage) ? METADATA_SOURCES[stage] : undefined;
  if (source && isPlainObject(first))
    return { ns, docs: yield* pipelineWork(source(ctx, name, first[stage]), rest, env) };
  const coll = ctx.catalog.get(ctx.db, name);
  return { ns, docs: yield* pipelineWork(coll ?? [], cmd.pipeline, env, resolveHint(coll, cmd.hint)) };
}

export const aggregate: CommandHandler = function* (cmd, ctx) {
  const cursorOpt = optionalDoc(cmd, 'cursor');
  if (!cursorOpt)
    throw commandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  const { ns, docs } = yield* aggregateWork(cmd, ctx);
  return firstBatch(ctx, ns, docs, batchSizeOf(cursorOpt.batchSize), false);
};

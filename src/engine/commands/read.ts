import { Long } from 'bson';
import { Query } from 'mingo/query';
import { simpleProjection } from '../query/simple-projection.js';
import { cloneDoc } from '../bson/clone.js';
import { valueKey } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError, toCommandError } from '../errors.js';
import { mingoOptions } from '../query/operators.js';
import { pipelineWork } from '../query/pipeline.js';
import { CursorReply } from '../protocol/cursor-reply.js';
import { tick } from '../work.js';
import { normalizeRegexes } from '../query/regex.js';
import {
  collectionName,
  optionalDoc,
  optionalNumber,
  pipelineEnv,
  type CommandContext,
  type CommandHandler,
} from './context.js';
import { countMatchingWork, matchingWork } from './matching.js';

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
    return q.find(docs.map(cloneDoc), projection).all() as Doc[];
  } catch (err) {
    throw toCommandError(err);
  }
}

export const find: CommandHandler = function* (cmd, ctx) {
  const name = collectionName(cmd, 'find');
  const ns = `${ctx.db}.${name}`;
  const skip = optionalNumber(cmd, 'skip') ?? 0;
  let limit = optionalNumber(cmd, 'limit') ?? 0;
  if (skip < 0) throw commandError('BadValue', 'skip value must be non-negative', { code: 51024 });
  let singleBatch = cmd.singleBatch === true;
  if (limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const filter = cmd.filter ?? {};
  const variables = optionalDoc(cmd, 'let');
  const coll = ctx.catalog.get(ctx.db, name);
  let docs = yield* matchingWork(coll, {
    filter,
    sort: cmd.sort,
    collation: cmd.collation,
    variables,
    limit: limit > 0 ? skip + limit : undefined,
  });
  if (skip) docs = docs.slice(skip);
  if (limit) docs = docs.slice(0, limit);
  docs = project(docs, filter, optionalDoc(cmd, 'projection'), variables);
  tick(docs.length);
  return firstBatch(ctx, ns, docs, batchSizeOf(cmd.batchSize), singleBatch);
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

export const count: CommandHandler = function* (cmd, ctx) {
  const name = collectionName(cmd, 'count');
  const coll = ctx.catalog.get(ctx.db, name);
  const query = optionalDoc(cmd, 'query');
  const skip = optionalNumber(cmd, 'skip') ?? 0;
  const limit = Math.abs(optionalNumber(cmd, 'limit') ?? 0);
  let n =
    !query || Object.keys(query).length === 0
      ? (coll?.size ?? 0)
      : yield* countMatchingWork(coll, { filter: query, collation: cmd.collation });
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
};

export const distinct: CommandHandler = function* (cmd, ctx) {
  const name = collectionName(cmd, 'distinct');
  if (typeof cmd.key !== 'string')
    throw commandError('TypeMismatch', "BSON field 'distinct.key' is missing but a required field");
  const key = cmd.key;
  const docs = yield* matchingWork(ctx.catalog.get(ctx.db, name), {
    filter: optionalDoc(cmd, 'query'),
    collation: cmd.collation,
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
  return { values: [...seen.values()], ok: 1 };
};

export const aggregate: CommandHandler = function* (cmd, ctx) {
  const target = cmd.aggregate;
  if (cmd.explain) throw commandError('CommandNotSupported', 'explain is not supported by the embedded engine');
  const cursorOpt = optionalDoc(cmd, 'cursor');
  if (!cursorOpt)
    throw commandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  const variables = optionalDoc(cmd, 'let');
  const env = { ...pipelineEnv(ctx, cmd.collation), ...(variables ? { variables } : {}) };
  let docs: Doc[];
  let ns: string;
  if (target === 1 || (typeof target === 'number' && target === 1)) {
    ns = `${ctx.db}.$cmd.aggregate`;
    docs = yield* pipelineWork([], cmd.pipeline, env);
  } else {
    const name = collectionName(cmd, 'aggregate');
    ns = `${ctx.db}.${name}`;
    const coll = ctx.catalog.get(ctx.db, name);
    docs = yield* pipelineWork(coll ?? [], cmd.pipeline, env);
  }
  return firstBatch(ctx, ns, docs, batchSizeOf(cursorOpt.batchSize), false);
};

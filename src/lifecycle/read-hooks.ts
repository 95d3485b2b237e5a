/**
 * The read actions of Strapi v4's database lifecycles (`beforeFindMany`/`afterFindMany`,
 * `beforeFindOne`/`afterFindOne`, `beforeCount`/`afterCount`) around the entity service's and the
 * query engine's reads. `event.params` is the query engine's (`where`, `select`, `populate`,
 * `orderBy`, `limit`, `offset`): a before-hook may change it, and the read uses what it leaves;
 * `event.result` (entries or a count) may be changed in place by an after-hook.
 */
import { populateForQuery, populateFromQuery } from '../query/index.js';
import type { DbLifecycles } from '../service-context.js';

type Params = Record<string, unknown>;
export type ReadAction = 'FindMany' | 'FindOne' | 'Count';

/** Entity service parameter → query engine parameter, as Strapi's entity service converts them. */
const TO_QUERY: ReadonlyArray<readonly [string, string]> = [
  ['filters', 'where'],
  ['fields', 'select'],
  ['populate', 'populate'],
  ['sort', 'orderBy'],
  ['limit', 'limit'],
  ['start', 'offset'],
];

function mapKeys(params: Params, pairs: ReadonlyArray<readonly [string, string]>, reverse: boolean): Params {
  const out: Params = {};
  for (const [entityKey, queryKey] of pairs) {
    const [from, to] = reverse ? [queryKey, entityKey] : [entityKey, queryKey];
    if (params[from] !== undefined) out[to] = params[from];
  }
  return out;
}

/** `{ filters, fields, sort, start… }` → `{ where, select, orderBy, offset… }` (`populate: '*'` → `true`, `'a,b'` → `['a', 'b']`) */
export function queryParams(params: Params): Params {
  const query = mapKeys(params, TO_QUERY, false);
  if (query.populate !== undefined) query.populate = populateForQuery(query.populate);
  return query;
}

/** `{ where, select, orderBy, offset… }` → `{ filters, fields, sort, start… }` */
export function entityParams(params: Params): Params {
  const entity = mapKeys(params, TO_QUERY, true);
  if (entity.populate !== undefined) entity.populate = populateFromQuery(entity.populate);
  return entity;
}

/** Runs `run` between the before- and after-hooks of `action`, with the params the before-hooks leave. */
async function aroundHooks<T>(
  lifecycles: DbLifecycles,
  action: string,
  uid: string,
  params: Params,
  run: (params: Params) => Promise<T>,
): Promise<T> {
  const before = `before${action}`;
  const after = `after${action}`;
  const event = { params };
  const states = lifecycles.listens(before, uid) ? await lifecycles.run(before, uid, event) : undefined;
  const result = await run(event.params);
  if (lifecycles.listens(after, uid)) await lifecycles.run(after, uid, { params: event.params, result }, states);
  return result;
}

/**
 * Runs `read` (given entity service parameters) between the action's before- and after-hooks;
 * without any hook for it, just the read.
 */
export function withReadHooks<T>(
  lifecycles: DbLifecycles,
  action: ReadAction,
  uid: string,
  params: Params,
  read: (params: Params) => Promise<T>,
): Promise<T> {
  if (!lifecycles.listens(`before${action}`, uid) && !lifecycles.listens(`after${action}`, uid)) return read(params);
  // what the hooks leave, plus what the query engine has no words for (locale, publicationState)
  const untouched = Object.fromEntries(Object.entries(params).filter(([key]) => !TO_QUERY.some(([k]) => k === key)));
  return aroundHooks(lifecycles, action, uid, queryParams(params), (query) =>
    read({ ...untouched, ...entityParams(query) }),
  );
}

/** No hooks: for the reads and writes a `*Many` action makes, which Strapi runs without per-entry hooks. */
export const NO_LIFECYCLES: DbLifecycles = {
  listens: () => false,
  run: async (_action, _uid, _properties, states = new Map()) => states,
};

/**
 * Runs a `*Many` write (`CreateMany`, `UpdateMany`, `DeleteMany`) between its before- and
 * after-hooks; the after-hook sees `{ count }` (and `ids` for CreateMany) as `event.result`.
 */
export function withManyHooks<T>(
  lifecycles: DbLifecycles,
  action: 'CreateMany' | 'UpdateMany' | 'DeleteMany',
  uid: string,
  params: Params,
  write: (params: Params) => Promise<T>,
): Promise<T> {
  return aroundHooks(lifecycles, action, uid, params, write);
}

/**
 * The read actions of Strapi v4's database lifecycles (`beforeFindMany`/`afterFindMany`,
 * `beforeFindOne`/`afterFindOne`, `beforeCount`/`afterCount`) as its query engine hands them a
 * read: `event.params` in the query engine's words (`where`, `select`, `populate`, `orderBy`,
 * `limit`, `offset`), which a before-hook may change; `event.result` (flat entries, one entry or
 * a count), which an after-hook may change in place (Strapi answers the object it read, so a
 * hook that assigns a new `event.result` changes nothing).
 */
import { isDeepStrictEqual } from 'node:util';
import type { DbLifecycles, LifecycleStates } from '../service-context.js';
import { paginationWindow } from './parse/pagination.js';
import { populateForQuery, populateFromQuery } from './populate-words.js';
import type { Pagination } from './read-tree.js';
import { parseSort } from './sort/parse.js';

export type QueryParams = Record<string, unknown>;
export type ReadAction = 'FindMany' | 'FindOne' | 'Count';

/** A read's hooks: what the before-hooks left, whether they changed it, the states for the after-hooks. */
export interface HookedRead {
  params: QueryParams;
  changed: boolean;
  states: LifecycleStates | undefined;
}

export function listensToRead(lifecycles: DbLifecycles | undefined, action: ReadAction, uid: string): boolean {
  return (
    lifecycles !== undefined &&
    (lifecycles.listens(`before${action}`, uid) || lifecycles.listens(`after${action}`, uid))
  );
}

export async function runBeforeRead(
  lifecycles: DbLifecycles,
  action: ReadAction,
  uid: string,
  params: QueryParams,
): Promise<HookedRead> {
  const before = `before${action}`;
  if (!lifecycles.listens(before, uid)) return { params, changed: false, states: undefined };
  const asked = structuredClone(params);
  const event = { params };
  const states = await lifecycles.run(before, uid, event);
  return { params: event.params, changed: !isDeepStrictEqual(asked, event.params), states };
}

export async function runAfterRead(
  lifecycles: DbLifecycles,
  action: ReadAction,
  uid: string,
  read: HookedRead,
  result: unknown,
): Promise<void> {
  const after = `after${action}`;
  if (lifecycles.listens(after, uid)) await lifecycles.run(after, uid, { params: read.params, result }, read.states);
}

/** `title:desc`, `['a', 'b:desc']`, `{ author: { name: 'asc' } }` → `[{ title: 'desc' }]`, as Strapi's `orderBy`. */
export function orderByOf(sort: unknown): Array<Record<string, unknown>> {
  return parseSort(sort).map(({ path, direction }) => {
    let node: Record<string, unknown> = { [path[path.length - 1] ?? '']: direction === 1 ? 'asc' : 'desc' };
    for (const key of path.slice(0, -1).reverse()) node = { [key]: node };
    return node;
  });
}

/** The REST query's selection in the query engine's words: `where`, `select` (with `id`), `populate`, `orderBy`. */
export function selectionParams(rawQuery: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  if (rawQuery.filters !== undefined) params.where = rawQuery.filters;
  if (rawQuery.fields !== undefined) {
    const fields = Array.isArray(rawQuery.fields) ? rawQuery.fields : String(rawQuery.fields).split(',');
    params.select = ['id', ...fields.filter((field) => field !== 'id')];
  }
  if (rawQuery.sort !== undefined) params.orderBy = orderByOf(rawQuery.sort);
  if (rawQuery.populate !== undefined) params.populate = populateForQuery(rawQuery.populate);
  if (rawQuery._q !== undefined) params._q = rawQuery._q;
  return params;
}

/** The page a list reads, as `offset`/`limit` (no `limit` when unbounded). */
export function windowParams(pagination: Pagination): QueryParams {
  const { skip, limit } = paginationWindow(pagination);
  return limit === null ? { offset: skip } : { offset: skip, limit };
}

/** What a count is asked with: the list's pagination as Strapi's core service hands it on. */
export function countPaginationParams(pagination: Pagination): QueryParams {
  return pagination.style === 'page'
    ? { page: pagination.page, pageSize: pagination.pageSize }
    : { offset: pagination.start, ...(pagination.limit === -1 ? {} : { limit: pagination.limit }) };
}

/**
 * The REST query a read runs after its before-hooks: their `where`, `select`, `orderBy`,
 * `populate` and `_q` in place of the request's; what the query engine has no words for
 * (locale, publicationState, fallbackLocale) kept from the request.
 */
export function queryOfParams(rawQuery: Record<string, unknown>, params: QueryParams): Record<string, unknown> {
  const { filters: _f, fields: _s, sort: _o, populate: _p, _q: _search, pagination: _w, ...kept } = rawQuery;
  const query: Record<string, unknown> = { ...kept };
  if (params.where !== undefined && params.where !== null) query.filters = params.where;
  if (Array.isArray(params.select)) query.fields = params.select.filter((field) => field !== 'id');
  if (params.orderBy !== undefined) query.sort = params.orderBy;
  if (params.populate !== undefined) query.populate = populateFromQuery(params.populate);
  if (params._q !== undefined) query._q = params._q;
  return query;
}

/** The window a list reads after its before-hooks (`offset`/`limit`), never counted. */
export function paginationOfParams(params: QueryParams): Pagination {
  const offset = Number(params.offset ?? 0);
  const limit = params.limit === undefined || params.limit === null ? -1 : Number(params.limit);
  return {
    style: 'offset',
    start: Number.isInteger(offset) && offset > 0 ? offset : 0,
    limit: Number.isInteger(limit) && limit > 0 ? limit : -1,
    withCount: false,
  };
}

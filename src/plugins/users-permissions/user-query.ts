import { isPrivate, isScalar, USER_UID } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { OperationContext, RawQuery } from '../../operations/index.js';
import {
  listensToRead,
  readEntries,
  readEntry,
  runAfterRead,
  runBeforeRead,
  APP_CODE,
  validateUnused,
  type PlainEntry,
} from '../../query/index.js';
import { collectionOf } from './collections.js';

const invalid = (name: string) => new ValidationError(`Invalid parameter ${name}`);

function nonNegativeInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw invalid(name);
  return n;
}

/** `limit` as Strapi's users route reads it: `-1` and `0` mean no limit. */
function usersLimit(value: unknown): number {
  if (value === '-1') return Number.MAX_SAFE_INTEGER;
  const limit = nonNegativeInteger('limit', value);
  return limit === undefined || limit === 0 ? Number.MAX_SAFE_INTEGER : limit;
}

/** Top-level keys Strapi's users list does not read as the shared read path would (pagination is `start`/`limit` only). */
const USERS_WINDOW_KEYS = ['pagination', 'start', 'limit', 'page', 'pageSize'];

/** Strapi's users routes refuse a populate naming a private attribute (the shared parser leaves it out). */
function refusePrivatePopulate(ctx: OperationContext, raw: unknown): void {
  if (raw === undefined || raw === null) return;
  const names =
    typeof raw === 'string'
      ? raw.split(',')
      : Array.isArray(raw)
        ? raw
        : typeof raw === 'object'
          ? Object.keys(raw)
          : [];
  const ct = ctx.registry.contentType(USER_UID);
  for (const name of names) {
    const attribute = typeof name === 'string' ? ct?.attributes[name.trim()] : undefined;
    if (attribute && isPrivate(attribute)) throw invalid(String(name));
  }
}

/**
 * `GET /api/users`: Strapi v4 answers a bare array of flat users. The shared read path runs it
 * (fields, populate of any relation or media the caller may read, filters and sort; private
 * attributes are refused there); `start`/`limit` are top-level and unbounded by default (`limit`
 * -1 or 0 too), and `pagination[...]`, `page` and `pageSize` are ignored, as in Strapi. The app's
 * findMany hooks of the user model run around it.
 */
export async function findUsers(ctx: OperationContext, query: RawQuery): Promise<Record<string, unknown>[]> {
  const start = nonNegativeInteger('start', query.start) ?? 0;
  const limit = usersLimit(query.limit);
  refusePrivatePopulate(ctx, query.populate);
  const rest = Object.fromEntries(Object.entries(query).filter(([key]) => !USERS_WINDOW_KEYS.includes(key)));
  const { entries } = await readEntries(ctx, USER_UID, rest, {
    style: 'plain',
    window: { start, limit },
    lifecycles: ctx.lifecycles,
  });
  return entries;
}

/** `GET /api/users/:id` and `/api/users/me`: one flat user with the request's fields and populate (findOne hooks run); null when none. */
export async function findUser(ctx: OperationContext, id: number, query: RawQuery): Promise<PlainEntry | null> {
  refusePrivatePopulate(ctx, query.populate);
  return readEntry(ctx, USER_UID, { _id: id }, query, { style: 'plain', lifecycles: ctx.lifecycles, where: { id } });
}

/**
 * `GET /api/users/count`: Strapi v4 passes the query string as a `where`, so only plain equality on
 * readable scalar attributes is accepted here (`?confirmed=true`); anything else is a 400. Strapi
 * validates `filters` first (naming a bad attribute, as on the list) and answers valid ones with a
 * 500 (it passes them to the database as a column): a 400 here. The user model's count hooks run around it.
 */
export async function countUsers(ctx: OperationContext, query: RawQuery): Promise<number> {
  const ct = ctx.registry.contentType(USER_UID);
  const match: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name === 'filters') validateUnused(ctx, USER_UID, { filters: value });
    const attribute = ct?.attributes[name];
    if (!attribute || isPrivate(attribute) || !isScalar(attribute) || typeof value !== 'string') throw invalid(name);
    if (attribute.type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw invalid(name);
      match[name] = value === 'true';
    } else if (attribute.type === 'string' || attribute.type === 'email' || attribute.type === 'text') {
      match[name] = attribute.type === 'email' ? value.toLowerCase() : value;
    } else {
      throw invalid(name);
    }
  }
  const lifecycles = ctx.lifecycles;
  if (!lifecycles || !listensToRead(lifecycles, 'Count', USER_UID))
    return collectionOf(ctx, USER_UID).countDocuments(match);
  // the count hooks get the query string as Strapi's `where`; a where a before-hook changed is the app's
  const hooked = await runBeforeRead(lifecycles, 'Count', USER_UID, { where: { ...query } });
  const count = hooked.changed
    ? ((
        await readEntries({ ...ctx, access: APP_CODE }, USER_UID, {
          filters: hooked.params.where,
          pagination: { start: 0, limit: 1, withCount: true },
        })
      ).pagination.total ?? 0)
    : await collectionOf(ctx, USER_UID).countDocuments(match);
  await runAfterRead(lifecycles, 'Count', USER_UID, hooked, count);
  return count;
}

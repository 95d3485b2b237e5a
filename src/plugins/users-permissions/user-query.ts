import { isPrivate, USER_UID } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { OperationContext, RawQuery } from '../../operations/index.js';
import {
  listensToRead,
  readEntries,
  readEntry,
  runAfterRead,
  runBeforeRead,
  APP_CODE,
  checkEntryQuery,
  validateUnused,
  type PlainEntry,
} from '../../query/index.js';
import { looseNumber } from '../../query/qs-values.js';

const invalid = (name: string) => new ValidationError(`Invalid parameter ${name}`);

/** A `start`/`limit` value read as Strapi reads them (lodash `toNumber`: `2.0`, `1e1`, `0x3`, `+3`), a whole number from 0. */
function nonNegativeInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = looseNumber(value);
  if (!Number.isSafeInteger(n) || n < 0) throw invalid(name);
  return n;
}

/** `limit` as Strapi's users route reads it: `-1` and `0` mean no limit. */
function usersLimit(value: unknown): number {
  if (value !== undefined && looseNumber(value) === -1) return Number.MAX_SAFE_INTEGER;
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

/** What `findUser` checks of a query (its 400s), without reading: for an id that names no user. */
export function checkUserQuery(ctx: OperationContext, query: RawQuery): void {
  refusePrivatePopulate(ctx, query.populate);
  checkEntryQuery(ctx, USER_UID, withoutPublicationState(query));
}

/** Strapi's user findOne never reads `publicationState` (users have no drafts): any value answers. */
function withoutPublicationState(query: RawQuery): RawQuery {
  if (query.publicationState === undefined) return query;
  return { ...query, publicationState: undefined };
}

/** `GET /api/users/:id` and `/api/users/me`: one flat user with the request's fields and populate (findOne hooks run); null when none. */
export async function findUser(ctx: OperationContext, id: number, query: RawQuery): Promise<PlainEntry | null> {
  refusePrivatePopulate(ctx, query.populate);
  return readEntry(ctx, USER_UID, { _id: id }, withoutPublicationState(query), {
    style: 'plain',
    lifecycles: ctx.lifecycles,
    where: { id },
  });
}

/** The list parameters Strapi's users count validates (in this order) before its database reads them as columns. */
const COUNT_VALIDATED_PARAMETERS = ['filters', 'sort', 'fields'] as const;

/**
 * `GET /api/users/count`: Strapi v4 passes the query string as the count's `where`, so every key is
 * a filter (`?username[$in][0]=a`, `?role[type]=authenticated`, `?$or[0][confirmed]=true`) read as
 * a list's `filters` are, with the caller's permissions (private attributes refused). `filters`,
 * `sort` and `fields` Strapi first validates as on the list (`Invalid parameter <name>` for a bad
 * or private attribute) and answers valid ones with a 500 (it passes them to the database as a
 * column): a 400 naming the parameter here. The user model's count hooks run around it.
 */
export async function countUsers(ctx: OperationContext, query: RawQuery): Promise<number> {
  const validated = COUNT_VALIDATED_PARAMETERS.filter((name) => name in query);
  if (validated.length > 0) {
    validateUnused(ctx, USER_UID, { filters: query.filters });
    checkEntryQuery(ctx, USER_UID, { sort: query.sort, fields: query.fields });
    throw invalid(validated[0]!);
  }
  const lifecycles = ctx.lifecycles;
  const hooked =
    lifecycles && listensToRead(lifecycles, 'Count', USER_UID)
      ? await runBeforeRead(lifecycles, 'Count', USER_UID, { where: { ...query } })
      : undefined;
  // a where a before-hook changed is the app's, read unrestricted
  const reader = hooked?.changed ? { ...ctx, access: APP_CODE } : ctx;
  const { pagination } = await readEntries(reader, USER_UID, {
    filters: hooked?.changed ? hooked.params.where : query,
    pagination: { start: 0, limit: 1, withCount: true },
  });
  const count = pagination.total ?? 0;
  if (lifecycles && hooked) await runAfterRead(lifecycles, 'Count', USER_UID, hooked, count);
  return count;
}

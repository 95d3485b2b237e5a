/**
 * `@strapi/strapi/lib/core-api/service/pagination` (4.0 to 4.14; `dist/` from 4.15) for a project
 * that requires it: services copied from Strapi's core service (a plugin's own `find` with
 * `getPaginationInfo` and `transformPaginationResponse`) and controllers answering a page of their
 * own query. The four helpers behave as Strapi 4.26's, reading `api.rest` (defaultLimit, maxLimit,
 * withCount) through the global `strapi`; contradictory pagination is a 400, as there.
 */
import { ValidationError } from '../../errors/index.js';

interface PagedPagination {
  page: number;
  pageSize: number;
}
interface OffsetPagination {
  start: number;
  limit: number;
}
export type PaginationInfo = PagedPagination | OffsetPagination;
type Params = { pagination?: unknown } | undefined;

const TRUE_VALUES: readonly unknown[] = ['true', 't', '1', 1];
const FALSE_VALUES: readonly unknown[] = ['false', 'f', '0', 0];

function restConfig(path: string, fallback?: unknown): unknown {
  const strapi = globalThis.strapi;
  if (!strapi) throw new Error('the pagination helpers of @strapi/strapi need a running Strapi application');
  return strapi.config.get(`api.rest.${path}`, fallback);
}

function limits(): { defaultLimit: number; maxLimit: number | null } {
  return {
    defaultLimit: Number(restConfig('defaultLimit', 25)),
    maxLimit: Number(restConfig('maxLimit')) || null,
  };
}

function paginationOf(params: Params): Record<string, unknown> | undefined {
  const pagination = params?.pagination;
  return typeof pagination === 'object' && pagination !== null ? (pagination as Record<string, unknown>) : undefined;
}

const has = (pagination: Record<string, unknown> | undefined, key: string) =>
  pagination !== undefined && Object.hasOwn(pagination, key);

/** Whether the answer counts the entries: `pagination.withCount` when given, else `api.rest.withCount` (true). */
export function shouldCount(params: Params): boolean {
  const pagination = paginationOf(params);
  if (!has(pagination, 'withCount')) return Boolean(restConfig('withCount', true));
  const withCount = pagination?.withCount;
  if (typeof withCount === 'boolean') return withCount;
  if (withCount === undefined) return false;
  if (TRUE_VALUES.includes(withCount)) return true;
  if (FALSE_VALUES.includes(withCount)) return false;
  throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
}

/** The page asked for (page/pageSize or start/limit), the defaults and `maxLimit` applied. */
export function getPaginationInfo(params: Params): PaginationInfo {
  const { defaultLimit, maxLimit } = limits();
  const pagination = paginationOf(params);
  const paged = has(pagination, 'page') || has(pagination, 'pageSize');
  const offset = has(pagination, 'start') || has(pagination, 'limit');
  if (paged && offset)
    throw new ValidationError('Invalid pagination parameters. Expected either start/limit or page/pageSize');
  if (!pagination || (!paged && !offset)) return { page: 1, pageSize: defaultLimit };
  if (paged) {
    const pageSize = pagination.pageSize === undefined ? defaultLimit : Math.max(1, Number(pagination.pageSize));
    return {
      page: Math.max(1, Number(pagination.page || 1)),
      pageSize: maxLimit !== null && pageSize > maxLimit ? maxLimit : Math.max(1, pageSize),
    };
  }
  const limit = pagination.limit === undefined ? defaultLimit : Number(pagination.limit);
  const capped = limit === -1 || (maxLimit !== null && limit > maxLimit);
  return {
    start: Math.max(0, Number(pagination.start || 0)),
    limit: capped ? (maxLimit ?? -1) : Math.max(1, limit),
  };
}

/** page/pageSize as the start/limit the entity service takes; start/limit as given. */
export function convertPagedToStartLimit(info: PaginationInfo): OffsetPagination {
  return 'page' in info ? { start: (info.page - 1) * info.pageSize, limit: info.pageSize } : info;
}

/** The `meta.pagination` of an answer: the page with `pageCount` and `total`, or start/limit with `total`. */
export function transformPaginationResponse(info: PaginationInfo, count: number): Record<string, number> {
  return 'page' in info
    ? { ...info, pageCount: Math.ceil(count / info.pageSize), total: count }
    : { ...info, total: count };
}

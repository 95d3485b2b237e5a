import { PaginationError, ValidationError } from '../../errors/index.js';
import { isPlainObject, looseNumber } from '../qs-values.js';
import type { Pagination } from '../read-tree.js';

export interface PaginationLimits {
  /** page size when none is asked (`api.rest.defaultLimit`) */
  defaultLimit: number;
  /** largest page size (`api.rest.maxLimit`; 0 or less: none) */
  maxLimit: number;
  /** whether `total` is counted when `withCount` is not given */
  withCount: boolean;
}

const BOTH_STYLES = 'Invalid pagination parameters. Expected either start/limit or page/pageSize';
const WITH_COUNT = 'Invalid withCount parameter. Expected "t","1","true","false","0","f"';

/**
 * `pagination[page|pageSize|start|limit|withCount]` of a REST find, read as Strapi v4's core
 * service reads them: values are read as numbers (`''` is 0, `0x10` is 16), a page below 1 is 1,
 * a size below 1 is 1, over `maxLimit` is `maxLimit`, `limit=-1` is `maxLimit` (or no limit, -1,
 * without one); a value that is not an object and keys Strapi does not know are ignored. Mixing
 * the two styles is Strapi's 400 ValidationError; a window that is not whole numbers (Strapi: 500)
 * is a 400 ValidationError; a fractional page that has to be counted is Strapi's PaginationError.
 */
export function parsePagination(raw: unknown, limits: PaginationLimits): Pagination {
  const spec = isPlainObject(raw) ? raw : {};
  const usesPage = Object.hasOwn(spec, 'page') || Object.hasOwn(spec, 'pageSize');
  const usesOffset = Object.hasOwn(spec, 'start') || Object.hasOwn(spec, 'limit');
  if (usesPage && usesOffset) throw new ValidationError(BOTH_STYLES);
  if (usesOffset) {
    const asked = spec.limit === undefined ? limits.defaultLimit : looseNumber(spec.limit);
    const start = Math.max(0, looseNumber(spec.start || 0));
    const limit = asked === -1 || exceeds(asked, limits) ? (hasMax(limits) ? limits.maxLimit : -1) : Math.max(1, asked);
    requireWhole(start, 'pagination[start]');
    requireWhole(limit, 'pagination[limit]');
    return { style: 'offset', start, limit, withCount: parseWithCount(spec, limits) };
  }
  if (!usesPage) {
    return { style: 'page', page: 1, pageSize: limits.defaultLimit, withCount: parseWithCount(spec, limits) };
  }
  const asked = spec.pageSize === undefined ? limits.defaultLimit : Math.max(1, looseNumber(spec.pageSize));
  const page = Math.max(1, looseNumber(spec.page || 1));
  const pageSize = exceeds(asked, limits) ? limits.maxLimit : Math.max(1, asked);
  requireWhole(pageSize, 'pagination[pageSize]');
  requireWhole((page - 1) * pageSize, 'pagination[page]');
  const withCount = parseWithCount(spec, limits);
  // counting reads the page again, and Strapi checks it there
  if (withCount && !Number.isInteger(page))
    throw new PaginationError(`Invalid 'page' parameter. Expected an integer > 0, received: ${page}`);
  return { style: 'page', page, pageSize, withCount };
}

/**
 * Top-level `page`, `pageSize`, `start`, `limit` of a REST find (beside `pagination`): Strapi's
 * core service passes them on next to the window it computed from `pagination`, and its query
 * conversion refuses a query mixing both styles (400 PaginationError). So `page`/`pageSize` are
 * always refused, `start`/`limit` when the window is in pages and is counted, and otherwise ignored.
 */
export function checkTopLevelPagination(query: Record<string, unknown>, pagination: Pagination): void {
  const given = (key: string) => query[key] !== undefined && query[key] !== null;
  const mixed =
    given('page') ||
    given('pageSize') ||
    ((given('start') || given('limit')) && pagination.style === 'page' && pagination.withCount);
  if (mixed)
    throw new PaginationError(
      'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
    );
}

/** `skip`/`limit` of a pagination (`limit` null: no limit). */
export function paginationWindow(pagination: Pagination): { skip: number; limit: number | null } {
  return pagination.style === 'page'
    ? { skip: (pagination.page - 1) * pagination.pageSize, limit: pagination.pageSize }
    : { skip: pagination.start, limit: pagination.limit === -1 ? null : pagination.limit };
}

/** Strapi's `meta.pagination` in the style that was asked; without `total`/`pageCount` when not counted. */
export function paginationMeta(pagination: Pagination, total: number | null): Record<string, number> {
  if (pagination.style === 'page') {
    const meta: Record<string, number> = { page: pagination.page, pageSize: pagination.pageSize };
    if (total !== null) Object.assign(meta, { pageCount: Math.ceil(total / pagination.pageSize), total });
    return meta;
  }
  const meta: Record<string, number> = { start: pagination.start, limit: pagination.limit };
  if (total !== null) meta.total = total;
  return meta;
}

/**
 * A populated relation's own `meta.pagination` (beyond Strapi: docs/strapi-deviations.md,
 * "Pagination inside populate"): always in pages, as GraphQL answers it, an offset window read as
 * the page it starts (`start=4&limit=2`: page 3 of size 2; no limit: one page of the rest).
 */
export function populatePaginationMeta(pagination: Pagination, total: number | null): Record<string, number> {
  if (pagination.style === 'page') return paginationMeta(pagination, total);
  const { start, limit } = pagination;
  if (limit === -1) {
    const meta: Record<string, number> = { page: 1 };
    if (total !== null) Object.assign(meta, { pageSize: Math.max(total - start, 0), pageCount: 1, total });
    return meta;
  }
  const meta: Record<string, number> = { page: Math.floor(start / limit) + 1, pageSize: limit };
  if (total !== null) Object.assign(meta, { pageCount: Math.ceil(total / limit), total });
  return meta;
}

/** Strapi's `withCount`: a boolean or `true/t/1`, `false/f/0`; anything else is its 400. */
function parseWithCount(spec: Record<string, unknown>, limits: PaginationLimits): boolean {
  if (!Object.hasOwn(spec, 'withCount')) return limits.withCount;
  const value = spec.withCount;
  if (typeof value === 'boolean') return value;
  if (value === undefined) return false;
  if (['true', 't', '1', 1].includes(value as string)) return true;
  if (['false', 'f', '0', 0].includes(value as string)) return false;
  throw new ValidationError(WITH_COUNT);
}

function requireWhole(value: number, param: string): void {
  if (!Number.isSafeInteger(value) || value < -1)
    throw new ValidationError(`Invalid parameter ${param}: expected an integer`);
}

function exceeds(size: number, limits: PaginationLimits): boolean {
  return hasMax(limits) && size > limits.maxLimit;
}

function hasMax(limits: PaginationLimits): boolean {
  return limits.maxLimit > 0;
}

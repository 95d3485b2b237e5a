import { AppError, ValidationError } from '../../errors/index.js';
import { isPlainObject } from '../qs-values.js';
import type { Pagination } from '../read-tree.js';

export interface PaginationLimits {
  /** page size when none is asked (`api.rest.defaultLimit`) */
  defaultLimit: number;
  /** largest page size (`api.rest.maxLimit`; -1 or 0: none) */
  maxLimit: number;
  /** whether `total` is counted when `withCount` is not given */
  withCount: boolean;
}

const PAGE_KEYS = ['page', 'pageSize'];
const OFFSET_KEYS = ['start', 'limit'];
const KNOWN_KEYS = new Set([...PAGE_KEYS, ...OFFSET_KEYS, 'withCount']);

/**
 * `pagination[page|pageSize|start|limit|withCount]` as Strapi v4 adjusts them: page below 1 → 1,
 * pageSize / limit 0 → 1, over the maximum → the maximum, `limit=-1` → the maximum, start below 0
 * → 0. Non-integer values, unknown keys and mixing the two styles are 400s (Deviation 1).
 * `param` names the parameter in messages (`pagination`, `populate[tags][pagination]`).
 */
export function parsePagination(raw: unknown, limits: PaginationLimits, param = 'pagination'): Pagination {
  if (raw === undefined)
    return { style: 'page', page: 1, pageSize: capped(limits.defaultLimit, limits), withCount: limits.withCount };
  if (!isPlainObject(raw)) throw new ValidationError(`Invalid parameter ${param}`, {});
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) throw new ValidationError(`Invalid parameter ${param}[${key}]`, {});
  }
  const withCount = parseWithCount(raw.withCount, limits.withCount, param);
  const usesPage = PAGE_KEYS.some((key) => raw[key] !== undefined);
  const usesOffset = OFFSET_KEYS.some((key) => raw[key] !== undefined);
  if (usesPage && usesOffset) {
    // Strapi's own error for this case (a 400 PaginationError)
    throw new AppError(400, 'PaginationError', 'Cannot use both page & offset pagination in the same query', {});
  }
  if (usesOffset) {
    const start = Math.max(0, integer(raw.start, 0, `${param}[start]`));
    return {
      style: 'offset',
      start,
      limit: adjustSize(integer(raw.limit, limits.defaultLimit, `${param}[limit]`), limits),
      withCount,
    };
  }
  const page = Math.max(1, integer(raw.page, 1, `${param}[page]`));
  return {
    style: 'page',
    page,
    pageSize: adjustSize(integer(raw.pageSize, limits.defaultLimit, `${param}[pageSize]`), limits),
    withCount,
  };
}

/** `skip`/`limit` of a pagination. */
export function paginationWindow(pagination: Pagination): { skip: number; limit: number } {
  return pagination.style === 'page'
    ? { skip: (pagination.page - 1) * pagination.pageSize, limit: pagination.pageSize }
    : { skip: pagination.start, limit: pagination.limit };
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

/** An integer query value (`"2"`, `2`); `fallback` when absent; a 400 otherwise. */
export function integer(value: unknown, fallback: number, param: string): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  throw new ValidationError(`Invalid parameter ${param}: expected an integer`, {});
}

function parseWithCount(value: unknown, fallback: boolean, param: string): boolean {
  if (value === undefined) return fallback;
  // the strings Strapi's boolean parsing accepts
  if (value === true || (typeof value === 'string' && ['true', 't', '1'].includes(value))) return true;
  if (value === false || (typeof value === 'string' && ['false', 'f', '0'].includes(value))) return false;
  throw new ValidationError(`Invalid parameter ${param}[withCount]: expected true or false`, {});
}

function adjustSize(size: number, limits: PaginationLimits): number {
  if (size === -1) return hasMax(limits) ? limits.maxLimit : Number.MAX_SAFE_INTEGER;
  return capped(Math.max(1, size), limits);
}

function capped(size: number, limits: PaginationLimits): number {
  return hasMax(limits) ? Math.min(size, limits.maxLimit) : size;
}

function hasMax(limits: PaginationLimits): boolean {
  return limits.maxLimit > 0;
}

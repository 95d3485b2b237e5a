/**
 * The `pagination` argument of GraphQL lists, as Strapi v4's GraphQL plugin reads it (its
 * `withDefaultPagination`), which differs from REST: a page without `pageSize` has 1 entry, a start
 * without `limit` has `defaultLimit`, `limit: -1` is `maxLimit` (or everything without one), sizes
 * below 1 are 1. On top of it `amountLimit` caps the entries of a list (the seed's rule).
 */
import { PaginationError } from '../../errors/index.js';
import { isRecord } from './values.js';

export interface GraphQLPageLimits {
  defaultLimit: number;
  /** -1: none */
  maxLimit: number;
  /** 0 or less: none */
  amountLimit: number;
}

/** The window Strapi computes (`limit` -1: all entries), and the one read after `amountLimit`. */
export interface GraphQLWindow {
  start: number;
  limit: number;
  /** the entries actually read: `limit` capped by `amountLimit` (-1: all) */
  readLimit: number;
}

export function graphqlWindow(raw: unknown, limits: GraphQLPageLimits): GraphQLWindow {
  const args = isRecord(raw) ? raw : {};
  const given = (key: string) => args[key] !== undefined && args[key] !== null;
  const usesPage = given('page') || given('pageSize');
  const usesOffset = given('start') || given('limit');
  let start = 0;
  let limit = limits.defaultLimit;
  if (usesPage && usesOffset) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  if (usesOffset) {
    start = numberArg(args.start, 0);
    limit = numberArg(args.limit, limits.defaultLimit);
  } else if (usesPage) {
    const pageSize = Math.max(1, numberArg(args.pageSize, 0));
    start = (numberArg(args.page, 1) - 1) * pageSize;
    limit = pageSize;
  }
  if (usesPage || usesOffset) {
    if (limit === -1) limit = limits.maxLimit;
  }
  start = Math.max(start, 0);
  if (limit !== -1) limit = Math.max(limit, 1);
  if (limits.maxLimit !== -1 && limit >= limits.maxLimit) limit = limits.maxLimit;
  return { start, limit, readLimit: capped(limit, limits.amountLimit) };
}

/**
 * `meta.pagination` of a GraphQL collection, Strapi's formula (`limit` -1: one page of everything
 * from `start`), on the window as read: a list capped by `amountLimit` has pages of that size.
 */
export function graphqlPaginationMeta(
  window: GraphQLWindow,
  total: number | undefined,
): Record<string, number | undefined> {
  const { start } = window;
  const all =
    window.limit === -1 && (window.readLimit === -1 || (total !== undefined && total - start <= window.readLimit));
  if (all) return { total, page: 1, pageSize: total === undefined ? undefined : total - start, pageCount: 1 };
  const size = window.limit === -1 ? window.readLimit : window.readLimit === -1 ? window.limit : window.readLimit;
  return {
    total,
    page: Math.floor(start / size) + 1,
    pageSize: size,
    pageCount: total === undefined ? undefined : Math.ceil(total / size),
  };
}

function capped(limit: number, amountLimit: number): number {
  if (amountLimit <= 0) return limit;
  return limit === -1 || limit > amountLimit ? amountLimit : limit;
}

/** An Int argument (GraphQL has checked its type); an explicit null reads as Strapi's merge leaves it. */
function numberArg(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' ? value : 0;
}

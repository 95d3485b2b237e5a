/**
 * Repeatable components are embedded in their entry: the read applies a component list's `filters`
 * and `sort` (as REST's `populate[links][filters|sort]`, see selection.ts), and its `pagination`
 * (Strapi v4: a page of `defaultLimit` by default) is applied here to what the entry holds.
 */
import { graphqlWindow, type GraphQLPageLimits } from './pagination.js';
import { isRecord } from './values.js';

type Item = Record<string, unknown>;

export function componentPage(value: unknown, args: Record<string, unknown>, limits: GraphQLPageLimits): Item[] | null {
  if (!Array.isArray(value)) return value === null || value === undefined ? null : [];
  const items = value.filter(isRecord);
  const { start, readLimit } = graphqlWindow(args.pagination, limits);
  return readLimit === -1 ? items.slice(start) : items.slice(start, start + readLimit);
}

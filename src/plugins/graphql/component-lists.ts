/**
 * Repeatable components are embedded in their entry, so a repeatable component field's `sort` and
 * `pagination` (Strapi v4: a page of `defaultLimit` by default) are applied to the list the entry
 * already holds, without another read. `filters` on component lists are not applied (see README).
 */
import { ValidationError } from '../../errors/index.js';
import { graphqlWindow, type GraphQLPageLimits } from './pagination.js';
import { isRecord } from './values.js';

type Item = Record<string, unknown>;

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `["label:desc", "id"]` → comparators over the component's own fields. */
function sorter(sort: unknown, fields: ReadonlySet<string>): ((a: Item, b: Item) => number) | null {
  const keys = (Array.isArray(sort) ? sort : sort === undefined || sort === null ? [] : [sort]).map((entry) => {
    const [field = '', direction = 'asc'] = String(entry).split(':');
    if (!fields.has(field) || !['asc', 'desc'].includes(direction.toLowerCase()))
      throw new ValidationError(`Invalid parameter sort: ${String(entry)}`, {});
    return { field, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
  if (keys.length === 0) return null;
  return (a, b) => {
    for (const { field, sign } of keys) {
      const order = compare(a[field], b[field]);
      if (order !== 0) return order * sign;
    }
    return 0;
  };
}

export function componentPage(
  value: unknown,
  args: Record<string, unknown>,
  fields: ReadonlySet<string>,
  limits: GraphQLPageLimits,
): Item[] | null {
  if (!Array.isArray(value)) return value === null || value === undefined ? null : [];
  const items = value.filter(isRecord);
  const order = sorter(args.sort, fields);
  const sorted = order ? [...items].sort(order) : items;
  const { start, readLimit } = graphqlWindow(args.pagination, limits);
  return readLimit === -1 ? sorted.slice(start) : sorted.slice(start, start + readLimit);
}

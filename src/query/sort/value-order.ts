import { Decimal128, Long } from 'mongodb';

/**
 * The ascending order of two stored values as Strapi's SQL answers sort them: NULL first, numbers
 * by value, text by code point, dates by time, booleans false first. Used where values are sorted
 * after the read (components an entry holds).
 */
export function sortOrder(a: unknown, b: unknown): number {
  const x = normalized(a);
  const y = normalized(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
  const rank = rankOf(x) - rankOf(y);
  if (rank !== 0) return Math.sign(rank);
  if (x instanceof Date && y instanceof Date) return Math.sign(x.getTime() - y.getTime());
  return x < y ? -1 : x > y ? 1 : 0;
}

type Normalized = number | string | boolean | Date | null;

function normalized(value: unknown): Normalized {
  if (value === undefined || value === null) return null;
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Decimal128) return Number(value.toString());
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || value instanceof Date)
    return value;
  return JSON.stringify(value);
}

/** BSON's order of kinds: numbers, then strings, then booleans, then dates. */
function rankOf(value: Exclude<Normalized, null>): number {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 2;
  return 3;
}

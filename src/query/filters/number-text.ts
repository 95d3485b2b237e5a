// Strapi 4.26 on SQLite (as recorded) runs text operators (`$contains`, `$startsWith`, ... and
// their `i` / `not` forms) on number and boolean columns too: SQL LIKE reads the column's text.
// That text is SQLite's: integers in decimal, a `float` column (REAL) always with a fraction
// (`1.0`), a `decimal` column (NUMERIC) a whole value without one, booleans `1` / `0`; NULL
// matches nothing, negated or not. `$eqi` / `$nei` stay refused on them.
import type { CastType } from '../cast-value.js';
import type { ConditionNode } from './tree.js';

type Query = Record<string, unknown>;

const NUMBER_TEXT_TYPES = new Set<CastType>(['id', 'integer', 'biginteger', 'float', 'decimal', 'boolean']);

export function isNumberTextCondition(node: ConditionNode): boolean {
  return (
    NUMBER_TEXT_TYPES.has(node.type) && !['eq', 'in', 'lt', 'lte', 'gt', 'gte', 'between', 'null'].includes(node.op)
  );
}

/** Whether text operators apply to a column of this type (besides the types stored as text); `$eqi` does not. */
export function acceptsNumberText(type: CastType, operator: string): boolean {
  return NUMBER_TEXT_TYPES.has(type) && operator !== '$eqi' && operator !== '$nei';
}

/** The aggregation expression of a stored value's SQLite text (null for null). */
export function numberTextExpression(type: CastType, field: string): Query {
  const text =
    type === 'boolean'
      ? { $cond: [field, '1', '0'] }
      : type === 'float'
        ? {
            $cond: [
              { $eq: [{ $mod: [field, 1] }, 0] },
              { $concat: [{ $toString: field }, '.0'] },
              { $toString: field },
            ],
          }
        : { $toString: field };
  return { $cond: [{ $eq: [{ $ifNull: [field, null] }, null] }, null, text] };
}

/** The SQLite text of a stored value already read as a number, bigint or boolean (null for null). */
export function numberText(type: CastType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (type === 'float' && typeof value === 'number' && Number.isInteger(value)) return `${value}.0`;
  return String(value);
}

// Strapi 4.26 on SQLite (as recorded) runs text operators (`$contains`, `$startsWith`, ... and
// their `i` / `not` forms) on number and boolean columns too: SQL LIKE reads the column's text.
// That text is SQLite's: integers in decimal, a `float` or `decimal` column (both REAL in
// Strapi's SQLite tables) always with a fraction (`1.0`), booleans `1` / `0`, a `datetime` its
// milliseconds since the epoch (how Strapi's SQLite client stores a date-time); NULL matches
// nothing, negated or not. `$eqi` compares a `float` or `decimal` column's text with the value as
// written (`2.4` and `2.0` match, `2` does not) and never matches the other such columns (so
// `$nei` matches every non-null value there), as Strapi 4.26 answers.
import type { CastType } from '../cast-value.js';
import type { ConditionNode } from './tree.js';

type Query = Record<string, unknown>;

const NUMBER_TEXT_TYPES = new Set<CastType>([
  'id',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'datetime',
  'timestamp',
]);

export function isNumberTextCondition(node: ConditionNode): boolean {
  return (
    NUMBER_TEXT_TYPES.has(node.type) && !['eq', 'in', 'lt', 'lte', 'gt', 'gte', 'between', 'null'].includes(node.op)
  );
}

/** Whether text operators apply to a column of this type (besides the types stored as text). */
export function acceptsNumberText(type: CastType): boolean {
  return NUMBER_TEXT_TYPES.has(type);
}

/** Column types SQLite keeps as REAL: their text always has a fraction, and `$eqi` compares it. */
const REAL_TYPES = new Set<CastType>(['float', 'decimal']);

/** `$eqi` / `$nei` on such a column other than a REAL one: the positive form matches no value. */
export function neverMatchesNumberText(node: ConditionNode): boolean {
  return node.op === 'eqi' && !REAL_TYPES.has(node.type);
}

const realText = (field: string): Query => ({
  $cond: [{ $eq: [{ $mod: [field, 1] }, 0] }, { $concat: [{ $toString: field }, '.0'] }, { $toString: field }],
});

/** The aggregation expression of a stored value's SQLite text, by column type (decimal text otherwise). */
const TEXT_EXPRESSIONS: Partial<Record<CastType, (field: string) => Query>> = {
  boolean: (field) => ({ $cond: [field, '1', '0'] }),
  datetime: (field) => ({ $toString: { $toLong: field } }),
  timestamp: (field) => ({ $toString: { $toLong: field } }),
  float: realText,
  decimal: realText,
};

/** The aggregation expression of a stored value's SQLite text (null for null). */
export function numberTextExpression(type: CastType, field: string): Query {
  const text = (TEXT_EXPRESSIONS[type] ?? ((f: string) => ({ $toString: f })))(field);
  return { $cond: [{ $eq: [{ $ifNull: [field, null] }, null] }, null, text] };
}

/** The SQLite text of a stored value already read as a number, bigint or boolean (null for null). */
export function numberText(type: CastType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return String(value.getTime());
  if (REAL_TYPES.has(type) && typeof value === 'number' && Number.isInteger(value)) return `${value}.0`;
  return String(value);
}

// Strapi 4.26 on SQLite (as recorded) runs text operators (`$contains`, `$startsWith`, ... and
// their `i` / `not` forms) on number and boolean columns too: SQL LIKE reads the column's text.
// That text is SQLite's: integers in decimal, a `float` or `decimal` column (both REAL in
// Strapi's SQLite tables) always with a fraction (`1.0`), booleans `1` / `0`, a `datetime` its
// milliseconds since the epoch (how Strapi's SQLite client stores a date-time); NULL matches
// nothing, negated or not. The case-insensitive forms (`$eqi`, `$nei`, `$containsi`,
// `$startsWithi`...) read `LOWER(column)`, which the recording's SQLite function answers as a REAL
// for every such column: `4.0`, `1.0` for true, `1709290800000.0` (so `$eqi=4` matches no integer
// and `$eqi=4.0` the 4s, `$containsi=0` or `$endsWithi=0` every non-null value, `$containsi=.`
// too). Filter values are compared as written, never cast.
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

/** Column types SQLite keeps as REAL: their text always has a fraction. */
const REAL_TYPES = new Set<CastType>(['float', 'decimal']);

/** Whether the operator reads the column through `LOWER()`, which answers every number as a REAL. */
export function readsLoweredText(node: ConditionNode): boolean {
  return node.op.endsWith('i');
}

const realText = (field: string): Query => ({
  $cond: [{ $eq: [{ $mod: [field, 1] }, 0] }, { $concat: [{ $toString: field }, '.0'] }, { $toString: field }],
});
const wholeRealText = (expression: unknown): Query => ({ $concat: [{ $toString: expression }, '.0'] });

/** The aggregation expression of a stored value's SQLite text, by column type (decimal text otherwise). */
const TEXT_EXPRESSIONS: Partial<Record<CastType, (field: string) => Query>> = {
  boolean: (field) => ({ $cond: [field, '1', '0'] }),
  datetime: (field) => ({ $toString: { $toLong: field } }),
  timestamp: (field) => ({ $toString: { $toLong: field } }),
  float: realText,
  decimal: realText,
};

/** The same through `LOWER()`: every value a REAL's text. */
const LOWERED_TEXT_EXPRESSIONS: Partial<Record<CastType, (field: string) => Query>> = {
  boolean: (field) => ({ $cond: [field, '1.0', '0.0'] }),
  datetime: (field) => wholeRealText({ $toLong: field }),
  timestamp: (field) => wholeRealText({ $toLong: field }),
  float: realText,
  decimal: realText,
};

/** The aggregation expression of a stored value's SQLite text (null for null), through `LOWER()` when `lowered`. */
export function numberTextExpression(type: CastType, field: string, lowered: boolean): Query {
  const byType = lowered ? LOWERED_TEXT_EXPRESSIONS : TEXT_EXPRESSIONS;
  const text = (byType[type] ?? (lowered ? wholeRealText : (f: string) => ({ $toString: f })))(field);
  return { $cond: [{ $eq: [{ $ifNull: [field, null] }, null] }, null, text] };
}

/** The SQLite text of a stored value already read as a number, bigint or boolean (null for null). */
export function numberText(type: CastType, value: unknown, lowered: boolean): string | null {
  if (value === null || value === undefined) return null;
  const text =
    typeof value === 'boolean' ? (value ? '1' : '0') : value instanceof Date ? String(value.getTime()) : String(value);
  const real = lowered || REAL_TYPES.has(type);
  return real && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

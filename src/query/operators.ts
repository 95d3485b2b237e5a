/**
 * Strapi v4's filter operators (REST `filters`, GraphQL `filters` inputs), one table shared by every
 * front end and by the MongoDB compiler (src/query/filters/compile.ts).
 * https://docs-v4.strapi.io/dev-docs/api/rest/filters-locale-publication#filtering
 */

/** How an operator reads its value. */
export type OperatorArity =
  /** one scalar, cast by the attribute's type */
  | 'scalar'
  /** one scalar compared as text (never cast to a number or a date) */
  | 'text'
  /** a list of scalars, each cast by the attribute's type */
  | 'list'
  /** exactly two scalars, cast by the attribute's type */
  | 'pair'
  /** a boolean flag (`true`, `false`, `1`, `0`, `t`, `f`) */
  | 'flag';

export interface ValueOperatorSpec {
  arity: OperatorArity;
  /** folds case (Unicode-wise) before comparing */
  caseInsensitive?: boolean;
}

export const VALUE_OPERATORS = {
  $eq: { arity: 'scalar' },
  $eqi: { arity: 'text', caseInsensitive: true },
  $ne: { arity: 'scalar' },
  $nei: { arity: 'text', caseInsensitive: true },
  $lt: { arity: 'scalar' },
  $lte: { arity: 'scalar' },
  $gt: { arity: 'scalar' },
  $gte: { arity: 'scalar' },
  $in: { arity: 'list' },
  $notIn: { arity: 'list' },
  $contains: { arity: 'text' },
  $notContains: { arity: 'text' },
  $containsi: { arity: 'text', caseInsensitive: true },
  $notContainsi: { arity: 'text', caseInsensitive: true },
  $startsWith: { arity: 'text' },
  $startsWithi: { arity: 'text', caseInsensitive: true },
  $endsWith: { arity: 'text' },
  $endsWithi: { arity: 'text', caseInsensitive: true },
  $null: { arity: 'flag' },
  $notNull: { arity: 'flag' },
  $between: { arity: 'pair' },
} as const satisfies Record<string, ValueOperatorSpec>;

export type ValueOperator = keyof typeof VALUE_OPERATORS;

export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;
export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];

export function isValueOperator(key: string): key is ValueOperator {
  return Object.hasOwn(VALUE_OPERATORS, key);
}

export function isLogicalOperator(key: string): key is LogicalOperator {
  return (LOGICAL_OPERATORS as readonly string[]).includes(key);
}

/** Any key starting with `$` is meant as an operator (known or not): never an attribute name. */
export function looksLikeOperator(key: string): boolean {
  return key.startsWith('$');
}

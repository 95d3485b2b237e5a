import { Decimal128, Long } from 'mongodb';
import { textPattern } from './compile.js';
import { isNumberTextCondition, numberText, readsLoweredText } from './number-text.js';
import { isJsonText } from './json-text.js';
import { matchesNullRow } from './negate.js';
import { constantTruth, type ConditionNode, type FilterNode } from './tree.js';

type Doc = Record<string, unknown>;

/**
 * Whether a value already read (a component an entry holds) matches a filter in negation normal
 * form, with the same SQL reading as the MongoDB compilation (compile.ts): NULL never satisfies a
 * comparison, negated or not; values compare only with values of their own kind; text operators
 * use the same escaped patterns; a `json` value is compared as its JSON text. Relations cannot be
 * evaluated here (the populate parser refuses them).
 */
export function matchesFilter(node: FilterNode, doc: Doc): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matchesFilter(child, doc));
    case 'or':
      return node.children.some((child) => matchesFilter(child, doc));
    case 'not':
      return !matchesFilter(node.child, doc);
    case 'condition':
      return matchesCondition(node, valueAt(doc, node.path));
    case 'element': {
      const items = valueAt(doc, node.path);
      const list = Array.isArray(items) ? items.filter(isDoc) : [];
      if (list.length === 0) return matchesNullRow(node.child);
      return list.some((item) => matchesFilter(node.child, item));
    }
    case 'relation':
      return false;
  }
}

function matchesCondition(node: ConditionNode, stored: unknown): boolean {
  const constant = constantTruth(node);
  if (constant !== undefined) return constant;
  const value =
    isJsonText(node.type) && node.op !== 'null'
      ? jsonText(stored)
      : isNumberTextCondition(node)
        ? numberText(node.type, comparable(stored), readsLoweredText(node))
        : comparable(stored);
  if (node.op === 'null') return (value === null) === (node.value === true);
  if (value === null) return false;
  const positive = positiveMatch(node, value);
  return node.negated ? !positive : positive;
}

function positiveMatch(node: ConditionNode, value: Comparable): boolean {
  const operands = (Array.isArray(node.value) ? node.value : [node.value]).map(comparable);
  const [first = null, second = null] = operands;
  switch (node.op) {
    case 'eq':
      return compare(value, first) === 0;
    case 'in':
      return operands.some((operand) => compare(value, operand) === 0);
    case 'lt':
      return lessThan(compare(value, first), false);
    case 'lte':
      return lessThan(compare(value, first), true);
    case 'gt':
      return lessThan(compare(first, value), false);
    case 'gte':
      return lessThan(compare(first, value), true);
    case 'between':
      return lessThan(compare(first, value), true) && lessThan(compare(value, second), true);
    case 'null':
      return false;
    default:
      return typeof value === 'string' && textPattern(node.op, String(node.value)).test(value);
  }
}

type Comparable = string | number | bigint | boolean | Date | null;

/** Stored and cast values in one representation per kind (int64 and decimals as numbers or bigints). */
function comparable(value: unknown): Comparable {
  if (value === undefined || value === null) return null;
  if (value instanceof Long) return value.toBigInt();
  if (value instanceof Decimal128) return Number(value.toString());
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    value instanceof Date
  )
    return value;
  return JSON.stringify(value);
}

/** -1, 0, 1, or null when the two values are not of one kind (never comparable, as MongoDB's type bracketing). */
function compare(a: Comparable, b: Comparable): number | null {
  if (a === null || b === null) return null;
  if (isNumeric(a) && isNumeric(b)) return numericOrder(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  return null;
}

function isNumeric(value: Comparable): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

function numericOrder(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function lessThan(order: number | null, orEqual: boolean): boolean {
  return order !== null && (order < 0 || (orEqual && order === 0));
}

/** The JSON text Strapi stores for a json value (null stays null). */
function jsonText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Long ? item.toNumber() : item instanceof Decimal128 ? Number(item.toString()) : item,
  );
}

function valueAt(doc: Doc, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) {
    if (!isDoc(value)) return undefined;
    value = value[key];
  }
  return value;
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

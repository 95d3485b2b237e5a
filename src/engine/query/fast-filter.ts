import { compareStrings } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';

/**
 * A native predicate for the filters the service sends most (top-level fields compared with
 * scalars: `$eq $ne $gt $gte $lt $lte $in $nin $exists $regex`, under `$and`/`$or`, and `$expr`
 * comparing a top-level field with a `$$variable` or a literal, as a localizations join sends), which is
 * many times faster than the general matcher over thousands of documents. Where a document's
 * value is not a plain scalar (arrays, embedded documents, int64/Decimal128 and other BSON
 * values) it answers `undefined` and the caller asks the general matcher, so the result is
 * always MongoDB's. Filters of any other shape compile to undefined. Expects regexes normalised.
 */
export type FastPredicate = (doc: Doc) => boolean | undefined;
type ValueTest = (v: unknown) => boolean | undefined;

type Scalar = string | number | boolean | null | Date;

function isScalar(v: unknown): v is Scalar {
  return (
    v === null ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && !Number.isNaN(v)) ||
    v instanceof Date
  );
}

/** A value the fast path can reason about; anything else sends the document to the general matcher. */
function isPlainValue(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && !Number.isNaN(v)) ||
    v instanceof Date
  );
}

/** MongoDB type bracketing of the scalars handled here: same bracket or not comparable. */
function compare(a: Scalar, b: Scalar): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return undefined;
}

function equals(v: unknown, target: Scalar): boolean {
  if (target === null) return v === null || v === undefined;
  if (v === null || v === undefined) return false;
  return compare(v as Scalar, target) === 0;
}

function operatorTest(op: string, operand: unknown): ValueTest | undefined {
  switch (op) {
    case '$eq':
      if (!isScalar(operand)) return undefined;
      return (v) => equals(v, operand);
    case '$ne':
      if (!isScalar(operand)) return undefined;
      return (v) => !equals(v, operand);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (!isScalar(operand)) return undefined;
      const inclusive = op === '$gte' || op === '$lte';
      const sign = op === '$gt' || op === '$gte' ? 1 : -1;
      if (operand === null) return inclusive ? (v) => v === null || v === undefined : () => false;
      return (v) => {
        if (v === null || v === undefined) return false;
        const c = compare(v as Scalar, operand);
        if (c === undefined) return false;
        return c * sign > 0 || (inclusive && c === 0);
      };
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.every(isScalar)) return undefined;
      const values = operand as Scalar[];
      const test = (v: unknown) => values.some((t) => equals(v, t));
      return op === '$in' ? test : (v) => !test(v);
    }
    case '$exists':
      if (typeof operand !== 'boolean') return undefined;
      return operand ? (v) => v !== undefined : (v) => v === undefined;
    case '$regex':
      if (!(operand instanceof RegExp)) return undefined;
      return (v) => typeof v === 'string' && operand.test(v);
    default:
      return undefined;
  }
}

function fieldTest(condition: unknown): ValueTest | undefined {
  if (condition instanceof RegExp) return operatorTest('$regex', condition);
  if (!isPlainObject(condition)) return isScalar(condition) ? operatorTest('$eq', condition) : undefined;
  const ops = Object.entries(condition);
  if (ops.length === 0 || ops.some(([op]) => !op.startsWith('$'))) return undefined;
  const tests: ValueTest[] = [];
  for (const [op, operand] of ops) {
    const test = operatorTest(op, operand);
    if (!test) return undefined;
    tests.push(test);
  }
  return tests.length === 1 ? tests[0] : (v) => tests.every((t) => t(v));
}

export function compileFastFilter(filter: unknown, variables?: Doc): FastPredicate | undefined {
  if (!isPlainObject(filter)) return undefined;
  const parts: FastPredicate[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$expr') {
      const test = exprComparison(condition, variables);
      if (!test) return undefined;
      parts.push(test);
      continue;
    }
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(condition) || condition.length === 0) return undefined;
      const subs = condition.map((sub) => compileFastFilter(sub, variables));
      if (subs.some((s) => s === undefined)) return undefined;
      const list = subs as FastPredicate[];
      parts.push(key === '$and' ? all(list) : any(list));
      continue;
    }
    if (key.startsWith('$') || key.includes('.')) return undefined;
    const test = fieldTest(condition);
    if (!test) return undefined;
    parts.push((doc) => {
      const v = doc[key];
      return isPlainValue(v) ? test(v) : undefined;
    });
  }
  return all(parts);
}

const EXPR_COMPARISONS: Record<string, (c: number) => boolean> = {
  $eq: (c) => c === 0,
  $ne: (c) => c !== 0,
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

/**
 * `{ $expr: { $eq|$ne|$gt|$gte|$lt|$lte: [ '$field', operand ] } }` (either order), the operand a
 * `$$variable` bound by the caller or a literal scalar. Aggregation comparisons order values of
 * different types by BSON type and treat missing and null apart: the native test decides only
 * when both sides are scalars of one type, anything else goes to the general matcher.
 */
function exprComparison(expr: unknown, variables: Doc | undefined): FastPredicate | undefined {
  if (!isPlainObject(expr)) return undefined;
  const ops = Object.keys(expr);
  if (ops.length !== 1) return undefined;
  const op = ops[0] as string;
  const holds = EXPR_COMPARISONS[op];
  const args = expr[op];
  if (!holds || !Array.isArray(args) || args.length !== 2) return undefined;
  const [left, right] = args.map((arg) => exprArgument(arg, variables));
  if (!left || !right) return undefined;
  return (doc) => {
    const a = left(doc);
    const b = right(doc);
    if (!isScalar(a) || !isScalar(b) || a === null || b === null) return undefined;
    const c = compare(a, b);
    return c === undefined ? undefined : holds(c);
  };
}

/** A `$expr` comparison's argument: a top-level field of the document, a bound variable, or a literal. */
function exprArgument(arg: unknown, variables: Doc | undefined): ((doc: Doc) => unknown) | undefined {
  if (typeof arg === 'string' && arg.startsWith('$$')) {
    const name = arg.slice(2);
    if (!variables || !Object.hasOwn(variables, name) || !/^[a-z]\w*$/.test(name)) return undefined;
    const value = variables[name];
    return () => value;
  }
  if (typeof arg === 'string' && arg.startsWith('$')) {
    const field = arg.slice(1);
    if (!/^[A-Za-z_]\w*$/.test(field)) return undefined;
    return (doc) => doc[field];
  }
  return isScalar(arg) && arg !== null ? () => arg : undefined;
}

function all(parts: FastPredicate[]): FastPredicate {
  return (doc) => {
    let unknown = false;
    for (const p of parts) {
      const r = p(doc);
      if (r === false) return false;
      if (r === undefined) unknown = true;
    }
    return unknown ? undefined : true;
  };
}

function any(parts: FastPredicate[]): FastPredicate {
  return (doc) => {
    let unknown = false;
    for (const p of parts) {
      const r = p(doc);
      if (r === true) return true;
      if (r === undefined) unknown = true;
    }
    return unknown ? undefined : false;
  };
}

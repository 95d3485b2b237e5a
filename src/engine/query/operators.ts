import { Decimal128, Long, ObjectId } from 'bson';
import { Context, evalExpr, ProcessingMode } from 'mingo/core';
import { Query as QueryBase } from 'mingo/query';
import * as accumulatorOps from 'mingo/operators/accumulator';
import * as expressionOps from 'mingo/operators/expression';
import * as pipelineOps from 'mingo/operators/pipeline';
import * as projectionOps from 'mingo/operators/projection';
import * as queryOps from 'mingo/operators/query';
import * as windowOps from 'mingo/operators/window';
import type { ExpressionOperator, Options, QueryOperator } from 'mingo/types';
import { compareStrings, compareValues, valueKey, type StringCompare } from '../bson/compare.js';
import { bsonTypeOf, isNumeric, TYPE_NUMBERS, typeRank, type BsonTypeName } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import { collationCompare } from './collation.js';
import { matchValues } from './match-values.js';

/*
 * Operators that replace mingo's where it differs from MongoDB: comparisons follow BSON order and
 * type bracketing with numbers compared by value across int32/int64/double/Decimal128, `$in`
 * hashes its values, and `$type`/`$toString`/`$toObjectId` understand bson classes.
 */

type QueryPredicate = (doc: Record<string, unknown>) => boolean;

function stringsOf(options: Options): StringCompare {
  // mingo's updater passes an empty collation object along; only a real one changes the order
  const c = options.collation as { locale?: unknown } | undefined;
  return c && c.locale !== undefined ? collationCompare(c) : compareStrings;
}

function equals(a: unknown, b: unknown, strings: StringCompare): boolean {
  if (strings === compareStrings) return valueKey(a) === valueKey(b);
  return typeRank(bsonTypeOf(a)) === typeRank(bsonTypeOf(b)) && compareValues(a, b, strings) === 0;
}

function isNullish(v: unknown): boolean {
  return v === null || v === undefined;
}

function eqPredicate(rhs: unknown, strings: StringCompare): (vs: unknown[]) => boolean {
  if (isNullish(rhs)) return (vs) => vs.some(isNullish);
  if (rhs instanceof RegExp) return (vs) => vs.some((v) => typeof v === 'string' && rhs.test(v));
  if (strings === compareStrings) {
    const key = valueKey(rhs);
    if (typeof rhs === 'string' || typeof rhs === 'boolean') {
      return (vs) => vs.some((v) => v === rhs);
    }
    if (typeof rhs === 'number' && !Number.isNaN(rhs)) {
      return (vs) => vs.some((v) => v === rhs || (typeof v === 'object' && v !== null && valueKey(v) === key));
    }
    return (vs) => vs.some((v) => v !== undefined && valueKey(v) === key);
  }
  return (vs) => vs.some((v) => v !== undefined && equals(v, rhs, strings));
}

function inPredicate(rhs: unknown, strings: StringCompare): (vs: unknown[]) => boolean {
  if (!Array.isArray(rhs)) throw commandError('BadValue', '$in needs an array');
  const regexes = rhs.filter((v): v is RegExp => v instanceof RegExp);
  const wantsNull = rhs.some(isNullish);
  if (strings === compareStrings) {
    const keys = new Set(rhs.filter((v) => !(v instanceof RegExp)).map(valueKey));
    return (vs) =>
      vs.some(
        (v) =>
          (v === undefined ? wantsNull : keys.has(valueKey(v))) ||
          (typeof v === 'string' && regexes.some((r) => r.test(v))),
      );
  }
  const plain = rhs.filter((v) => !(v instanceof RegExp));
  return (vs) =>
    vs.some(
      (v) =>
        (v === undefined ? wantsNull : plain.some((p) => equals(v, p, strings))) ||
        (typeof v === 'string' && regexes.some((r) => r.test(v))),
    );
}

function rangePredicate(
  rhs: unknown,
  strings: StringCompare,
  test: (c: number) => boolean,
  inclusive: boolean,
): (vs: unknown[]) => boolean {
  const rank = typeRank(bsonTypeOf(rhs));
  const rt = bsonTypeOf(rhs);
  if (rt === 'minKey' || rt === 'maxKey') {
    return (vs) => vs.some((v) => v !== undefined && test(compareValues(v, rhs, strings)));
  }
  if (isNullish(rhs)) return inclusive ? (vs) => vs.some(isNullish) : () => false;
  if (typeof rhs === 'number' && !Number.isNaN(rhs)) {
    // fast path for plain numbers; other numeric types go through the general comparison
    return (vs) =>
      vs.some((v) =>
        typeof v === 'number' && !Number.isNaN(v)
          ? test(v < rhs ? -1 : v > rhs ? 1 : 0)
          : v !== undefined && typeRank(bsonTypeOf(v)) === rank && test(compareValues(v, rhs, strings)),
      );
  }
  return (vs) =>
    vs.some((v) => v !== undefined && typeRank(bsonTypeOf(v)) === rank && test(compareValues(v, rhs, strings)));
}

function queryOperator(build: (rhs: unknown, strings: StringCompare) => (vs: unknown[]) => boolean) {
  return (selector: string, value: unknown, options: Options): QueryPredicate => {
    const pred = build(value, stringsOf(options));
    if (selector.includes('.')) return (doc) => pred(matchValues(doc, selector));
    // top-level field: no path walk, and scalars need no array traversal
    const one: unknown[] = [undefined];
    return (doc) => {
      const v = doc[selector];
      if (Array.isArray(v)) return pred(matchValues(doc, selector));
      one[0] = v;
      return pred(one);
    };
  };
}

const TYPE_ALIASES: Record<string, BsonTypeName[]> = { number: ['int', 'long', 'double', 'decimal'] };

function typeMatcher(spec: unknown): (t: BsonTypeName) => boolean {
  const specs = Array.isArray(spec) ? spec : [spec];
  const names = new Set<BsonTypeName>();
  for (const s of specs) {
    if (typeof s === 'string') {
      const alias = TYPE_ALIASES[s];
      if (alias) {
        alias.forEach((a) => names.add(a));
        continue;
      }
      if (!(s in TYPE_NUMBERS)) throw commandError('BadValue', `Unknown type name alias: ${s}`);
      names.add(s as BsonTypeName);
    } else if (typeof s === 'number') {
      const name = Object.keys(TYPE_NUMBERS).find((k) => TYPE_NUMBERS[k] === s);
      if (!name) throw commandError('BadValue', `Invalid numerical type code: ${s}`);
      names.add(name as BsonTypeName);
    } else {
      throw commandError('TypeMismatch', 'type must be represented as a number or a string');
    }
  }
  return (t) => names.has(t);
}

export const queryOperators = {
  $eq: queryOperator((rhs, s) => eqPredicate(rhs, s)),
  $ne: queryOperator((rhs, s) => {
    const p = eqPredicate(rhs, s);
    return (vs) => !p(vs);
  }),
  $in: queryOperator((rhs, s) => inPredicate(rhs, s)),
  $nin: queryOperator((rhs, s) => {
    const p = inPredicate(rhs, s);
    return (vs) => !p(vs);
  }),
  $gt: queryOperator((rhs, s) => rangePredicate(rhs, s, (c) => c > 0, false)),
  $gte: queryOperator((rhs, s) => rangePredicate(rhs, s, (c) => c >= 0, true)),
  $lt: queryOperator((rhs, s) => rangePredicate(rhs, s, (c) => c < 0, false)),
  $lte: queryOperator((rhs, s) => rangePredicate(rhs, s, (c) => c <= 0, true)),
  /** internal: hands mingo's prepared options to `computedOptions` */
  $__engineOptions: (_selector: string, _value: unknown, options: Options): QueryPredicate => {
    probeSink?.(options as ComputedOptions);
    return () => false;
  },
  $type: queryOperator((rhs) => {
    const m = typeMatcher(rhs);
    return (vs) => vs.some((v) => v !== undefined && m(bsonTypeOf(v)));
  }),
};

// ---- aggregation expressions -------------------------------------------------------------

type Expression = (obj: Record<string, unknown>, expr: unknown, options: Options) => unknown;

/** Expression comparison: full BSON order, where missing sorts just below null. */
function compareExpr(a: unknown, b: unknown, options: Options): number {
  if (a === undefined || b === undefined) {
    if (a === undefined && b === undefined) return 0;
    const other = a === undefined ? b : a;
    const r = typeRank(bsonTypeOf(other)) <= 1 ? 1 : -1;
    return a === undefined ? r : -r;
  }
  return compareValues(a, b, stringsOf(options));
}

function twoArgs(name: string, obj: Record<string, unknown>, expr: unknown, options: Options): [unknown, unknown] {
  if (!Array.isArray(expr) || expr.length !== 2) {
    throw commandError(
      'BadValue',
      `Expression ${name} takes exactly 2 arguments. ${Array.isArray(expr) ? expr.length : 1} were passed in.`,
      { code: 16020 },
    );
  }
  const vals = evalExpr(obj, expr, options) as unknown[];
  return [vals[0], vals[1]];
}

function comparison(name: string, test: (c: number) => boolean): Expression {
  return (obj, expr, options) => {
    const [a, b] = twoArgs(name, obj, expr, options);
    return test(compareExpr(a, b, options));
  };
}

function conversionError(message: string): CommandError {
  return new CommandError(241, 'ConversionFailure', message);
}

function toStringValue(v: unknown): unknown {
  switch (bsonTypeOf(v)) {
    case 'missing':
    case 'null':
    case 'undefined':
      return null;
    case 'string':
      return v;
    case 'objectId':
      return (v as ObjectId).toHexString();
    case 'date':
      return (v as Date).toISOString();
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
    case 'double':
    case 'long':
    case 'decimal':
      return String(v);
    default:
      throw conversionError(`Unsupported conversion from ${bsonTypeOf(v)} to string in $convert with no onError value`);
  }
}

function sortArray(input: unknown, sortBy: unknown, options: Options): unknown {
  if (input === null || input === undefined) return null;
  if (!Array.isArray(input))
    throw commandError(
      'BadValue',
      `The input argument to $sortArray must be an array, but was of type: ${bsonTypeOf(input)}`,
      { code: 2 },
    );
  const copy = input.slice();
  if (typeof sortBy === 'number') {
    return copy.sort((a, b) => sortBy * compareValues(a, b, stringsOf(options)));
  }
  if (!sortBy || typeof sortBy !== 'object')
    throw commandError('BadValue', '$sortArray requires sortBy to be 1, -1 or a sort specification');
  const spec = Object.entries(sortBy as Record<string, number>);
  return copy.sort((a, b) => {
    for (const [field, dir] of spec) {
      const c = compareValues(matchValues(a, field)[0], matchValues(b, field)[0], stringsOf(options));
      if (c !== 0) return dir * c;
    }
    return 0;
  });
}

export const expressionOperators: Record<string, Expression> = {
  $eq: comparison('$eq', (c) => c === 0),
  $ne: comparison('$ne', (c) => c !== 0),
  $gt: comparison('$gt', (c) => c > 0),
  $gte: comparison('$gte', (c) => c >= 0),
  $lt: comparison('$lt', (c) => c < 0),
  $lte: comparison('$lte', (c) => c <= 0),
  $cmp: (obj, expr, options) => {
    const [a, b] = twoArgs('$cmp', obj, expr, options);
    return Math.sign(compareExpr(a, b, options));
  },
  $in: (obj, expr, options) => {
    const [needle, hay] = twoArgs('$in', obj, expr, options);
    if (!Array.isArray(hay)) {
      throw new CommandError(
        40081,
        'Location40081',
        `$in requires an array as a second argument, found: ${bsonTypeOf(hay)}`,
      );
    }
    const key = valueKey(needle);
    return hay.some((h) => valueKey(h) === key);
  },
  $type: (obj, expr, options) => {
    const v = evalExpr(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
    return bsonTypeOf(v);
  },
  $toString: (obj, expr, options) => toStringValue(evalExpr(obj, expr, options)),
  $toObjectId: (obj, expr, options) => {
    const v = evalExpr(obj, expr, options);
    if (v === null || v === undefined) return null;
    if (v instanceof ObjectId) return v;
    if (typeof v === 'string' && /^[0-9a-fA-F]{24}$/.test(v)) return new ObjectId(v);
    throw conversionError(
      `Failed to parse objectId '${String(v)}' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found ${String(v).length}`,
    );
  },
  $sortArray: (obj, expr, options) => {
    const spec = (expr ?? {}) as { input?: unknown; sortBy?: unknown };
    return sortArray(evalExpr(obj, spec.input, options), spec.sortBy, options);
  },
  $toLong: (obj, expr, options) => {
    const v = evalExpr(obj, expr, options);
    if (v === null || v === undefined) return null;
    const t = bsonTypeOf(v);
    if (isNumeric(t))
      return t === 'decimal'
        ? Long.fromString((v as Decimal128).toString().split('.')[0])
        : t === 'long'
          ? v
          : Long.fromNumber(Math.trunc(Number(v)));
    if (typeof v === 'string' && /^-?\d+$/.test(v)) return Long.fromString(v);
    if (typeof v === 'boolean') return Long.fromNumber(v ? 1 : 0);
    if (v instanceof Date) return Long.fromNumber(v.getTime());
    throw conversionError(`Unsupported conversion from ${t} to long in $convert with no onError value`);
  },
};

/** mingo's operators with the engine's replacements, built once (no per-query context merge). */
export const engineContext = Context.init({
  accumulator: accumulatorOps,
  expression: { ...expressionOps, ...(expressionOperators as unknown as Record<string, ExpressionOperator>) },
  pipeline: pipelineOps,
  projection: projectionOps,
  query: { ...queryOps, ...(queryOperators as unknown as Record<string, QueryOperator>) },
  window: windowOps,
});

/** The names of pipeline stages mingo implements (anything else is MongoDB's 40324). */
export const MINGO_STAGES = new Set(Object.keys(pipelineOps));

export interface EvalOptions {
  collation?: unknown;
  variables?: Record<string, unknown>;
}

/** mingo's internal options object (a `ComputeOptions`): copying one is cheap, building one copies every operator table. */
interface ComputedOptions extends Options {
  update(locals: { variables?: Record<string, unknown> }): ComputedOptions;
}
interface ComputedOptionsClass {
  init(options: Options): ComputedOptions;
}

const OPTIONS_PROBE = '$__engineOptions';
let probeSink: ((o: ComputedOptions) => void) | undefined;
const computedByCollation = new Map<string, ComputedOptions>();

function computedOptions(collation: unknown): ComputedOptions {
  const key = collation ? valueKey(collation) : '';
  let base = computedByCollation.get(key);
  if (!base) {
    let captured: ComputedOptions | undefined;
    probeSink = (o) => {
      captured = o;
    };
    new QueryBase({ x: { [OPTIONS_PROBE]: 1 } }, plainOptions({ collation }));
    probeSink = undefined;
    if (!captured) throw new Error('mingo options probe failed');
    base = captured;
    computedByCollation.set(key, base);
  }
  return (base.constructor as unknown as ComputedOptionsClass).init(base);
}

/** Complete mingo options for the engine's context (a cheap copy of a prepared one). */
export function mingoOptions(opts: EvalOptions = {}): Options {
  const computed = computedOptions(opts.collation);
  return opts.variables ? computed.update({ variables: opts.variables }) : computed;
}

/** Freshly built options (slow: mingo copies its operator tables); for the rare stages that need extra settings. */
export function plainOptions(opts: EvalOptions): Options {
  return {
    idKey: '_id',
    processingMode: ProcessingMode.CLONE_OFF,
    useStrictMode: true,
    scriptEnabled: false,
    failOnError: true,
    context: engineContext,
    ...(opts.collation ? { collation: opts.collation as Options['collation'] } : {}),
    ...(opts.variables ? { variables: opts.variables } : {}),
  };
}

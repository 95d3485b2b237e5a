import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { isPlainObject, type Doc } from '../bson/types.js';

/** Evaluates one aggregation expression against documents. */
export type Evaluator = (doc: Doc) => unknown;

/**
 * `expr` as a function of the document, for `options` (one stage's variables): mingo's
 * interpreter, except for the shapes below, which are evaluated directly with the same result.
 *
 * - The value at a computed key of an embedded document, as MongoDB before 7.2 must spell it
 *   (`$getField` takes no computed name there):
 *   `{ $arrayElemAt: [{ $map: { input: { $filter: { input: { $objectToArray: { $ifNull: ['$path',
 *   {}] } }, as: 'a', cond: { $eq: ['$$a.k', <key>] } } }, as: 'b', in: '$$b.v' } }, 0] }`, with
 *   a key computed from variables alone. The service sorts the entries of an inverse relation by
 *   the key each stores for its link (`__order.<field>.<id>`) this way, for every related entry
 *   (about 6 µs each through the interpreter).
 */
export function expressionEvaluator(expr: unknown, options: Options): Evaluator {
  return keyLookup(expr, options) ?? ((doc) => evalExpr(doc, expr, options));
}

function keyLookup(expr: unknown, options: Options): Evaluator | undefined {
  const lookup = parseKeyLookup(expr, options);
  if (!lookup) return undefined;
  const { key } = lookup;
  const parts = lookup.path.split('.');
  return (doc) => {
    let value: unknown = doc;
    for (const part of parts) {
      if (value === undefined || value === null) break;
      // arrays along the path, and values $objectToArray refuses: the interpreter's answer
      if (!isPlainObject(value)) return evalExpr(doc, expr, options);
      value = Object.hasOwn(value, part) ? value[part] : undefined;
    }
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) return evalExpr(doc, expr, options);
    return Object.hasOwn(value, key) ? value[key] : undefined;
  };
}

/**
 * The embedded document's path and the computed key of a key lookup (see expressionEvaluator),
 * for `options`' variables; undefined for any other expression.
 */
export function parseKeyLookup(expr: unknown, options: Options): { path: string; key: string } | undefined {
  if (options.collation) return undefined;
  const elemAt = only(expr, '$arrayElemAt');
  if (!Array.isArray(elemAt) || elemAt.length !== 2 || elemAt[1] !== 0) return undefined;
  const map = only(elemAt[0], '$map');
  if (!exactKeys(map, ['input', 'as', 'in']) || typeof map.as !== 'string' || map.in !== `$$${map.as}.v`)
    return undefined;
  const filter = only(map.input, '$filter');
  if (!exactKeys(filter, ['input', 'as', 'cond']) || typeof filter.as !== 'string') return undefined;
  const eq = only(filter.cond, '$eq');
  if (!Array.isArray(eq) || eq.length !== 2 || eq[0] !== `$$${filter.as}.k` || readsDocument(eq[1])) return undefined;
  const ifNull = only(only(filter.input, '$objectToArray'), '$ifNull');
  if (!Array.isArray(ifNull) || ifNull.length !== 2) return undefined;
  const [path, fallback] = ifNull;
  if (typeof path !== 'string' || !path.startsWith('$') || path.startsWith('$$')) return undefined;
  if (!isPlainObject(fallback) || Object.keys(fallback).length !== 0) return undefined;
  const key = evalExpr({}, eq[1], options);
  return typeof key === 'string' ? { path: path.slice(1), key } : undefined;
}

/** The argument of a one-operator expression `{ [op]: argument }`, else undefined. */
function only(expr: unknown, op: string): unknown {
  if (!isPlainObject(expr)) return undefined;
  const keys = Object.keys(expr);
  return keys.length === 1 && keys[0] === op ? expr[op] : undefined;
}

function exactKeys(value: unknown, keys: string[]): value is Doc {
  return (
    isPlainObject(value) && Object.keys(value).length === keys.length && keys.every((k) => Object.hasOwn(value, k))
  );
}

/** Whether an expression reads the document (a `$field` path, `$$ROOT`, `$$CURRENT`). */
function readsDocument(expr: unknown): boolean {
  if (typeof expr === 'string')
    return (expr.startsWith('$') && !expr.startsWith('$$')) || /^\$\$(ROOT|CURRENT)(\.|$)/.test(expr);
  if (Array.isArray(expr)) return expr.some(readsDocument);
  if (isPlainObject(expr)) return Object.values(expr).some(readsDocument);
  return false;
}

import type { Options } from 'mingo/types';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import { expressionEvaluator, type Evaluator } from './expression-shortcuts.js';

/** `$addFields` paths in spec order: an expression, or the fields to set inside an embedded document. */
type FieldTree = Map<string, Computed | FieldTree>;

/** An expression, and its evaluator for the options of the stage's run (the same for all of its documents). */
interface Computed {
  expr: unknown;
  options?: Options;
  evaluate?: Evaluator;
}

/**
 * `$addFields` / `$set` as mongod runs them (a projection that keeps every field): fields that
 * exist are overwritten in place, new ones appended in spec order; `a.b` (or `{ a: { b } }`) sets
 * `b` inside `a`, in every document of an array `a`, and turns a non-document `a` (or array
 * element) into a document; an expression that evaluates to missing removes the field. Every
 * expression sees the input document. The output shares the input's untouched values (nothing
 * is modified in place), so the stage needs no copy of its input.
 */
export function addFieldsStage(name: string, spec: unknown): ((doc: Doc, options: Options) => Doc) | undefined {
  if (!isPlainObject(spec)) return undefined;
  const tree: FieldTree = new Map();
  for (const [path, value] of Object.entries(spec)) addPath(name, tree, path.split('.'), value, path);
  return (doc, options) => apply(doc, tree, doc, options) as Doc;
}

function addPath(stage: string, tree: FieldTree, parts: string[], value: unknown, full: string): void {
  const [head, ...rest] = parts;
  if (head === undefined || head === '')
    throw commandError(
      'BadValue',
      `Invalid ${stage} :: caused by :: FieldPath cannot be constructed with empty string`,
    );
  if (head.startsWith('$'))
    throw commandError(
      'Location16410',
      `Invalid ${stage} :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
    );
  const existing = tree.get(head);
  const nested = rest.length > 0 || isSubSpec(value);
  if (!nested) {
    if (existing !== undefined) throw collision(stage, full);
    tree.set(head, { expr: value });
    return;
  }
  if (existing !== undefined && !(existing instanceof Map)) throw collision(stage, full);
  const sub: FieldTree = existing ?? new Map();
  tree.set(head, sub);
  if (rest.length > 0) addPath(stage, sub, rest, value, full);
  else for (const [k, v] of Object.entries(value as Doc)) addPath(stage, sub, k.split('.'), v, `${full}.${k}`);
}

/** A nested object that is not an expression (`{ $op: ... }`) nor an empty document literal. */
function isSubSpec(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && !keys[0].startsWith('$');
}

function collision(stage: string, path: string): CommandError {
  return new CommandError(31250, 'Location31250', `Invalid ${stage} :: caused by :: Path collision at ${path}`);
}

function apply(value: unknown, tree: FieldTree, root: Doc, options: Options): unknown {
  if (Array.isArray(value)) return value.map((v) => apply(v, tree, root, options));
  const out: Doc = isPlainObject(value) ? { ...value } : {};
  for (const [field, node] of tree) {
    if (node instanceof Map) {
      out[field] = apply(out[field], node, root, options);
      continue;
    }
    if (node.options !== options) {
      node.options = options;
      node.evaluate = expressionEvaluator(node.expr, options);
    }
    const computed = (node.evaluate as Evaluator)(root);
    if (computed === undefined) delete out[field];
    else out[field] = computed;
  }
  return out;
}

import { isPlainObject, type Doc } from '../bson/types.js';

/** A projection's paths in spec order: kept fields, computed fields, sub-projections. */
type OrderTree = Map<string, 'kept' | 'computed' | OrderTree>;

/** find-only projection operators: their fields' place is left as computed by the general projection. */
const FIND_OPERATORS = new Set(['$slice', '$elemMatch', '$meta']);

/**
 * The field order mongod gives an inclusion projection with computed fields (`$project`, `find`):
 * `_id` first, then the kept fields in the order of the input document (recursively inside
 * embedded documents), then the computed ones in the order of the spec. mingo computes the
 * values; this puts its output in that order. Undefined when the order is already the
 * document's (exclusions, plain 0/1 projections) or the spec uses find-only operators.
 */
export function projectionOrder(spec: unknown): ((input: Doc, output: Doc) => Doc) | undefined {
  if (!isPlainObject(spec)) return undefined;
  const tree: OrderTree = new Map();
  let computed = false;
  const add = (node: OrderTree, parts: string[], value: unknown): boolean => {
    const [head, ...rest] = parts;
    if (head === undefined) return true;
    if (rest.length > 0) {
      const child = node.get(head);
      const sub = child instanceof Map ? child : new Map<string, 'kept' | 'computed' | OrderTree>();
      node.set(head, sub);
      return add(sub, rest, value);
    }
    if (value === 1 || value === true) node.set(head, 'kept');
    else if (value === 0 || value === false) return head === '_id';
    else if (isPlainObject(value) && Object.keys(value).length > 0 && !Object.keys(value)[0].startsWith('$')) {
      const child = node.get(head);
      const sub = child instanceof Map ? child : new Map<string, 'kept' | 'computed' | OrderTree>();
      node.set(head, sub);
      for (const [k, v] of Object.entries(value)) if (!add(sub, k.split('.'), v)) return false;
    } else {
      if (isPlainObject(value) && Object.keys(value).some((k) => FIND_OPERATORS.has(k))) return false;
      node.set(head, 'computed');
      computed = true;
    }
    return true;
  };
  for (const [path, value] of Object.entries(spec)) {
    if (path.endsWith('.$') || !add(tree, path.split('.'), value)) return undefined;
  }
  if (!computed) return undefined;
  return (input, output) => reorder(input, output, tree, true) as Doc;
}

function reorder(input: unknown, output: unknown, tree: OrderTree, top: boolean): unknown {
  if (!isPlainObject(output)) return output;
  const source = isPlainObject(input) ? input : {};
  const out: Doc = {};
  if (top && Object.hasOwn(output, '_id')) out._id = output._id;
  for (const key of Object.keys(source)) {
    const node = tree.get(key);
    if (node === undefined || node === 'computed' || !Object.hasOwn(output, key) || Object.hasOwn(out, key)) continue;
    out[key] = node === 'kept' ? output[key] : reorderValue(source[key], output[key], node);
  }
  for (const [key, node] of tree) {
    if (!Object.hasOwn(output, key) || Object.hasOwn(out, key)) continue;
    out[key] = node instanceof Map ? reorderValue(source[key], output[key], node) : output[key];
  }
  for (const key of Object.keys(output)) if (!Object.hasOwn(out, key)) out[key] = output[key];
  return out;
}

function reorderValue(input: unknown, output: unknown, tree: OrderTree): unknown {
  if (!Array.isArray(output)) return reorder(input, output, tree, false);
  const inputs = Array.isArray(input) && input.length === output.length ? input : [];
  return output.map((o, i) => reorderValue(inputs[i], o, tree));
}

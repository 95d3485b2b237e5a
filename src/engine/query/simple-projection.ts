import { isPlainObject, type Doc } from '../bson/types.js';

/** A projection tree: `true` at a projected path's end, a subtree for dotted paths. */
type Tree = { [field: string]: true | Tree };

/**
 * `$project` / `find` projections made only of `0/1/true/false` fields (what the service sends),
 * applied natively; anything else (expressions, `$slice`, `$elemMatch`, path collisions, mixed
 * inclusion and exclusion) returns undefined and is left to mingo. MongoDB semantics: `_id` is
 * kept unless excluded, the document's own field order is kept, dotted paths project inside
 * embedded documents and inside each document of an array (inclusion drops non-document elements).
 */
export function simpleProjection(spec: unknown): ((doc: Doc) => Doc) | undefined {
  if (!isPlainObject(spec)) return undefined;
  // a `$lookup` runs its sub-pipeline's stages once per outer document: compile each spec once
  if (compiled.has(spec)) return compiled.get(spec);
  // and a service sends the same few projections in every command: by their text across commands
  const text = specText(spec);
  let projection = text === undefined ? undefined : byText.get(text);
  if (projection === undefined) {
    projection = compile(spec);
    if (text !== undefined && projection) {
      if (byText.size >= BY_TEXT_MAX) byText.clear();
      byText.set(text, projection);
    }
  }
  compiled.set(spec, projection);
  return projection;
}

const compiled = new WeakMap<Doc, ((doc: Doc) => Doc) | undefined>();
const byText = new Map<string, (doc: Doc) => Doc>();
const BY_TEXT_MAX = 1000;

/** The spec as `path:value` pairs in order (the projection depends on nothing else), or undefined when a value is no 0/1/true/false. */
function specText(spec: Doc): string | undefined {
  let text = '';
  for (const key in spec) {
    const value = spec[key];
    if (value !== 0 && value !== 1 && value !== true && value !== false) return undefined;
    text += `${key}\u0000${String(value)}\u0001`;
  }
  return text;
}

function compile(spec: Doc): ((doc: Doc) => Doc) | undefined {
  const entries = Object.entries(spec);
  if (entries.length === 0) return undefined;
  let includeId = true;
  let mode: 'include' | 'exclude' | undefined;
  // no prototype: a document's field named `constructor` or `toString` is no rule
  const tree: Tree = Object.create(null) as Tree;
  for (const [path, value] of entries) {
    let on: boolean;
    if (value === 1 || value === true) on = true;
    else if (value === 0 || value === false) on = false;
    else return undefined;
    if (path === '_id') {
      includeId = on;
      continue;
    }
    if (path.startsWith('$') || path.includes('$') || path === '' || path.split('.').some((p) => p === ''))
      return undefined;
    const kind = on ? 'include' : 'exclude';
    if (mode && mode !== kind) return undefined;
    mode = kind;
    if (!addPath(tree, path.split('.'))) return undefined;
  }
  if (mode === undefined) mode = includeId ? 'include' : 'exclude'; // only _id named
  if (mode === 'include') {
    if (!('_id' in tree))
      // `_id` first, then the document's own order: one new document per input
      return (doc) => {
        const out: Doc = {};
        if (includeId && doc._id !== undefined) out._id = doc._id;
        includeInto(out, doc, tree);
        return out;
      };
    return (doc) => {
      const out = include(doc, tree);
      if (includeId && doc._id !== undefined) return { _id: doc._id, ...withoutId(out) };
      return out;
    };
  }
  if (!includeId) tree._id = true;
  return (doc) => exclude(doc, tree);
}

function addPath(tree: Tree, parts: string[]): boolean {
  let node = tree;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const last = i === parts.length - 1;
    const existing = node[part];
    if (existing === true) return false; // path collision
    if (last) {
      if (existing !== undefined) return false;
      node[part] = true;
    } else {
      const next: Tree = existing ?? (Object.create(null) as Tree);
      node[part] = next;
      node = next;
    }
  }
  return true;
}

function withoutId(doc: Doc): Doc {
  if (!('_id' in doc)) return doc;
  const { _id: _ignored, ...rest } = doc;
  return rest;
}

function include(doc: Doc, tree: Tree): Doc {
  return includeInto({}, doc, tree);
}

function includeInto(out: Doc, doc: Doc, tree: Tree): Doc {
  for (const key in doc) {
    const rule = tree[key];
    if (rule === undefined) continue;
    const value = doc[key];
    if (rule === true) {
      out[key] = value;
      continue;
    }
    if (Array.isArray(value)) out[key] = includeInArray(value, rule);
    else if (isPlainObject(value)) out[key] = include(value, rule);
  }
  return out;
}

function includeInArray(values: unknown[], tree: Tree): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (Array.isArray(v)) out.push(includeInArray(v, tree));
    else if (isPlainObject(v)) out.push(include(v, tree));
  }
  return out;
}

function exclude(doc: Doc, tree: Tree): Doc {
  const out: Doc = {};
  for (const key of Object.keys(doc)) {
    const rule = tree[key];
    const value = doc[key];
    if (rule === true) continue;
    if (rule === undefined) {
      out[key] = value;
      continue;
    }
    if (Array.isArray(value)) out[key] = value.map((v) => (isPlainObject(v) ? exclude(v, rule) : v));
    else if (isPlainObject(value)) out[key] = exclude(value, rule);
    else out[key] = value;
  }
  return out;
}

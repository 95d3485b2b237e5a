import { isPlainObject, type Doc } from './types.js';

/**
 * Every value a dotted path reaches in a document, descending into arrays as MongoDB does for
 * index keys and sort keys ("a.b" over `a: [{b: 1}, {b: [2, 3]}]` gives 1, 2, 3). Arrays at the
 * end of the path are expanded into their elements; an empty array yields itself.
 * `missing` is returned as `undefined` once when nothing is reached.
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split('.'), 0, out);
  if (out.length === 0) out.push(undefined);
  return out;
}

function collect(v: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(v);
      else for (const e of v) out.push(e);
    } else out.push(v);
    return;
  }
  if (Array.isArray(v)) {
    const part = parts[i];
    if (/^\d+$/.test(part) && Number(part) < v.length) collect(v[Number(part)], parts, i + 1, out);
    for (const e of v) if (isPlainObject(e)) collect(e, parts, i, out);
    return;
  }
  if (isPlainObject(v)) {
    const next = (v as Doc)[parts[i]];
    if (next === undefined) return;
    collect(next, parts, i + 1, out);
  }
}

/** The value at a dotted path without array traversal (`undefined` when absent). */
export function getPath(doc: unknown, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(part)) v = v[Number(part)];
    else if (isPlainObject(v)) v = v[part];
    else return undefined;
  }
  return v;
}

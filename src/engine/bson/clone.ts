import { isPlainObject, type Doc } from './types.js';

/** Deep copy of plain objects, arrays and Dates; BSON value classes are immutable and shared. */
export function cloneValue<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) out[k] = cloneValue(v[k]);
    return out as T;
  }
  return v;
}

export function cloneDoc(d: Doc): Doc {
  return cloneValue(d);
}

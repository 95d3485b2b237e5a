import { isPlainObject, type Doc } from '../bson/types.js';

/**
 * The values a query predicate on `path` is tested against, with MongoDB's implicit array
 * traversal: an array at the end of the path is tested whole and element by element; arrays on
 * the way fan out over their elements; `undefined` stands for "missing" wherever the path ends.
 */
export function matchValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split('.'), 0, out);
  return out;
}

function walk(v: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    out.push(v);
    if (Array.isArray(v)) for (const e of v) out.push(e);
    return;
  }
  if (Array.isArray(v)) {
    const part = parts[i];
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < v.length) walk(v[idx], parts, i + 1, out);
    }
    for (const e of v) if (isPlainObject(e) || Array.isArray(e)) walk(e, parts, i, out);
    return;
  }
  if (isPlainObject(v)) {
    walk((v as Doc)[parts[i]], parts, i + 1, out);
    return;
  }
  out.push(undefined);
}

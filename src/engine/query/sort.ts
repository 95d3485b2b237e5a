import { compareStrings, compareValues, type StringCompare } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';

export type SortSpec = Array<[string, 1 | -1]>;

export function parseSort(spec: unknown): SortSpec | undefined {
  if (spec === undefined || spec === null) return undefined;
  if (!isPlainObject(spec)) throw commandError('TypeMismatch', 'sort must be an object');
  const out: SortSpec = [];
  for (const [field, dir] of Object.entries(spec)) {
    const n = Number(typeof dir === 'object' && dir !== null ? Number.NaN : dir);
    if (isPlainObject(dir) && (dir as Doc).$meta !== undefined)
      throw commandError('BadValue', `$meta sort is not supported: ${field}`);
    if (n !== 1 && n !== -1)
      throw commandError('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`, {
        code: 15975,
      });
    out.push([field, n]);
  }
  if (out.length === 0) throw commandError('BadValue', '$sort stage must have at least one sort key', { code: 15976 });
  return out;
}

/**
 * The sort key of a document for one field: with arrays, the smallest element ascending and the
 * largest descending; missing sorts as null (MongoDB "Sort order" with arrays).
 */
function sortKey(doc: Doc, field: string, dir: 1 | -1, strings: StringCompare): unknown {
  if (!field.includes('.')) {
    const v = doc[field];
    if (!Array.isArray(v)) return v === undefined ? null : v;
  }
  const values = pathValues(doc, field);
  if (values.length === 1) return values[0] === undefined ? null : values[0];
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best, strings);
    if (dir === 1 ? c < 0 : c > 0) best = values[i];
  }
  return best === undefined ? null : best;
}

type Keyed = { keys: unknown[]; doc: Doc; i: number };

function keyedComparator(spec: SortSpec, strings: StringCompare): (a: Keyed, b: Keyed) => number {
  return (a, b) => {
    for (let k = 0; k < spec.length; k++) {
      const c = compareValues(a.keys[k], b.keys[k], strings);
      if (c !== 0) return spec[k][1] * c;
    }
    return a.i - b.i;
  };
}

/** Stable sort by a spec; with `limit`, keeps only the first `limit` documents (top-k, no full sort). */
export function sortDocs(docs: Doc[], spec: SortSpec, limit?: number, strings: StringCompare = compareStrings): Doc[] {
  const cmp = keyedComparator(spec, strings);
  const keyed = (doc: Doc, i: number): Keyed => ({ keys: spec.map(([f, d]) => sortKey(doc, f, d, strings)), doc, i });
  if (limit === undefined || limit <= 0 || limit * 4 >= docs.length) {
    const all = docs.map(keyed);
    all.sort(cmp);
    const out = all.map((k) => k.doc);
    return limit !== undefined && limit > 0 ? out.slice(0, limit) : out;
  }
  const top: Keyed[] = [];
  for (let i = 0; i < docs.length; i++) {
    const item = keyed(docs[i], i);
    if (top.length === limit && cmp(item, top[top.length - 1]) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(top[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, item);
    if (top.length > limit) top.pop();
  }
  return top.map((k) => k.doc);
}

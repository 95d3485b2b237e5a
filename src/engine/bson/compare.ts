import type { Binary, ObjectId, Timestamp } from 'bson';
import { bsonTypeOf, compareNumeric, isNumeric, numericValue, typeRank, type BsonTypeName } from './types.js';

/** A string comparator, e.g. from a collation; the default is MongoDB's binary (code point) order. */
export type StringCompare = (a: string, b: string) => number;

/** UTF-8 byte order == code point order; JS `<` is UTF-16 code unit order, which differs for U+E000–U+FFFF vs astral. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y;
    return x - y;
  }
  return a.length - b.length;
}

function bytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  const b = v as Binary;
  return b.buffer instanceof Uint8Array ? b.buffer.subarray(0, b.position ?? b.buffer.length) : new Uint8Array();
}

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** MongoDB comparison of two BSON values of any types (the "Comparison/Sort Order" of the manual). */
export function compareValues(a: unknown, b: unknown, strings: StringCompare = compareStrings): number {
  // fast paths for the common same-type cases (NaN goes the long way)
  if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return strings(a, b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  const ta = bsonTypeOf(a);
  const tb = bsonTypeOf(b);
  const ra = typeRank(ta);
  const rb = typeRank(tb);
  if (ra !== rb) return ra - rb;
  return compareSameRank(a, b, ta, tb, strings);
}

function compareSameRank(a: unknown, b: unknown, ta: BsonTypeName, tb: BsonTypeName, strings: StringCompare): number {
  if (isNumeric(ta)) {
    if (typeof a === 'number' && typeof b === 'number') {
      if (a === b) return 0;
      if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
      return a < b ? -1 : 1;
    }
    return compareNumeric(numericValue(a), numericValue(b));
  }
  switch (ta) {
    case 'string':
    case 'symbol':
      return strings(String(a), String(b));
    case 'object':
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>, strings);
    case 'array':
      return compareArrays(a as unknown[], b as unknown[], strings);
    case 'binData': {
      const x = bytes(a);
      const y = bytes(b);
      if (x.length !== y.length) return x.length - y.length;
      const sx = (a as Binary).sub_type ?? 0;
      const sy = (b as Binary).sub_type ?? 0;
      return sx !== sy ? sx - sy : compareBytes(x, y);
    }
    case 'objectId':
      return compareBytes((a as ObjectId).id, (b as ObjectId).id);
    case 'bool':
      return Number(a) - Number(b);
    case 'date':
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case 'timestamp': {
      const x = (a as Timestamp).toBigInt?.() ?? 0n;
      const y = (b as Timestamp).toBigInt?.() ?? 0n;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'regex': {
      const [ps, fs] = regexParts(a);
      const [qs, gs] = regexParts(b);
      return compareStrings(ps, qs) || compareStrings(fs, gs);
    }
    default:
      return tb === ta ? 0 : 0;
  }
}

function regexParts(v: unknown): [string, string] {
  if (v instanceof RegExp) return [v.source, v.flags];
  const r = v as { pattern?: string; options?: string };
  return [r.pattern ?? '', r.options ?? ''];
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>, strings: StringCompare): number {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]];
    const vb = b[kb[i]];
    const r = typeRank(bsonTypeOf(va)) - typeRank(bsonTypeOf(vb));
    if (r !== 0) return r;
    const k = compareStrings(ka[i], kb[i]);
    if (k !== 0) return k;
    const c = compareValues(va, vb, strings);
    if (c !== 0) return c;
  }
  return ka.length - kb.length;
}

function compareArrays(a: unknown[], b: unknown[], strings: StringCompare): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i], strings);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * A string that is equal for two values exactly when MongoDB considers them equal (numbers of any
 * type compare by value; field order matters in documents). Used for hashing: indexes, `$in`, `_id`.
 */
export function valueKey(v: unknown): string {
  const t = bsonTypeOf(v);
  switch (t) {
    case 'missing':
    case 'null':
    case 'undefined':
      return 'z';
    case 'int':
      return `n${v as number}`;
    case 'double': {
      const n = v as number;
      if (Number.isSafeInteger(n)) return `n${n === 0 ? 0 : n}`;
      return Number.isNaN(n) ? 'nNaN' : `n${n}`;
    }
    case 'long':
    case 'decimal': {
      const nv = numericValue(v);
      if (nv.kind === 'int') return `n${nv.value}`;
      return Number.isNaN(nv.value) ? 'nNaN' : `n${nv.value}`;
    }
    case 'string':
    case 'symbol':
      return `s${String(v)}`;
    case 'objectId':
      return `o${(v as ObjectId).toHexString()}`;
    case 'bool':
      return v ? 'b1' : 'b0';
    case 'date':
      return `d${(v as Date).getTime()}`;
    case 'array':
      return `a[${(v as unknown[]).map(valueKey).join(',')}]`;
    case 'object': {
      const o = v as Record<string, unknown>;
      let s = 'O{';
      for (const k of Object.keys(o)) if (o[k] !== undefined) s += `${JSON.stringify(k)}:${valueKey(o[k])},`;
      return `${s}}`;
    }
    case 'binData':
      return `B${(v as Binary).sub_type ?? 0}:${Buffer.from(bytes(v)).toString('base64')}`;
    case 'timestamp':
      return `t${String((v as Timestamp).toBigInt?.())}`;
    case 'regex': {
      const [p, f] = regexParts(v);
      return `r/${p}/${f}`;
    }
    case 'minKey':
      return 'm';
    case 'maxKey':
      return 'M';
    default:
      return `?${String(v)}`;
  }
}

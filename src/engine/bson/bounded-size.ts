import { BSON } from 'bson';
import { isPlainObject, type Doc } from './types.js';

/**
 * The BSON size of `doc`, or, once it passes `limit`, a size over the limit (not the whole size):
 * only used to describe a document too large to send. A result built from joins shared between
 * documents (lookup.ts keeps them per join value) can be far larger written out than it is in
 * memory, so the walk stops at the limit and counts a shared embedded document or array once per
 * walk and then by its size.
 */
export function boundedBsonSize(doc: Doc, limit: number): number {
  const known = new Map<object, number>();
  let total = 0;
  const walk = (value: Doc | unknown[]): number => {
    const seen = known.get(value);
    if (seen !== undefined) return seen;
    let size = 5; // int32 length and the terminating 0
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [key, v] of entries) {
      if (isPlainObject(v) || Array.isArray(v)) {
        const inner = walk(v);
        size += 2 + Buffer.byteLength(key) + inner;
      } else {
        const element = BSON.calculateObjectSize({ [key]: v }) - 5;
        size += element;
        total += element;
      }
      if (total > limit) break;
    }
    known.set(value, size);
    return size;
  };
  const size = walk(doc);
  return Math.max(size, total);
}

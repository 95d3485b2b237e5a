/** Small value helpers for resolver arguments (graphql-js builds argument objects without a prototype). */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

/** A deep copy made of plain objects and arrays, so the write path sees ordinary JSON-like input. */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = plain(item);
    return out;
  }
  return value;
}

/**
 * Freezes `value`'s plain objects and arrays, deeply; other objects (Date, RegExp, ObjectId,
 * Decimal128...) are values it holds, not its shape, and stay as they are. Once frozen, any
 * change to the shape throws (modules run in strict mode).
 */
export function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (!Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return;
  }
  Object.freeze(value);
  for (const item of Object.values(value)) freezeDeep(item);
}

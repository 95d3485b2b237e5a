/** Helpers to read qs-parsed values, which come as strings, arrays, or objects (indexed ones too: `{ '0': 'a', '1': 'b' }`). */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An array, or an object whose keys are all array indexes (what qs builds past its array limit), as an array in index order; otherwise undefined. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
}

/**
 * A query value read as a number the way Strapi reads pagination values (lodash `toNumber`):
 * strings are trimmed, `0b`/`0o`/`0x` prefixes are binary/octal/hex, '' is 0, a one-item array
 * is its item, anything else that is not numeric is NaN.
 */
export function looseNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null) return 0;
  if (Array.isArray(value)) return looseNumber(value.join(','));
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim();
  const prefixed = /^0([box])([0-9a-f]+)$/i.exec(text);
  if (prefixed) {
    const [, base = '', digits = ''] = prefixed;
    const radix = { b: 2, o: 8, x: 16 }[base.toLowerCase()] ?? 10;
    const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 16: /^[0-9a-f]+$/i }[radix];
    return valid?.test(digits) ? parseInt(digits, radix) : Number.NaN;
  }
  return Number(text);
}

/**
 * Whether objects and arrays nest deeper than `max` levels in a value (`{}` is one level).
 * Measured without recursion, so a value nested a million levels deep is measured too.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

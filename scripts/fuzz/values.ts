/** Hostile scalar and structured values: what a client could put where a value is expected. */
import type { Random } from './random.js';

export const NASTY_STRINGS = [
  '',
  ' ',
  'a',
  'JavaScript',
  'Paris',
  'café',
  '50% off',
  'a*b',
  '%',
  '_',
  '%25',
  '%zz',
  '\0',
  'a\0b',
  '\u0000\u0001\u001f',
  '\n\r\t',
  '\\',
  '\\0',
  '"',
  "'",
  '`',
  '${x}',
  '.*',
  '(a+)+$',
  '[',
  '^$',
  '$where',
  '$gt',
  '$regex',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  'false',
  'NaN',
  'Infinity',
  '-Infinity',
  '0',
  '-0',
  '1',
  '-1',
  '1e309',
  '9007199254740993',
  '-9223372036854775809',
  '99999999999999999999999999',
  '0x1f',
  '1.5',
  '2023-01-01',
  '2023-13-45',
  '2024-02-30T25:61:61Z',
  '12:30',
  '99:99:99',
  '0000-00-00',
  '\uD800',
  '\uDFFF',
  '😀',
  '𝕏',
  'ǅ',
  'İ',
  'ß',
  '\u202e',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '[]',
  '{}',
  'x'.repeat(300),
  'é'.repeat(2000),
];

export const NASTY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  2,
  3,
  7,
  10,
  25,
  99,
  100,
  101,
  1000,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  5e-324,
  0.5,
  1.5,
  -2.5,
  3.14159,
];

/** A scalar as it appears in a query string (always text). */
export function queryScalar(rnd: Random): string {
  return rnd.weighted([
    [5, () => rnd.pick(NASTY_STRINGS)],
    [3, () => String(rnd.pick(NASTY_NUMBERS))],
    [2, () => String(rnd.int(-3, 60))],
    [1, () => randomText(rnd)],
  ]);
}

/** Any JSON value, nested up to `depth`. */
export function jsonValue(rnd: Random, depth = 2): unknown {
  return rnd.weighted<unknown>([
    [4, () => rnd.pick(NASTY_STRINGS)],
    [3, () => rnd.pick(NASTY_NUMBERS)],
    [1, () => rnd.chance(0.5)],
    [1, () => null],
    [depth > 0 ? 1 : 0, () => Array.from({ length: rnd.int(0, 4) }, () => jsonValue(rnd, depth - 1))],
    [depth > 0 ? 1 : 0, () => jsonObject(rnd, depth - 1)],
  ]);
}

/** An object with hostile keys (`__proto__` and `constructor` as own keys, `$` operators, dots). */
export function jsonObject(rnd: Random, depth = 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = rnd.int(0, 3); i > 0; i--) {
    const key = rnd.pick([
      'a',
      'b.c',
      '$gt',
      '$where',
      '__proto__',
      'constructor',
      'id',
      '',
      'a\0b',
      '😀',
      'x'.repeat(100),
    ]);
    Object.defineProperty(out, key, {
      value: jsonValue(rnd, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** `n` levels of nested arrays or objects around a value. */
export function nested(rnd: Random, levels: number, inner: unknown = 1): unknown {
  let value = inner;
  const asArray = rnd.chance(0.5);
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** `levels` of nested arrays or objects as JSON text (deeper than JSON.stringify can write). */
export function deepJson(rnd: Random, levels: number): string {
  return rnd.chance(0.5)
    ? `${'['.repeat(levels)}1${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

function randomText(rnd: Random): string {
  let out = '';
  for (let i = rnd.int(1, 12); i > 0; i--) out += String.fromCharCode(rnd.int(0, 0x2fff));
  return out;
}

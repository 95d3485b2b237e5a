import { ValidationError } from '../errors/index.js';
import { printValue } from './messages.js';

export type WriteData = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * The `data` of a REST write body, checked as Strapi's controller checks it: anything that is not
 * an object or an array is the 400 "Missing data payload". An array passes this first check (the
 * entry is looked up next, so an unknown id is still a 404) and is refused by `dataObject`.
 */
export function readDataPayload(body: unknown): WriteData | unknown[] {
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data) && !Array.isArray(data))
    throw new ValidationError('Missing "data" payload in the request body');
  return data;
}

/**
 * An array's items as Strapi's input sanitizer leaves them before yup prints them: arrays item by
 * item, objects without `id`, anything else spread into an object (`"ab"` → `{ 0: "a", 1: "b" }`,
 * a number or null → `{}`).
 */
function sanitizedItems(list: unknown[]): unknown[] {
  return list.map((item) => {
    if (Array.isArray(item)) return sanitizedItems(item);
    if (isPlainObject(item)) return Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'id'));
    return typeof item === 'string' ? Object.fromEntries(item.split('').map((char, i) => [String(i), char])) : {};
  });
}

/** `data` as the object a write needs; an array is yup's type error on the whole payload (path `[]`). */
export function dataObject(data: WriteData | unknown[]): WriteData {
  if (isPlainObject(data)) return data;
  const printed = printValue(sanitizedItems(data));
  throw ValidationError.forPath(
    [],
    `this must be a \`object\` type, but the final value was: \`null\` (cast from the value \`${printed}\`).`,
  );
}

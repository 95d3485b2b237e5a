// Strapi v4 validates writes with yup; these are yup's (and Strapi's yup extensions') messages,
// so clients see the same `details.errors[].message` as from Strapi.
import type { ValidationIssue } from '../errors/index.js';

/** yup's `printSimpleValue`: null for values it prints as JSON (objects, arrays). */
function printSimpleValue(value: unknown, quoteStrings: boolean): string | null {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return quoteStrings ? `"${value}"` : value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  return null;
}

/**
 * yup's `printValue` (0.32, Strapi v4's): strings quoted as they are, objects and arrays as JSON
 * indented by two whose leaves are printed values themselves (`{ a: 1 }` → `{\n  "a": "1"\n}`).
 */
export function printValue(value: unknown): string {
  const simple = printSimpleValue(value, true);
  if (simple !== null) return simple;
  try {
    return JSON.stringify(
      value,
      function (this: Record<string, unknown>, key: string, nested: unknown) {
        return printSimpleValue(this[key], true) ?? nested;
      },
      2,
    );
  } catch {
    // nested too deep for JSON.stringify (String() would overflow the same way)
    return Array.isArray(value) ? '[Array]' : '[Object]';
  }
}

/** `a.b[0].c` from `['a','b','0','c']` (yup's path notation). */
export function pathLabel(path: string[]): string {
  return path.reduce(
    (label, part, i) => (/^\d+$/.test(part) ? `${label}[${part}]` : i === 0 ? part : `${label}.${part}`),
    '',
  );
}

export function issue(path: string[], message: string): ValidationIssue {
  return { path, message, name: 'ValidationError' };
}

export const messages = {
  typeError(path: string[], type: string, value: unknown, original: unknown): string {
    const cast =
      original === null || original === undefined || Object.is(value, original)
        ? ''
        : ` (cast from the value \`${printValue(original)}\`)`;
    return `${pathLabel(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${cast}.`;
  },
  defined: (path: string[]) => `${pathLabel(path)} must be defined.`,
  required: (path: string[]) => `${pathLabel(path)} is a required field`,
  /** Strapi's relation check, which cannot read a dynamic-zone item without `__component` */
  zoneItemWithoutComponent: () => 'Cannot build relations store from dynamiczone, component identifier is undefined',
  /** Strapi's relation check, failing on a dynamic-zone item that is no object or names no known component */
  invalidRelations: () => 'Invalid relations',
  notNull: (path: string[]) => `${pathLabel(path)} cannot be null.`,
  /** a null among the values prints as nothing (Strapi adds null to an enumeration's values) */
  oneOf: (path: string[], values: unknown[]) =>
    `${pathLabel(path)} must be one of the following values: ${values.map((v) => (v === null ? '' : String(v))).join(', ')}`,
  email: (path: string[]) => `${pathLabel(path)} must be a valid email`,
  emptyEmail: (path: string[]) => `${pathLabel(path)} cannot be empty`,
  integer: (path: string[]) => `${pathLabel(path)} must be an integer`,
  matches: (path: string[], regex: string) => `${pathLabel(path)} must match the following: "${regex}"`,
  minLength: (path: string[], min: number) => `${pathLabel(path)} must be at least ${min} characters`,
  maxLength: (path: string[], max: number) => `${pathLabel(path)} must be at most ${max} characters`,
  min: (path: string[], min: number | string) => `${pathLabel(path)} must be greater than or equal to ${min}`,
  max: (path: string[], max: number | string) => `${pathLabel(path)} must be less than or equal to ${max}`,
  minItems: (path: string[], min: number) => `${pathLabel(path)} field must have at least ${min} items`,
  maxItems: (path: string[], max: number) => `${pathLabel(path)} field must have less than or equal to ${max} items`,
  tooDeep: (path: string[], max: number) =>
    `${pathLabel(path)} must not nest objects and arrays over ${max} levels deep`,
  unique: () => 'This attribute must be unique',
  object: (path: string[], value: unknown) =>
    `${pathLabel(path)} must be a \`object\` type, but the final value was: \`${printValue(value)}\`.`,
  /** an item of a component list that is no object: yup casts it to null */
  objectItem: (path: string[], value: unknown) => messages.typeError(path, 'object', null, value),
  /** yup's `noUnknown()`: an object schema that refuses keys it does not name */
  noUnknown: (path: string[], keys: string[]) => `${pathLabel(path)} field has unspecified keys: ${keys.join(', ')}`,
  array: (path: string[], value: unknown) =>
    `${pathLabel(path)} must be a \`array\` type, but the final value was: \`${printValue(value)}\`.`,
  relation: (path: string[]) => `${pathLabel(path)} must be an id, an array of ids or { connect, disconnect, set }`,
  toOne: (path: string[]) => `${pathLabel(path)} is a to-one relation: it takes one id`,
};

/** A message of yup's first check of a schema (its type, its list of values), as opposed to its tests. */
export function isTypeOrValueListMessage(message: string): boolean {
  return / must be a `\w+` type, but the final value was: | must be one of the following values: /.test(message);
}

// Value casting and validation of one scalar attribute, following Strapi v4's yup validators
// (non-strict: numbers and booleans are cast first; the string types are not, an enumeration is)
// and the storage layout of docs/ARCHITECTURE.md. Dates, times and datetimes are Strapi's database
// layer's (stored-formats.ts).
import type { ScalarAttribute, ScalarType } from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import { nestedDeeperThan } from '../query/qs-values.js';
import { blocksIssues } from './blocks.js';
import { issue, messages } from './messages.js';
import { storedDate, storedDatetime, storedTime, type StoredFormat } from './stored-formats.js';

/** Valid (the value to store), invalid (yup's issues), or refused when written (the database layer's message). */
export type ScalarResult =
  { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] } | { ok: false; storageError: string };

const ok = (value: unknown): ScalarResult => ({ ok: true, value });
const fail = (path: string[], message: string): ScalarResult => ({ ok: false, issues: [issue(path, message)] });

// yup's email regex (RFC 5322-ish, as yup 0.32 ships it), shortened to its practical form.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;
const BIGINT = /^-?\d+$/;
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * MongoDB refuses a document nested over 100 levels (and walking one that deep overflows the
 * stack before it even gets there): a JSON value keeps to 64, leaving room for the components
 * around it.
 */
export const MAX_JSON_DEPTH = 64;

/** yup's string cast (an enumeration's): numbers and booleans become strings; objects and arrays stay as they are (then fail). */
function castString(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value;
}

/**
 * The text yup's casts read from a value: an object whose own `toString`/`valueOf` are not
 * functions (`{ "toString": [] }` in a request body) has none, where yup's cast would throw.
 */
function textOf(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

/** yup's number cast: strings without their spaces, anything else through `parseFloat` (so `[5]` is 5). */
function castNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const trimmed = value.replace(/\s/g, '');
    return trimmed === '' ? Number.NaN : Number(trimmed);
  }
  const text = textOf(value);
  return text === undefined ? Number.NaN : Number.parseFloat(text);
}

/** yup's boolean cast: the text `true`/`1` or `false`/`0`, in any case. */
function castBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  const text = textOf(value);
  if (text === undefined) return value;
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  return value;
}

/**
 * What yup reports for `null` in a required attribute (the schema is not nullable): a type error
 * naming the schema's type and the cast value; `mixed` schemas (dates, json, biginteger,
 * relations) have no type, so their own required test speaks instead (undefined here).
 */
const NULL_TYPE_ERRORS: Partial<Record<ScalarType | 'component', { type: string; value: unknown }>> = {
  string: { type: 'string', value: null },
  text: { type: 'string', value: null },
  richtext: { type: 'string', value: null },
  password: { type: 'string', value: null },
  email: { type: 'string', value: null },
  uid: { type: 'string', value: null },
  enumeration: { type: 'string', value: null },
  integer: { type: 'number', value: Number.NaN },
  float: { type: 'number', value: Number.NaN },
  decimal: { type: 'number', value: Number.NaN },
  boolean: { type: 'boolean', value: null },
  component: { type: 'object', value: null },
};

/** The message for `null` in a required attribute of `type` (`create`: Strapi's notNil, else notNull). */
export function requiredNullMessage(type: string, path: string[], create: boolean): string {
  const typed = NULL_TYPE_ERRORS[type as ScalarType | 'component'];
  if (typed) return messages.typeError(path, typed.type, typed.value, null);
  return create ? messages.defined(path) : messages.notNull(path);
}

/** The database layer's conversions, by attribute type. */
const STORED_FORMATS: Partial<Record<ScalarType, (value: unknown) => StoredFormat>> = {
  date: storedDate,
  time: storedTime,
  datetime: storedDatetime,
  timestamp: storedDatetime,
};

function checkLengths(attribute: ScalarAttribute, path: string[], value: string, isDraft: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof attribute.minLength === 'number' && !isDraft && value.length < attribute.minLength)
    issues.push(issue(path, messages.minLength(path, attribute.minLength)));
  if (typeof attribute.maxLength === 'number' && value.length > attribute.maxLength)
    issues.push(issue(path, messages.maxLength(path, attribute.maxLength)));
  if (attribute.regex && value !== '' && !new RegExp(attribute.regex).test(value))
    issues.push(issue(path, messages.matches(path, `/${attribute.regex}/`)));
  return issues;
}

/**
 * Strapi's email schema ends with yup's `min(1, "cannot be empty")`, which replaces a `minLength`
 * (yup keeps one test of a name) and applies to drafts too; `email()` itself lets '' through.
 */
function checkEmail(attribute: ScalarAttribute, path: string[], value: string): ValidationIssue[] {
  const issues = checkLengths({ ...attribute, minLength: undefined }, path, value, true);
  if (value !== '' && !EMAIL.test(value)) issues.push(issue(path, messages.email(path)));
  if (value === '') issues.push(issue(path, messages.emptyEmail(path)));
  return issues;
}

/**
 * Strapi 4.26 checks an integer's or a float's `min`/`max` only when the schema gives a number (an
 * integer's truncated): the content-type builder's text (`"max": "11"`) is not checked.
 */
function checkRange(attribute: ScalarAttribute, path: string[], value: number): ValidationIssue[] {
  const bound = (limit: number | string | undefined): number | undefined =>
    typeof limit !== 'number' ? undefined : attribute.type === 'integer' ? Math.trunc(limit) : limit;
  const [min, max] = [bound(attribute.min), bound(attribute.max)];
  const issues: ValidationIssue[] = [];
  if (min !== undefined && value < min) issues.push(issue(path, messages.min(path, min)));
  if (max !== undefined && value > max) issues.push(issue(path, messages.max(path, max)));
  return issues;
}

function result(value: unknown, issues: ValidationIssue[]): ScalarResult {
  return issues.length > 0 ? { ok: false, issues } : ok(value);
}

/**
 * How a scalar is checked: `isDraft` skips what Strapi v4 skips for drafts (minLength); `rules`
 * false checks only what storing needs (the value's type), as Strapi's query engine writes without
 * its entity service's validation: no lengths, patterns, ranges, formats or enumeration values.
 */
export interface ScalarChecks {
  isDraft: boolean;
  rules: boolean;
}

/**
 * Casts a present, non-null value of a scalar attribute to its stored form, or lists what is wrong.
 * Passwords stay plain here: they are hashed once the whole write is valid (`hashPasswords`).
 */
export function castScalar(
  attribute: ScalarAttribute,
  path: string[],
  input: unknown,
  checks: ScalarChecks,
): ScalarResult {
  const { isDraft, rules } = checks;
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'uid':
    case 'enumeration':
    case 'password': {
      // the query engine's database layer stores any primitive as its text
      const value = attribute.type === 'enumeration' || !rules ? castString(input) : input;
      if (typeof value !== 'string') {
        const typeError = issue(path, messages.typeError(path, 'string', value, input));
        // an enumeration's list of values is checked with the type (null is among the values)
        return attribute.type === 'enumeration'
          ? { ok: false, issues: [typeError, issue(path, messages.oneOf(path, [...(attribute.enum ?? []), null]))] }
          : { ok: false, issues: [typeError] };
      }
      if (!rules) return ok(value);
      const issues =
        attribute.type === 'email' ? checkEmail(attribute, path, value) : checkLengths(attribute, path, value, isDraft);
      if (attribute.type === 'uid' && !UID.test(value))
        issues.push(issue(path, messages.matches(path, UID.toString())));
      if (attribute.type === 'enumeration' && !(attribute.enum ?? []).includes(value))
        issues.push(issue(path, messages.oneOf(path, [...(attribute.enum ?? []), null])));
      return result(value, issues);
    }
    case 'integer':
    case 'float':
    case 'decimal': {
      const value = castNumber(input);
      // yup's number type takes ±Infinity: an integer then fails its integer test (a float or
      // decimal would be stored as null by Strapi, so it stays a type error here)
      const infiniteInteger = attribute.type === 'integer' && Math.abs(value) === Infinity;
      if (typeof value !== 'number' || (!Number.isFinite(value) && !infiniteInteger))
        return fail(path, messages.typeError(path, 'number', value, input));
      const issues: ValidationIssue[] = [];
      if (attribute.type === 'integer' && !Number.isInteger(value)) issues.push(issue(path, messages.integer(path)));
      if (rules) issues.push(...checkRange(attribute, path, value));
      return result(value, issues);
    }
    case 'biginteger': {
      const text = typeof input === 'number' && Number.isInteger(input) ? String(input) : castString(input);
      if (typeof text !== 'string') return fail(path, messages.typeError(path, 'string', text, input));
      if (!BIGINT.test(text)) return fail(path, messages.matches(path, BIGINT.toString()));
      const value = BigInt(text);
      // stored as int64 (Strapi on SQLite keeps any text; a database with a bigint column refuses these)
      if (value < INT64.min) return fail(path, messages.min(path, INT64.min.toString()));
      if (value > INT64.max) return fail(path, messages.max(path, INT64.max.toString()));
      // Strapi 4.26 checks no `min`/`max` on a biginteger (only its admin panel's form does)
      return ok(value);
    }
    case 'boolean': {
      const value = castBoolean(input);
      return typeof value === 'boolean' ? ok(value) : fail(path, messages.typeError(path, 'boolean', value, input));
    }
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp': {
      const stored = STORED_FORMATS[attribute.type]?.(input) ?? { ok: false, message: 'Invalid format' };
      return stored.ok ? ok(stored.value) : { ok: false, storageError: stored.message };
    }
    case 'json':
      return nestedDeeperThan(input, MAX_JSON_DEPTH) ? fail(path, messages.tooDeep(path, MAX_JSON_DEPTH)) : ok(input);
    case 'blocks': {
      if (nestedDeeperThan(input, MAX_JSON_DEPTH)) return fail(path, messages.tooDeep(path, MAX_JSON_DEPTH));
      const issues = rules ? blocksIssues(path, input) : [];
      return issues.length > 0 ? { ok: false, issues } : ok(input);
    }
  }
}

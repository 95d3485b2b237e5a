// Value casting and validation of one scalar attribute, following Strapi v4's yup validators
// (non-strict: yup casts first, then tests) and the storage layout of docs/ARCHITECTURE.md.
import type { ScalarAttribute } from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import { nestedDeeperThan } from '../query/qs-values.js';
import { blocksIssues } from './blocks.js';
import { issue, messages } from './messages.js';

export type ScalarResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

const ok = (value: unknown): ScalarResult => ({ ok: true, value });
const fail = (path: string[], message: string): ScalarResult => ({ ok: false, issues: [issue(path, message)] });

// yup's email regex (RFC 5322-ish, as yup 0.32 ships it), shortened to its practical form.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;
const BIGINT = /^-?\d+$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * MongoDB refuses a document nested over 100 levels (and walking one that deep overflows the
 * stack before it even gets there): a JSON value keeps to 64, leaving room for the components
 * around it.
 */
export const MAX_JSON_DEPTH = 64;

/** yup's string cast: numbers and booleans become strings; objects and arrays stay as they are (then fail). */
function castString(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value;
}

/** yup's number cast. */
function castNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const trimmed = value.replace(/\s/g, '');
    return trimmed === '' ? Number.NaN : Number(trimmed);
  }
  return Number.NaN;
}

function castBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return value;
}

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

function checkRange(attribute: ScalarAttribute, path: string[], value: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (attribute.min !== undefined && value < Number(attribute.min))
    issues.push(issue(path, messages.min(path, attribute.min)));
  if (attribute.max !== undefined && value > Number(attribute.max))
    issues.push(issue(path, messages.max(path, attribute.max)));
  return issues;
}

function result(value: unknown, issues: ValidationIssue[]): ScalarResult {
  return issues.length > 0 ? { ok: false, issues } : ok(value);
}

function castDate(path: string[], value: unknown): ScalarResult {
  if (typeof value !== 'string' && !(value instanceof Date)) return fail(path, messages.invalidDate(path));
  const text = value instanceof Date ? value.toISOString() : value.trim();
  const dateOnly = DATE_ONLY.exec(text.slice(0, 10));
  const parsed = new Date(text.length === 10 ? `${text}T00:00:00.000Z` : text);
  if (!dateOnly || Number.isNaN(parsed.getTime())) return fail(path, messages.invalidDate(path));
  const [, y, m, d] = dateOnly;
  const check = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(m) - 1 || check.getUTCDate() !== Number(d))
    return fail(path, messages.invalidDate(path));
  return ok(`${y}-${m}-${d}`);
}

function castTime(path: string[], value: unknown): ScalarResult {
  const match = typeof value === 'string' ? TIME.exec(value.trim()) : null;
  if (!match) return fail(path, messages.invalidTime(path));
  const [, h, m, s = '00', ms = '0'] = match;
  if (Number(h) > 23 || Number(m) > 59 || Number(s) > 59) return fail(path, messages.invalidTime(path));
  return ok(`${h}:${m}:${s}.${ms.padEnd(3, '0')}`);
}

function castDatetime(path: string[], value: unknown): ScalarResult {
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date))
    return fail(path, messages.invalidDate(path));
  const parsed = new Date(value);
  if (typeof value === 'string' && value.trim() === '') return fail(path, messages.invalidDate(path));
  return Number.isNaN(parsed.getTime()) ? fail(path, messages.invalidDate(path)) : ok(parsed);
}

/**
 * Casts a present, non-null value of a scalar attribute to its stored form, or lists what is wrong.
 * Passwords stay plain here: they are hashed once the whole write is valid (`hashPasswords`).
 * `isDraft` skips the checks Strapi v4 skips for drafts (minLength).
 */
export function castScalar(attribute: ScalarAttribute, path: string[], input: unknown, isDraft: boolean): ScalarResult {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'uid':
    case 'enumeration':
    case 'password': {
      const value = castString(input);
      if (typeof value !== 'string') return fail(path, messages.typeError(path, 'string', value, input));
      const issues = checkLengths(attribute, path, value, isDraft);
      if (attribute.type === 'email' && value !== '' && !EMAIL.test(value))
        issues.push(issue(path, messages.email(path)));
      if (attribute.type === 'uid' && !UID.test(value))
        issues.push(issue(path, messages.matches(path, UID.toString())));
      if (attribute.type === 'enumeration' && !(attribute.enum ?? []).includes(value))
        issues.push(issue(path, messages.oneOf(path, attribute.enum ?? [])));
      return result(value, issues);
    }
    case 'integer':
    case 'float':
    case 'decimal': {
      const value = castNumber(input);
      if (typeof value !== 'number' || !Number.isFinite(value))
        return fail(path, messages.typeError(path, 'number', value, input));
      const issues: ValidationIssue[] = [];
      if (attribute.type === 'integer' && !Number.isInteger(value)) issues.push(issue(path, messages.integer(path)));
      issues.push(...checkRange(attribute, path, value));
      return result(value, issues);
    }
    case 'biginteger': {
      const text = typeof input === 'number' && Number.isInteger(input) ? String(input) : castString(input);
      if (typeof text !== 'string') return fail(path, messages.typeError(path, 'string', text, input));
      if (!BIGINT.test(text)) return fail(path, messages.matches(path, BIGINT.toString()));
      const value = BigInt(text);
      const issues: ValidationIssue[] = [];
      if (attribute.min !== undefined && value < BigInt(attribute.min))
        issues.push(issue(path, messages.min(path, attribute.min)));
      if (attribute.max !== undefined && value > BigInt(attribute.max))
        issues.push(issue(path, messages.max(path, attribute.max)));
      return result(value, issues);
    }
    case 'boolean': {
      const value = castBoolean(input);
      return typeof value === 'boolean' ? ok(value) : fail(path, messages.typeError(path, 'boolean', value, input));
    }
    case 'date':
      return castDate(path, input);
    case 'time':
      return castTime(path, input);
    case 'datetime':
    case 'timestamp':
      return castDatetime(path, input);
    case 'json':
      return nestedDeeperThan(input, MAX_JSON_DEPTH) ? fail(path, messages.tooDeep(path, MAX_JSON_DEPTH)) : ok(input);
    case 'blocks': {
      if (nestedDeeperThan(input, MAX_JSON_DEPTH)) return fail(path, messages.tooDeep(path, MAX_JSON_DEPTH));
      const issues = blocksIssues(path, input);
      return issues.length > 0 ? { ok: false, issues } : ok(input);
    }
  }
}

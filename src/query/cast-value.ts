import type { ScalarType } from '../content-types/index.js';
import { ValidationError } from '../errors/index.js';

/** The type a filter value is cast to: an attribute's type, or `id` for the entry id (`_id`). */
export type CastType = ScalarType | 'id';

/** A single value as qs or GraphQL hands it over; objects and arrays are rejected before this point. */
export type RawScalar = string | number | boolean | bigint | Date | null;

export function isRawScalar(value: unknown): value is RawScalar {
  return value === null || value instanceof Date || ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}

const TIME = /^(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(\.[0-9]{1,3})?$/;
const DATE_PREFIX = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])/;

/**
 * A query value cast the way it is stored (docs/ARCHITECTURE.md, storage layout), so MongoDB
 * compares like with like. Strapi v4 casts with its database field types (`toDB`): numbers with
 * `toNumber`, booleans from `true/t/1` and `false/f/0`, dates and times parsed and re-formatted.
 * Bad input is a 400 naming the key (where Strapi answers 500; docs/strapi-deviations.md).
 */
export function castValue(type: CastType, raw: RawScalar, key: string): unknown {
  if (raw === null) return null;
  switch (type) {
    case 'id':
      return castId(raw);
    case 'integer':
    case 'float':
    case 'decimal':
      return castNumber(raw, key);
    case 'biginteger':
      return castBigInteger(raw, key);
    case 'boolean':
      return castBoolean(raw);
    case 'date':
      return castDate(raw, key);
    case 'time':
      return castTime(raw, key);
    case 'datetime':
    case 'timestamp':
      return castDateTime(raw, key);
    case 'json':
    case 'blocks':
      return castJson(raw);
    default:
      return raw instanceof Date ? raw.toISOString() : String(raw);
  }
}

/** A text SQLite reads as a number when it meets an INTEGER column: a decimal literal, spaces around. */
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Ids are compared as Strapi 4.26's database compares the text it is given with its integer
 * column: a number literal by value (`1.0`, `1e0`, `+1` find entry 1; `$lt=1.5` too); any other
 * text matches no entry (`$in=1,2` finds nothing).
 */
function castId(raw: Exclude<RawScalar, null>): unknown {
  if (typeof raw === 'number') return raw;
  const text = String(raw).trim();
  return NUMERIC_TEXT.test(text) ? Number(text) : String(raw);
}

function castNumber(raw: Exclude<RawScalar, null>, key: string): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (typeof raw === 'boolean' || raw instanceof Date) throw invalid(key, `Expected a valid number for ${key}`);
  const number = Number(raw);
  if (Number.isNaN(number)) throw invalid(key, `Expected a valid number for ${key}, got ${raw}`);
  return number;
}

/**
 * An integer stays exact (int64); another number (`1000.5`, `3000123457.0`, `1e3`) compares by
 * value, as Strapi's database compares it with the column; text that is no number is a 400.
 */
function castBigInteger(raw: Exclude<RawScalar, null>, key: string): bigint | number {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number') return Number.isInteger(raw) ? BigInt(raw) : raw;
  const text = String(raw).trim();
  const integral = /^([-+]?\d+)(?:\.0*)?$/.exec(text);
  if (integral) return BigInt(integral[1] ?? '');
  const number = text === '' || typeof raw !== 'string' ? NaN : Number(text);
  if (Number.isFinite(number)) return number;
  throw invalid(key, `Expected a valid integer for ${key}, got ${String(raw)}`);
}

/** Strapi's BooleanField.toDB: `true/t/1` and `false/f/0`, anything else by JavaScript truthiness. */
export function castBoolean(raw: Exclude<RawScalar, null>): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === 't' || raw === '1' || raw === 1) return true;
  if (raw === 'false' || raw === 'f' || raw === '0' || raw === 0) return false;
  return Boolean(raw);
}

/**
 * Stored as `YYYY-MM-DD`. As Strapi's date field reads a value: a text starting with a valid
 * `YYYY-MM-DD` is that date (`2023-01-08T10:00Z` → `2023-01-08`); anything else is its
 * `Invalid format, expected yyyy-MM-dd`, and a day that does not exist its `Invalid date`.
 */
function castDate(raw: Exclude<RawScalar, null>, key: string): string {
  if (raw instanceof Date) return raw.toISOString().slice(0, 10);
  const match = typeof raw === 'string' ? DATE_PREFIX.exec(raw) : null;
  if (!match) throw invalid(key, 'Invalid format, expected yyyy-MM-dd');
  const [text = '', year = '', month = '', day = ''] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCDate() !== Number(day)) throw invalid(key, 'Invalid date');
  return text;
}

/** Stored as `HH:mm:ss.SSS`; the seconds are required, as in Strapi's parseTime (case 243). */
function castTime(raw: Exclude<RawScalar, null>, key: string): string {
  const match = TIME.exec(String(raw));
  if (!match) throw invalid(key, 'Invalid time format, expected HH:mm:ss.SSS');
  const [, hours, minutes, seconds, fraction = '.000'] = match;
  return `${hours}:${minutes}:${seconds}.${fraction.slice(1).padEnd(3, '0')}`;
}

/** A BSON Date: an ISO date-time, a date alone (midnight UTC, case 186) or a timestamp in milliseconds. */
function castDateTime(raw: Exclude<RawScalar, null>, key: string): Date {
  if (raw instanceof Date) return raw;
  const message = 'Invalid format, expected a timestamp or an ISO date';
  if (typeof raw === 'number') return checkedDate(new Date(raw), key, message);
  const text = String(raw).trim();
  if (/^-?\d+$/.test(text) && !/^\d{4}$/.test(text)) return checkedDate(new Date(Number(text)), key, message);
  const dateOnly = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (dateOnly) {
    const [, year = '', month = '01', day = '01'] = dateOnly;
    return checkedDate(new Date(`${year}-${month}-${day}T00:00:00.000Z`), key, message);
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) throw invalid(key, message);
  return checkedDate(new Date(text.replace(' ', 'T')), key, message);
}

function checkedDate(date: Date, key: string, message: string): Date {
  if (Number.isNaN(date.getTime())) throw invalid(key, message);
  return date;
}

/** A JSON attribute is compared as its JSON text (as Strapi stores it): the value's `JSON.stringify`. */
function castJson(raw: Exclude<RawScalar, null>): string {
  if (typeof raw === 'bigint') return raw.toString();
  return JSON.stringify(raw instanceof Date ? raw.toISOString() : raw);
}

function invalid(key: string, message: string): ValidationError {
  // Strapi's messages name the rule, not the key, and carry empty details (case 243)
  void key;
  return new ValidationError(message);
}

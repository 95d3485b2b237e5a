// Date, time and datetime values are not checked by Strapi v4's validator (yup `mixed`): its
// database layer converts them when it writes the row, and a value it cannot convert is a 400 with
// the converter's message and no details, raised after validation, after the relation checks and
// after the components written before the row. These are those conversions, with date-fns (the
// library Strapi's database layer uses) for ISO dates and millisecond timestamps.
import { format, isValid, parse, parseISO } from 'date-fns';

export type StoredFormat = { ok: true; value: string | Date } | { ok: false; message: string };

const DATE_PREFIX = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])/;
// `.` before the fraction is any character, as in Strapi's parser
const TIME = /^(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(.[0-9]{1,3})?$/;

const fail = (message: string): StoredFormat => ({ ok: false, message });

/** Dates given by the service itself (a copied localization, a lifecycle's data) pass as they are. */
const isValidDate = (value: unknown): value is Date => value instanceof Date && isValid(value);

/** `yyyy-MM-dd`: the leading date of a string (what follows it is dropped, as Strapi does), or of a Date (server time). */
export function storedDate(value: unknown): StoredFormat {
  if (isValidDate(value)) return { ok: true, value: format(value, 'yyyy-MM-dd') };
  const prefix = typeof value === 'string' ? DATE_PREFIX.exec(value)?.[0] : undefined;
  if (!prefix) return fail('Invalid format, expected yyyy-MM-dd');
  if (!isValid(parseISO(prefix))) return fail('Invalid date');
  return { ok: true, value: prefix };
}

/** `HH:mm:ss.SSS` from `HH:mm:ss` with up to three fraction digits. */
export function storedTime(value: unknown): StoredFormat {
  if (isValidDate(value)) return { ok: true, value: format(value, 'HH:mm:ss.SSS') };
  if (typeof value !== 'string') return fail(`Expected a string, got a ${typeof value}`);
  const match = TIME.exec(value);
  if (!match) return fail('Invalid time format, expected HH:mm:ss.SSS');
  const [, hours, minutes, seconds, fraction = '.000'] = match;
  return { ok: true, value: `${hours}:${minutes}:${seconds}.${fraction.slice(1).padEnd(3, '0')}` };
}

/** A Date from an ISO 8601 text (date-fns `parseISO`) or a millisecond timestamp, read from the value's text. */
export function storedDatetime(value: unknown): StoredFormat {
  if (isValidDate(value)) return { ok: true, value };
  const text = textOf(value);
  const iso = parseISO(text);
  if (isValid(iso)) return { ok: true, value: iso };
  const timestamp = parse(text, 'T', new Date());
  if (isValid(timestamp)) return { ok: true, value: timestamp };
  return fail('Invalid format, expected a timestamp or an ISO date');
}

/** lodash's `toString`, which Strapi applies first: null is '', arrays are joined with commas. */
function textOf(value: unknown, top = true): string {
  if (value === null || value === undefined) return top ? '' : String(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => textOf(item, false)).join(',');
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

import type { ContentType, ScalarType } from '../../content-types/index.js';
import { isPrivate } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import { textPattern } from '../filters/compile.js';
import { looseNumber } from '../qs-values.js';

/** Strapi's searchable text types, and the number types searched when the term reads as a number. */
const TEXT_TYPES = new Set<ScalarType>(['string', 'text', 'uid', 'email', 'enumeration', 'richtext']);
const NUMBER_TYPES = new Set<ScalarType>(['integer', 'biginteger', 'float', 'decimal']);
/** Stored as floating point in Strapi's SQL tables, where a whole value reads `2.0`. */
const REAL_TYPES = new Set<ScalarType>(['float', 'decimal']);

/**
 * The `$match` of `_q`, Strapi's search: entries where the term is a case-insensitive substring of
 * the id, of a text attribute (`string`, `text`, `uid`, `email`, `enumeration`, `richtext`, and the
 * i18n `locale`), or, when the term reads as a number (lodash `toNumber`), of a number attribute as
 * SQL prints it (`2.0` for a whole float). `searchable: false` attributes are left out, and so are
 * private ones (never filtered, here as everywhere). `%`, `_` and every other character match
 * literally. No `_q` or an empty one: null; a `_q` that is not a text is a 400.
 */
export function searchMatch(schema: ContentType, raw: unknown): Record<string, unknown> | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new ValidationError('Invalid parameter _q', {});
  const pattern = textPattern('containsi', raw);
  const numeric = !Number.isNaN(looseNumber(raw));
  // the text clauses first: the printed numbers are expressions, evaluated for each entry the
  // others leave; and a term no printed integer can contain leaves the id out
  const texts: Record<string, unknown>[] = [];
  const numbers: Record<string, unknown>[] = INTEGER_TEXT.test(raw) ? [textOf('$_id', false, pattern)] : [];
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (isPrivate(attribute) || attribute.searchable === false) continue;
    if (attribute.type === 'relation' || attribute.type === 'media') continue;
    if (attribute.type === 'component' || attribute.type === 'dynamiczone') continue;
    if (TEXT_TYPES.has(attribute.type)) texts.push({ [name]: { $regex: pattern } });
    else if (numeric && NUMBER_TYPES.has(attribute.type))
      numbers.push(textOf(`$${name}`, REAL_TYPES.has(attribute.type), pattern));
  }
  const clauses = [...texts, ...numbers];
  return clauses.length === 0 ? { _id: { $exists: false } } : { $or: clauses };
}

/** A term a printed integer id (digits, a minus sign) can contain. */
const INTEGER_TEXT = /^[-0-9]+$/;

/** A number field printed as SQL prints it (null stays null, which matches nothing). */
function textOf(path: string, real: boolean, pattern: RegExp): Record<string, unknown> {
  const printed = { $toString: path };
  const text = real
    ? {
        $cond: [{ $eq: [{ $trunc: [path, 0] }, path] }, { $concat: [{ $toString: { $toLong: path } }, '.0'] }, printed],
      }
    : printed;
  return {
    $expr: {
      $cond: [
        { $in: [{ $type: path }, ['int', 'long', 'double', 'decimal']] },
        { $regexMatch: { input: text, regex: pattern } },
        false,
      ],
    },
  };
}

import { compareStrings, type StringCompare } from '../bson/compare.js';
import { commandError } from '../errors.js';

/** The string comparator for a collation document (`locale: 'simple'` or none: binary order). */
export function collationCompare(collation: unknown): StringCompare {
  if (collation === undefined || collation === null) return compareStrings;
  if (typeof collation !== 'object') throw commandError('FailedToParse', 'collation must be an object');
  const c = collation as { locale?: unknown; strength?: unknown; numericOrdering?: unknown; caseFirst?: unknown };
  if (typeof c.locale !== 'string') throw commandError('FailedToParse', 'Missing expected field "locale"');
  if (c.locale === 'simple') return compareStrings;
  let locales: string[];
  try {
    locales = Intl.Collator.supportedLocalesOf(c.locale.replace(/_/g, '-'));
  } catch {
    locales = [];
  }
  if (locales.length === 0) throw commandError('BadValue', `Field 'locale' is invalid in: { locale: "${c.locale}" }`);
  const strength = typeof c.strength === 'number' ? c.strength : 3;
  const sensitivity = strength <= 1 ? 'base' : strength === 2 ? 'accent' : 'variant';
  const collator = new Intl.Collator(locales[0], {
    sensitivity,
    numeric: c.numericOrdering === true,
    caseFirst: c.caseFirst === 'upper' || c.caseFirst === 'lower' ? c.caseFirst : undefined,
  });
  return (a, b) => collator.compare(a, b);
}

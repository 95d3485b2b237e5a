import type { ContentType } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { I18nSettings } from '../../service-context.js';

/**
 * The `$match` condition `locale` puts on a find of a localized type, as Strapi's i18n plugin reads
 * it (a filter `{ locale: <value> }` added to the query): the default locale when omitted, none for
 * `all`, that exact text otherwise (a locale that is not configured, or an empty one, matches
 * nothing). A list or an operator object is a filter on `locale` (see `localeFilters`). Types that
 * are not localized ignore the parameter.
 */
export function localeMatch(schema: ContentType, i18n: I18nSettings | null, raw: unknown): Record<string, unknown> {
  if (!schema.localized || !i18n) return {};
  if (raw === 'all' || (raw !== undefined && typeof raw !== 'string')) return {};
  return { locale: raw === undefined ? i18n.defaultLocale : raw };
}

/** `locale` given as a list or as operators (`locale[$in][0]=en&…`): the `filters` value Strapi reads it as. */
export function localeFilters(schema: ContentType, i18n: I18nSettings | null, raw: unknown): unknown {
  if (!schema.localized || !i18n || raw === undefined || typeof raw === 'string') return undefined;
  return { locale: raw };
}

/**
 * Beyond Strapi (opt-in; docs/strapi-deviations.md): `fallbackLocale=en` with `locale=fr` lists, for each document
 * (locale group), its `fr` entry, or its `en` entry where no `fr` one is visible. Returns the
 * `$match` on both locales and the stages keeping one entry per group; no stages without the
 * parameter. The fallback must be a configured locale (400 otherwise).
 */
export function localeFallback(
  schema: ContentType,
  i18n: I18nSettings | null,
  rawLocale: unknown,
  rawFallback: unknown,
): { match: Record<string, unknown>; stages: Record<string, unknown>[] } | null {
  if (rawFallback === undefined) return null;
  if (typeof rawFallback !== 'string' || !i18n?.locales.some((locale) => locale.code === rawFallback)) {
    throw new ValidationError('Invalid parameter fallbackLocale: expected a configured locale', {});
  }
  if (!schema.localized) return null;
  const primary = localeMatch(schema, i18n, rawLocale).locale;
  if (typeof primary !== 'string' || primary === rawFallback) return null;
  return {
    match: { locale: { $in: [primary, rawFallback] } },
    stages: [
      { $addFields: { __fallback: { $cond: [{ $eq: ['$locale', primary] }, 0, 1] } } },
      { $sort: { localeGroup: 1, __fallback: 1 } },
      { $group: { _id: '$localeGroup', entry: { $first: '$$ROOT' } } },
      { $replaceRoot: { newRoot: '$entry' } },
      { $project: { __fallback: 0 } },
    ],
  };
}

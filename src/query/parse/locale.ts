import type { ContentType } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { I18nSettings } from '../../service-context.js';

/**
 * The `$match` condition `locale` puts on a find of a localized type: the default locale when
 * omitted, none for `all`. A locale that is not configured matches nothing (as Strapi's filter on
 * it would). Non-localized types ignore the parameter. A non-string value is a 400.
 */
export function localeMatch(schema: ContentType, i18n: I18nSettings | null, raw: unknown): Record<string, unknown> {
  if (raw !== undefined && typeof raw !== 'string') throw new ValidationError('Invalid parameter locale', {});
  if (!schema.localized || !i18n) return {};
  if (raw === 'all') return {};
  return { locale: raw === undefined || raw === '' ? i18n.defaultLocale : raw };
}

/**
 * Beyond Strapi (opt-in, issue 5): `fallbackLocale=en` with `locale=fr` lists, for each document
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

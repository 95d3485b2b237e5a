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

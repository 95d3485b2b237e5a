/**
 * The configured locales as the rows of Strapi's `plugin::i18n.locale` (ids in configuration
 * order), for every reader: `GET /api/i18n/locales`, the `locales` service and GraphQL's
 * `i18NLocale(s)`. Strapi stamps a row when it is created; these come from the configuration, so
 * `createdAt` and `updatedAt` are when this service first read it (one stamp per configuration).
 */
import type { I18nSettings } from '../../service-context.js';

export interface LocaleRow {
  id: number;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
}

const loadedAt = new WeakMap<I18nSettings, string>();

export function localeRows(i18n: I18nSettings): LocaleRow[] {
  let stamp = loadedAt.get(i18n);
  if (stamp === undefined) {
    stamp = new Date().toISOString();
    loadedAt.set(i18n, stamp);
  }
  const at = stamp;
  return i18n.locales.map((locale, index) => ({
    id: index + 1,
    name: locale.name,
    code: locale.code,
    createdAt: at,
    updatedAt: at,
  }));
}

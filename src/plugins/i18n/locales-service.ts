/**
 * `strapi.plugin('i18n').service('locales')` of Strapi 4.26, for plugins that read the locales
 * from server code (strapi-plugin-navigation asks `getDefaultLocale()` and `find({})`). The
 * locales are the configured ones (`plugins.i18n.config`), as `GET /api/i18n/locales` answers
 * them; they are not written from code here.
 */
import type { I18nSettings } from '../../service-context.js';
import { localeRows, type LocaleRow } from './locale-rows.js';

export function createLocalesService(i18n: I18nSettings) {
  const rows = (): LocaleRow[] => localeRows(i18n);
  // Strapi's `find(params)` is its query engine's `where`: the equality on a row's own fields is what plugins send
  const matches = (row: LocaleRow, where: unknown): boolean =>
    where === null ||
    typeof where !== 'object' ||
    Object.entries(where).every(([key, value]) => (row as unknown as Record<string, unknown>)[key] === value);
  return {
    async find(params: unknown = {}) {
      return rows().filter((row) => matches(row, params));
    },
    async findById(id: unknown) {
      return rows().find((row) => row.id === Number(id)) ?? null;
    },
    async findByCode(code: unknown) {
      return rows().find((row) => row.code === code) ?? null;
    },
    async count(params: unknown = {}) {
      return rows().filter((row) => matches(row, params)).length;
    },
    async getDefaultLocale() {
      return i18n.defaultLocale;
    },
    async setIsDefault<T>(locales: T): Promise<T> {
      const mark = (locale: unknown) =>
        locale !== null && typeof locale === 'object'
          ? { ...locale, isDefault: (locale as { code?: unknown }).code === i18n.defaultLocale }
          : locale;
      return (Array.isArray(locales) ? locales.map(mark) : mark(locales)) as T;
    },
  };
}

/**
 * `strapi.plugin('i18n').service('locales')` of Strapi 4.26, for plugins that read the locales
 * from server code (strapi-plugin-navigation asks `getDefaultLocale()` and `find({})`) and for
 * projects whose bootstrap adds the locales they need (`findByCode(code)`, then `create({ code,
 * name })`, where Strapi's admin panel is not there to add them). The locales are the configured
 * ones (`plugins.i18n.config`) and those created this way since start-up, which every reader
 * (`GET /api/i18n/locales`, writes in that locale, GraphQL) sees at once; a created one is not
 * stored, so the bootstrap adds it again at each start.
 */
import { ApplicationError, ValidationError, invariant } from '../../errors/index.js';
import type { I18nSettings } from '../../service-context.js';
import { isLocaleCode } from './locale-code.js';
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
    /** Strapi's `create(locale)`: the new row; a code already there is refused, as its unique index does */
    async create(locale: unknown): Promise<LocaleRow> {
      const { code, name } = (locale ?? {}) as { code?: unknown; name?: unknown };
      if (!isLocaleCode(code)) throw new ValidationError('A locale needs a code such as "en" or "fr-CA"');
      if (rows().some((row) => row.code === code)) throw new ApplicationError('This locale already exists');
      i18n.locales.push({ code, name: typeof name === 'string' && name !== '' ? name : code });
      const created = rows().find((row) => row.code === code);
      invariant(created, 'a locale just added has its row');
      return created;
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

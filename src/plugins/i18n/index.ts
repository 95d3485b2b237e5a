import { LIST_LOCALES_ACTION } from '../../access/actions.js';
import type { ServiceConfig } from '../../config/index.js';
import { ConfigError } from '../../config/index.js';
import { I18N_LOCALE_UID, pluginCollectionType } from '../../content-types/index.js';
import type { I18nSettings, Locale } from '../../service-context.js';
import { ForbiddenError } from '../../errors/index.js';
import { requestAuth } from '../../operations/request-context.js';
import type { Plugin } from '../types.js';
import { localizationRoutes } from './localization-route.js';
import { isLocaleCode } from './locale-code.js';
import { localeRows } from './locale-rows.js';
import { createLocalesService } from './locales-service.js';

/** Locales and the default locale from `plugins.i18n.config`; null when the plugin is off. */
export function i18nSettings(config: ServiceConfig): I18nSettings | null {
  const plugin = config.plugins.i18n;
  if (!plugin?.enabled) return null;
  const raw = plugin.config.locales ?? [{ code: 'en', name: 'English (en)' }];
  if (!Array.isArray(raw) || raw.length === 0)
    throw new ConfigError('config/plugins', 'i18n.config.locales', 'must be a non-empty array');
  const locales: Locale[] = raw.map((entry: unknown, i) => {
    const code = typeof entry === 'string' ? entry : (entry as { code?: unknown })?.code;
    if (!isLocaleCode(code)) {
      throw new ConfigError(
        'config/plugins',
        `i18n.config.locales[${i}]`,
        'needs a locale code such as "en" or "fr-CA"',
      );
    }
    const name =
      typeof entry === 'object' && entry && typeof (entry as { name?: unknown }).name === 'string'
        ? (entry as { name: string }).name
        : code;
    return { code, name };
  });
  const defaultLocale = plugin.config.defaultLocale ?? locales[0]!.code;
  if (typeof defaultLocale !== 'string' || !locales.some((l) => l.code === defaultLocale)) {
    throw new ConfigError(
      'config/plugins',
      'i18n.config.defaultLocale',
      `must be one of the configured locales (${locales.map((l) => l.code).join(', ')})`,
    );
  }
  return { defaultLocale, locales };
}

export const i18nPlugin: Plugin = {
  name: 'i18n',
  // the locales live in config/plugins here; the type exists so schemas relating to it load
  contentTypes: () => [
    pluginCollectionType({
      uid: I18N_LOCALE_UID,
      source: 'plugin i18n (built in)',
      collectionName: 'i18n_locale',
      singularName: 'locale',
      pluralName: 'locales',
      displayName: 'Locale',
      attributes: {
        name: { type: 'string', min: 1, max: 50, configurable: false },
        code: { type: 'string', unique: true, configurable: false },
      },
      hidden: true,
    }),
  ],
  register(context) {
    const { router, i18n } = context;
    localizationRoutes(context, router);
    if (i18n) {
      localeRows(i18n); // stamped at start-up
      context.setService('locales', createLocalesService(i18n));
    }
    router.get('/i18n/locales', (req, res) => {
      if (!requestAuth(req).ability.can(LIST_LOCALES_ACTION)) throw new ForbiddenError();
      const rows = i18n ? localeRows(i18n) : [];
      res.json(rows.map((row) => ({ ...row, isDefault: row.code === i18n?.defaultLocale })));
    });
  },
};

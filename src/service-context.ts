import type { Connection } from 'mongoose';
import type { Authenticator } from './access/ability.js';
import type { ServiceConfig } from './config/index.js';
import type { Registry } from './content-types/index.js';
import type { Logger } from './logger.js';
import type { Models } from './models/index.js';

export interface Locale {
  code: string;
  name: string;
}

export interface I18nSettings {
  defaultLocale: string;
  locales: Locale[];
}

/** Everything a request handler or an operation needs, built once by createServer (no globals). */
export interface ServiceContext {
  config: ServiceConfig;
  registry: Registry;
  models: Models;
  connection: Connection;
  logger: Logger;
  /** null when the i18n plugin is off */
  i18n: I18nSettings | null;
  authenticate: Authenticator;
}

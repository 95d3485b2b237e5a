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

/** What one write's before- and after-hooks share: each subscriber's `event.state`. */
export type LifecycleStates = Map<unknown, Record<string, unknown>>;

/** The properties of a lifecycle event besides action, model and state. */
export interface LifecycleEventProperties {
  params: Record<string, unknown>;
  result?: unknown;
}

/**
 * The app's database lifecycle hooks (Strapi v4's `strapi.db.lifecycles`: its content-types'
 * `lifecycles` files and what register/bootstrap subscribed), as the write path runs them.
 */
export interface DbLifecycles {
  /** whether any hook listens to `action` (`beforeCreate`, `afterDelete`...) of `uid` */
  listens(action: string, uid: string): boolean;
  /** runs every hook of `action` on `uid` in order, awaiting each; answers the states to hand the after-hook */
  run(
    action: string,
    uid: string,
    properties: LifecycleEventProperties,
    states?: LifecycleStates,
  ): Promise<LifecycleStates>;
}

/**
 * A private upload provider's signing of a populated file as read (its `url` and its formats'
 * replaced by signed addresses before the answer is formatted; files of other providers unchanged).
 */
export type MediaUrlSigner = (file: Record<string, unknown>) => Promise<void>;

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
  /** the hooks every write runs (none unless the app has some) */
  lifecycles: DbLifecycles;
  /** the upload provider's signer when it keeps files private (set by the upload plugin) */
  mediaUrlSigner?(): MediaUrlSigner | undefined;
  /** the users-permissions actions of the app's own controller actions (`api::<api>.<controller>.<action>`) */
  appControllerActions?(): string[];
}

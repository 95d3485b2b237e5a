import type { Connection } from 'mongoose';
import type { CredentialsEpoch } from './database/credentials-epoch.js';
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

/** Strapi's webhook events of the content API: what Strapi's entity service, content manager and upload plugin emit. */
export type EntryEventName = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish';
export type MediaEventName = 'media.create' | 'media.update' | 'media.delete';

/**
 * Where the writes tell what they did (Strapi's `strapi.eventHub`, which the app's listeners and
 * the webhooks hear). Neither call waits for a listener or throws: the write's answer never waits.
 */
export interface ContentEvents {
  /** whether anyone may hear `event` (a write reads what an event carries only then) */
  hears(event: EntryEventName | MediaEventName): boolean;
  /** an entry of `uid` was written; `entry` is flat, as Strapi's entity service gives it */
  entry(event: EntryEventName, uid: string, entry: Record<string, unknown>): void;
  /** a file of the upload plugin was written; `file` is its record */
  media(event: MediaEventName, file: Record<string, unknown>): void;
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
  /** the hooks every write runs (none unless the app has some) */
  lifecycles: DbLifecycles;
  /** what cached credentials (API tokens, roles) are checked against, shared by every instance */
  credentials: CredentialsEpoch;
  /** the upload provider's signer when it keeps files private (set by the upload plugin) */
  mediaUrlSigner?(): MediaUrlSigner | undefined;
  /** the writes' events (absent: nobody hears them, as in the app code's `db.query`) */
  events?: ContentEvents;
  /** the users-permissions actions of the app's own controller actions (`api::<api>.<controller>.<action>`) */
  appControllerActions?(): string[];
  /** a built-in plugin's service as the app replaced or wrapped it (`plugin.services.user = …`); undefined where it did not */
  appPluginService?(plugin: string, name: string): unknown;
  /**
   * `data` of a GraphQL create or update of `uid` through the app's `content-api.input`
   * sanitizers (`strapi.sanitizers`), after the built-in input sanitizing, as Strapi's GraphQL
   * mutations run them (`access`: what the caller may read, whose relations it may write);
   * unchanged while none is registered (absent: the app has no code)
   */
  sanitizeAppInput?(uid: string, data: unknown, access: { canRead(uid: string): boolean }): Promise<unknown>;
}

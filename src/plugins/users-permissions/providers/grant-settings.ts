/**
 * The providers' settings Strapi 4.26 keeps in its core store (`strapi.store({ type: 'plugin',
 * name: 'users-permissions' })`, key `grant`): per provider `enabled`, `icon`, `key`, `secret`,
 * `callback` (the front end's page the connect flow ends on), `scope`, and any of grant's
 * (`authorize_url`, `access_url`, `oauth`, `subdomain`, `custom_params`, `state`...). Strapi's admin
 * edits them; here the app's bootstrap does (`store.set`), or `config/plugins`
 * `users-permissions.config.providers`, merged over them at every start.
 */
import { isDeepStrictEqual } from 'node:util';
import lodash from 'lodash';
import { ApplicationError } from '../../../errors/index.js';
import type { ServiceContext } from '../../../service-context.js';
import { CORE_STORE_COLLECTION } from '../advanced-settings.js';
import type { ProvidersRegistry } from './registry.js';

const GRANT_KEY = 'plugin_users-permissions_grant';

export type GrantSettings = Record<string, Record<string, unknown>>;

interface StoreDocument {
  key: string;
  environment: string | null;
  tag: string | null;
  value: unknown;
}

const filter = { key: GRANT_KEY, environment: null, tag: null };
const settings = (ctx: Pick<ServiceContext, 'connection'>) =>
  ctx.connection.collection<StoreDocument>(CORE_STORE_COLLECTION);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The stored settings (`{}` before the first start wrote them). */
export async function grantSettings(ctx: Pick<ServiceContext, 'connection'>): Promise<GrantSettings> {
  const found = await settings(ctx).findOne(filter);
  const value = found?.value;
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1])),
  );
}

/**
 * Strapi's bootstrap (`initGrant`): every provider of the registry (the app's included) as
 * `{ icon, enabled, ...grantConfig }`, what is stored merged over it (so what was configured
 * stays), written when it differs; then `configured` (the config file's) over that.
 */
export async function initGrantSettings(
  ctx: Pick<ServiceContext, 'connection'>,
  registry: ProvidersRegistry,
  configured: GrantSettings,
): Promise<void> {
  const fromRegistry: GrantSettings = Object.fromEntries(
    Object.entries(registry.getAll()).map(([name, { icon, enabled, grantConfig }]) => [
      name,
      { icon, enabled, ...grantConfig },
    ]),
  );
  const stored = await grantSettings(ctx);
  const merged: GrantSettings = { ...fromRegistry };
  for (const name of Object.keys(merged)) if (stored[name]) merged[name] = lodash.merge({}, merged[name], stored[name]);
  for (const [name, values] of Object.entries(configured)) merged[name] = { ...merged[name], ...values };
  // JSON's view: undefined members (an app provider without an icon) are not stored
  const value = JSON.parse(JSON.stringify(merged)) as GrantSettings;
  if (isDeepStrictEqual(value, stored)) return;
  await settings(ctx).updateOne(filter, { $set: { ...filter, value } }, { upsert: true });
}

/**
 * The grant settings, once `provider` (`local` is the `email` entry) is known to be enabled;
 * Strapi's `This provider is disabled` otherwise.
 */
export async function enabledProvider(
  rt: { ctx: Pick<ServiceContext, 'connection'> },
  provider: string,
): Promise<GrantSettings> {
  const grant = await grantSettings(rt.ctx);
  const name = provider === 'local' ? 'email' : provider;
  if (!Object.hasOwn(grant, name) || !grant[name]?.enabled) throw new ApplicationError('This provider is disabled');
  return grant;
}

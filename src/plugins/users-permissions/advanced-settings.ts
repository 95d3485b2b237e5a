/**
 * The users-permissions "advanced settings" Strapi v4 keeps in its core store
 * (`strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })`): an app's
 * bootstrap may change them there, and register reads them on every call as Strapi does. Until an
 * app writes them, Strapi's defaults apply (and the store answers them).
 */
import type { ServiceContext } from '../../service-context.js';

/** Strapi's core store collection (`strapi.store`): `{ key, environment, tag, value }` documents. */
export const CORE_STORE_COLLECTION = 'strapi_core_store_settings';

const ADVANCED_KEY = 'plugin_users-permissions_advanced';

export interface AdvancedSettings {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  email_reset_password: string | null;
  email_confirmation_redirection: string | null;
  default_role: string;
}

const DEFAULT_ADVANCED: AdvancedSettings = {
  unique_email: true,
  allow_register: true,
  email_confirmation: false,
  email_reset_password: null,
  email_confirmation_redirection: null,
  default_role: 'authenticated',
};

/** What the core store answers for the advanced settings until somebody writes them (Strapi writes them at its first start). */
export const ADVANCED_STORE_DEFAULTS: Readonly<Record<string, unknown>> = { [ADVANCED_KEY]: DEFAULT_ADVANCED };

/** The advanced settings as stored (environment and tag unset, as Strapi's plugin store keeps them), over the defaults. */
export async function advancedSettings(ctx: Pick<ServiceContext, 'connection'>): Promise<AdvancedSettings> {
  const found = await ctx.connection
    .collection<{ key: string; environment: string | null; tag: string | null; value: unknown }>(CORE_STORE_COLLECTION)
    .findOne({ key: ADVANCED_KEY, environment: null, tag: null });
  const value = found?.value;
  return value !== null && typeof value === 'object' ? { ...DEFAULT_ADVANCED, ...value } : DEFAULT_ADVANCED;
}

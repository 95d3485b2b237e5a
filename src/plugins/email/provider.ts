/**
 * The e-mail provider a Strapi v4 app configures (`plugins.email.config.provider`), loaded from the
 * app's own dependencies as Strapi loads it: `@strapi/provider-email-<name>`, else the package
 * `<name>` itself; `init(providerOptions, settings)` gives the object whose `send(options)` mails.
 */
import { ConfigError, type ServiceConfig } from '../../config/index.js';
import { requireProvider } from '../provider-packages.js';

/** What a message may carry (the provider reads what it supports). */
export type EmailOptions = Record<string, unknown> & { to?: unknown; subject?: unknown };

export interface EmailProvider {
  send(options: EmailOptions): Promise<unknown>;
  /** what the package's `init` gave, which Strapi keeps as `strapi.plugin('email').provider` */
  readonly instance: object;
}

export interface EmailSettings {
  /** as configured: `sendmail` (Strapi's default), `nodemailer`, `sendgrid`, a package name... */
  provider: string;
  providerOptions: Record<string, unknown>;
  settings: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `plugins.email.config`, with Strapi's defaults; a value of the wrong shape stops start-up. */
export function emailSettings(config: ServiceConfig): EmailSettings {
  const raw = config.plugins.email?.config ?? {};
  const file = config.fileOf('plugins', 'email.config');
  const { provider = 'sendmail', providerOptions = {}, settings = {} } = raw;
  if (typeof provider !== 'string' || provider === '')
    throw new ConfigError(file, 'email.config.provider', 'must be the name of an e-mail provider package');
  if (!isRecord(providerOptions)) throw new ConfigError(file, 'email.config.providerOptions', 'must be an object');
  if (!isRecord(settings)) throw new ConfigError(file, 'email.config.settings', 'must be an object');
  return {
    provider,
    providerOptions,
    settings: { defaultFrom: 'Strapi <no-reply@strapi.io>', ...settings },
  };
}

/** The provider the app installed; undefined when none of its package names is installed in the app. */
export function loadEmailProvider(config: ServiceConfig, settings: EmailSettings): EmailProvider | undefined {
  const found = requireProvider(config.appDir, 'email', settings.provider);
  if (found === undefined) return undefined;
  const file = config.fileOf('plugins', 'email.config.provider');
  const init = found.module.init;
  if (typeof init !== 'function')
    throw new ConfigError(
      file,
      'email.config.provider',
      `${found.file} is not an e-mail provider (it has no init function)`,
    );
  // called on the package, as Strapi does: @strapi/provider-email-mailgun's init reads `this.convertProviderOptions`
  const provider: unknown = Reflect.apply(init, found.module, [settings.providerOptions, settings.settings]);
  const send = isRecord(provider) ? provider.send : undefined;
  if (!isRecord(provider) || typeof send !== 'function')
    throw new ConfigError(file, 'email.config.provider', `${found.file}: init() gave no send(options) function`);
  return { send: async (options) => Reflect.apply(send, provider, [options]) as unknown, instance: provider };
}

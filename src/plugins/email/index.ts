/**
 * Strapi v4's e-mail plugin: `strapi.plugin('email').service('email')` (also
 * `strapi.plugins.email.services.email`) with `send(options)`, `sendTemplatedEmail(options,
 * template, data)` and `getProviderSettings()`, sending through the provider the app installed
 * (`provider.ts`). Without it: outside production the message is written to the log (a warning at
 * start-up names the package to install); in production a provider that is not installed stops
 * start-up, and Strapi's default `sendmail` (which needs a mail server on the machine) warns on each
 * message that it was not sent.
 */
import template from 'lodash/template.js';
import { ConfigError, type ServiceConfig } from '../../config/index.js';
import { ApplicationError, ForbiddenError, ValidationError } from '../../errors/index.js';
import { requestAuth } from '../../operations/request-context.js';
import { isPlainObject } from '../../write/index.js';
import type { Logger } from '../../logger.js';
import type { ServiceContext } from '../../service-context.js';
import type { Plugin } from '../types.js';
import { emailSettings, loadEmailProvider, type EmailOptions, type EmailProvider } from './provider.js';
import { notInstalled } from '../provider-packages.js';

export interface EmailService {
  send(options: EmailOptions): Promise<unknown>;
  sendTemplatedEmail(
    options: EmailOptions,
    emailTemplate: { subject?: string; text?: string; html?: string },
    data?: Record<string, unknown>,
  ): Promise<unknown>;
  getProviderSettings(): {
    provider: string;
    providerOptions: Record<string, unknown>;
    settings: Record<string, unknown>;
  };
  /** `strapi.plugin('email').provider`: the provider's own object (`send`...), which plugins such as strapi-plugin-email-designer call */
  readonly provider: object;
}

const TEMPLATED = ['subject', 'text', 'html'] as const;

function bodyObject(body: unknown): EmailOptions {
  if (!isPlainObject(body)) throw new ValidationError('Request body must be a JSON object');
  return body;
}

/** Messages written to the log instead of sent (development, tests). */
function logTransport(config: ServiceConfig, logger: Logger, defaults: Record<string, unknown>): EmailProvider {
  const transport = {
    async send(options: EmailOptions) {
      const message = { from: defaults.defaultFrom, replyTo: defaults.defaultReplyTo, ...options };
      if (config.env === 'production')
        logger.warn(
          `e-mail to ${String(options.to)} not sent: no e-mail provider is installed (config/plugins email.config.provider)`,
        );
      else logger.info({ mail: message }, 'e-mail (written to the log: no e-mail provider is installed)');
      return undefined;
    },
  };
  return { send: transport.send, instance: transport };
}

function providerOf(config: ServiceConfig, logger: Logger): EmailProvider {
  const settings = emailSettings(config);
  const loaded = loadEmailProvider(config, settings);
  if (loaded) return loaded;
  const file = config.fileOf('plugins', 'email.config.provider');
  if (settings.provider !== 'sendmail') {
    const missing = notInstalled('email', settings.provider);
    if (config.env === 'production') throw new ConfigError(file, 'email.config.provider', missing);
    logger.warn(`${file}: ${missing}; until then e-mails are written to the log`);
  }
  return logTransport(config, logger, settings.settings);
}

export function createEmailService(config: ServiceConfig, logger: Logger): EmailService {
  const provider = providerOf(config, logger);
  return {
    send: (options) => provider.send(options),
    async sendTemplatedEmail(options = {}, emailTemplate = {}, data = {}) {
      const missing = TEMPLATED.filter((key) => !Object.hasOwn(emailTemplate, key));
      if (missing.length > 0)
        throw new Error(`Following attributes are missing from your email template : ${missing.join(', ')}`);
      const compiled: Record<string, string> = {};
      for (const key of TEMPLATED) {
        const text = emailTemplate[key];
        if (text) compiled[key] = template(text)(data);
      }
      return provider.send({ ...options, ...compiled });
    },
    getProviderSettings: () => emailSettings(config),
    provider: provider.instance,
  };
}

/** The e-mail service of each running service, keyed by its models (for the other plugins' mails). */
const services = new WeakMap<object, EmailService>();

/** The e-mail plugin's service of a running service; undefined when the plugin is off. */
export function emailServiceOf(ctx: Pick<ServiceContext, 'models'>): EmailService | undefined {
  return services.get(ctx.models);
}

/** `POST /api/email`'s permission (Strapi's content-API action of the plugin). */
export const EMAIL_SEND_ACTION = 'plugin::email.email.send';

/** What a provider's failure is answered with, as Strapi's `email.send` action: its 400s say why, the rest is a 500. */
function sendFailure(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? error.statusCode : undefined;
  return status === 400 ? new ApplicationError(message) : new Error(`Couldn't send email: ${message}.`);
}

export const emailPlugin: Plugin = {
  name: 'email',
  checkConfig(config) {
    emailSettings(config);
  },
  register(ctx) {
    const service = createEmailService(ctx.config, ctx.logger);
    services.set(ctx.models, service);
    ctx.setService('email', service);
    // Strapi's content-API route: the request body is the message, sent as it is
    ctx.serveRoutes([
      {
        method: 'POST',
        path: '/',
        handler: 'email.send',
        run: async (req, res) => {
          if (!requestAuth(req).ability.can(EMAIL_SEND_ACTION)) throw new ForbiddenError();
          await service.send(bodyObject(req.body)).catch((error: unknown) => {
            throw sendFailure(error);
          });
          res.json({});
        },
      },
    ]);
  },
};

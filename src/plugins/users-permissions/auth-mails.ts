/**
 * The users-permissions e-mails of Strapi v4 (account confirmation, reset password): their
 * templates are the store's `email` settings (`strapi.store({ type: 'plugin', name:
 * 'users-permissions' }).get({ key: 'email' })`, Strapi's defaults until an app writes them), their
 * variables Strapi's (`URL`, `SERVER_URL`, `ADMIN_URL`, `USER.*`, `CODE` or `TOKEN`, and `USER.*` in
 * the subject), and they are sent through the e-mail plugin's provider.
 */
import template from 'lodash/template.js';
import { ApplicationError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { CORE_STORE_COLLECTION } from './advanced-settings.js';

const EMAIL_KEY = 'plugin_users-permissions_email';

export type AuthMailKind = 'reset_password' | 'email_confirmation';

interface MailTemplate {
  from: { name?: string; email?: string };
  response_email: string;
  object: string;
  message: string;
}

type StoredTemplates = Record<AuthMailKind, { display: string; icon: string; options: MailTemplate }>;

const FROM = { name: 'Administration Panel', email: 'no-reply@strapi.io' };

/** Strapi's templates, as its first start writes them to the store. */
export const DEFAULT_AUTH_MAILS: StoredTemplates = {
  reset_password: {
    display: 'Email.template.reset_password',
    icon: 'sync',
    options: {
      from: FROM,
      response_email: '',
      object: 'Reset password',
      message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: FROM,
      response_email: '',
      object: 'Account confirmation',
      message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
    },
  },
};

export const AUTH_MAILS_STORE_DEFAULTS: Readonly<Record<string, unknown>> = { [EMAIL_KEY]: DEFAULT_AUTH_MAILS };

/** Sends one message through the e-mail plugin (its `send(options)`). */
export type MailSender = (options: Record<string, unknown>) => Promise<unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

async function storedTemplate(ctx: Pick<ServiceContext, 'connection'>, kind: AuthMailKind): Promise<MailTemplate> {
  const found = await ctx.connection
    .collection<{ key: string; environment: string | null; tag: string | null; value: unknown }>(CORE_STORE_COLLECTION)
    .findOne({ key: EMAIL_KEY, environment: null, tag: null });
  const entry = isRecord(found?.value) ? found.value[kind] : undefined;
  const options = isRecord(entry) && isRecord(entry.options) ? entry.options : {};
  const fallback = DEFAULT_AUTH_MAILS[kind].options;
  return {
    from: isRecord(options.from) ? options.from : fallback.from,
    response_email: typeof options.response_email === 'string' ? options.response_email : fallback.response_email,
    object: typeof options.object === 'string' ? options.object : fallback.object,
    message: typeof options.message === 'string' ? options.message : fallback.message,
  };
}

/** `USER.username`, `URL`...: the leaf paths of the data, the only names a template may interpolate. */
function leafPaths(value: unknown, path: string[] = []): string[] {
  if (!isRecord(value)) return [path.join('.')];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, [...path, key]));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// a group that never matches (lodash counts the groups of its delimiters)
const NEVER = /($^)/;

/**
 * Strapi's strict template: only `<%= NAME %>` of the data's leaf paths is replaced; code blocks
 * and escapes are not run. A template lodash cannot compile is Strapi's "Invalid email template".
 */
export function renderAuthTemplate(layout: string, data: Record<string, unknown>): string {
  const names = leafPaths(data).map(escapeRegExp).join('|');
  try {
    return template(layout, {
      interpolate: new RegExp(`<%=\\s*(${names})\\s*%>`, 'g'),
      evaluate: NEVER,
      escape: NEVER,
    })(data);
  } catch {
    throw new ApplicationError('Invalid email template');
  }
}

/** The server's absolute URL, as Strapi builds the links (`server.url`, else host and port). */
export function serverUrl(ctx: Pick<ServiceContext, 'config'>): string {
  const { url, host, port } = ctx.config.server;
  if (url && /^https?:\/\//.test(url)) return url.replace(/\/$/, '');
  return `http://${host}:${port}${url ?? ''}`.replace(/\/$/, '');
}

/**
 * Renders the store's `kind` template with `variables` (plus `SERVER_URL`, `ADMIN_URL`, `USER`)
 * and sends it to `to` through `send`. The `from` header is the template's
 * `name <email>` (the confirmation needs both, the reset either, as in Strapi).
 */
export async function sendAuthMail(
  ctx: Pick<ServiceContext, 'connection' | 'config'>,
  send: MailSender,
  kind: AuthMailKind,
  to: string,
  user: Record<string, unknown>,
  variables: Record<string, unknown>,
): Promise<void> {
  const settings = await storedTemplate(ctx, kind);
  const base = serverUrl(ctx);
  const data = { ...variables, SERVER_URL: base, ADMIN_URL: `${base}/admin`, USER: user };
  const message = renderAuthTemplate(settings.message, data);
  const subject = renderAuthTemplate(settings.object, { USER: user });
  const { name, email } = settings.from;
  const named = kind === 'email_confirmation' ? Boolean(name && email) : Boolean(name || email);
  await send({
    to,
    from: named ? `${name} <${email}>` : undefined,
    replyTo: settings.response_email,
    subject,
    text: message,
    html: message,
  });
}

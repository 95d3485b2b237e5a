/**
 * `GET /connect/<provider>` and `/connect/<provider>/callback`: the OAuth 2 authorization-code
 * flow Strapi 4.26 runs through `grant`. The first redirects the browser to the provider's
 * authorization page (`client_id` = `key`, `redirect_uri` = `<server>/<prefix>/connect/<provider>/callback`,
 * `scope`, `state`); the provider sends it back to the second, which exchanges the code for tokens
 * (`secret`) and redirects to the provider's `callback` setting (the front end) with
 * `access_token`, `refresh_token`, `id_token` and `raw[...]` (the token answer), or `error`.
 * Between the two legs the provider, the state and a `?callback=` override travel in a cookie
 * signed with the JWT secret (grant keeps them in Strapi's session cookie).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { PluginAnswer } from '../../types.js';
import qs from 'qs';
import { ValidationError } from '../../../errors/index.js';
import type { UsersPermissionsRuntime } from '../runtime.js';
import { serverUrl } from '../auth-mails.js';
import { OAUTH_ENDPOINTS } from './oauth-endpoints.js';
import { enabledProvider } from './grant-settings.js';
import { joinUrl } from './registry.js';

const COOKIE = 'up_grant';
const COOKIE_MAX_AGE_S = 10 * 60;
const TOKEN_TIMEOUT_MS = 10_000;

interface FlowState {
  provider: string;
  state: string;
  callback?: string;
  expires: number;
}

type Output = Record<string, unknown>;

function sign(rt: UsersPermissionsRuntime, payload: string): string {
  return createHmac('sha256', rt.secrets.jwtSecret).update(`grant:${payload}`).digest('base64url');
}

function readFlowState(rt: UsersPermissionsRuntime, req: Request): FlowState | undefined {
  const raw = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  const [payload = '', signature = ''] = (raw ?? '').split('.');
  const expected = Buffer.from(sign(rt, payload));
  const given = Buffer.from(signature);
  if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FlowState;
    return typeof state.expires === 'number' && state.expires > Date.now() ? state : undefined;
  } catch {
    return undefined;
  }
}

function writeFlowState(rt: UsersPermissionsRuntime, req: Request, res: PluginAnswer, state: FlowState | null): void {
  const attributes = [`Path=${rt.ctx.config.api.rest.prefix}/connect`, 'HttpOnly', 'SameSite=Lax'];
  if (req.secure) attributes.push('Secure');
  if (!state) {
    res.setHeader('Set-Cookie', [`${COOKIE}=`, ...attributes, 'Max-Age=0'].join('; '));
    return;
  }
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  res.setHeader(
    'Set-Cookie',
    [`${COOKIE}=${payload}.${sign(rt, payload)}`, ...attributes, `Max-Age=${COOKIE_MAX_AGE_S}`].join('; '),
  );
}

/**
 * Strapi's default `callback.validate` (the plugin config's, which an app may replace): the
 * override must have the origin and path of the provider's `callback` (its query may differ).
 */
function defaultValidate(callback: string, provider: Record<string, unknown>): void {
  const given = new URL(callback);
  const configured = new URL(String(provider.callback));
  if (given.origin !== configured.origin) throw new Error("Forbidden callback provided: origins don't match");
  if (given.pathname !== configured.pathname) throw new Error("Forbidden callback provided: pathname don't match");
}

async function checkedCallback(
  rt: UsersPermissionsRuntime,
  callback: unknown,
  provider: Record<string, unknown>,
): Promise<string> {
  const configured = rt.ctx.config.plugins['users-permissions']?.config?.callback;
  const validate: unknown =
    configured !== null && typeof configured === 'object' ? Reflect.get(configured, 'validate') : undefined;
  try {
    if (typeof callback !== 'string') throw new Error('not a string');
    await (typeof validate === 'function' ? validate(callback, provider) : defaultValidate(callback, provider));
    return callback;
  } catch {
    throw new ValidationError('Invalid callback URL provided', { callback });
  }
}

const scopeOf = (provider: Record<string, unknown>): string | undefined => {
  const { scope } = provider;
  const delimiter = typeof provider.scope_delimiter === 'string' ? provider.scope_delimiter : ',';
  if (Array.isArray(scope)) return scope.filter(Boolean).join(delimiter) || undefined;
  return typeof scope === 'string' && scope !== '' ? scope : undefined;
};

const withSubdomain = (url: unknown, provider: Record<string, unknown>): string =>
  String(url).replace('[subdomain]', String(provider.subdomain ?? ''));

/** Where the flow ends: the front end's `callback` (`/` without one), the output in its query. */
function finish(res: PluginAnswer, provider: Record<string, unknown>, output: Output): void {
  const callback = typeof provider.callback === 'string' && provider.callback !== '' ? provider.callback : '/';
  res.redirect(`${callback}?${qs.stringify(output)}`);
}

/** The token request of grant's OAuth 2 flow; the token answer, or `{ error }`. */
async function exchangeCode(provider: Record<string, unknown>, code: string, redirectUri: string): Promise<Output> {
  const key = String(provider.key ?? '');
  const secret = String(provider.secret ?? '');
  const basic = provider.token_endpoint_auth_method === 'client_secret_basic' || provider.name === 'reddit';
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    ...(basic ? {} : { client_id: key, client_secret: secret }),
    redirect_uri: redirectUri,
  });
  try {
    const res = await fetch(withSubdomain(provider.access_url, provider), {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        ...(basic ? { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` } : {}),
      },
      body: form,
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = /=/.test(text) ? qs.parse(text) : text;
    }
    if (res.status >= 400) return { error: body || `${res.status} ${res.statusText}` };
    if (body === null || typeof body !== 'object') return { raw: body };
    const answer = body as Output;
    const tokens = Object.fromEntries(
      ['id_token', 'access_token', 'refresh_token'].filter((name) => answer[name]).map((name) => [name, answer[name]]),
    );
    return { ...tokens, raw: answer };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** One route for both legs (Strapi's `/connect/(.*)`, action `auth.connect`). */
export async function connect(
  rt: UsersPermissionsRuntime,
  req: Request,
  res: PluginAnswer,
  leg: 'authorize' | 'callback',
): Promise<void> {
  const name = String(req.params.provider);
  const callbackLeg = leg === 'callback';
  const settings = (await enabledProvider(rt, name))[name];
  if (!/^https?:\/\//.test(rt.ctx.config.server.url ?? ''))
    rt.ctx.logger.warn(
      'You are using a third party provider for login. Make sure to set an absolute url in config/server (url), where the provider sends the browser back',
    );
  const flow = callbackLeg ? readFlowState(rt, req) : undefined;
  const given: unknown = callbackLeg ? flow?.callback : req.query.callback;
  const provider: Record<string, unknown> = { ...OAUTH_ENDPOINTS[name], ...settings, name };
  if (given !== undefined) provider.callback = await checkedCallback(rt, given, provider);
  const redirectUri = joinUrl(serverUrl(rt.ctx), rt.ctx.config.api.rest.prefix, 'connect', name, 'callback');

  if (!callbackLeg) {
    if (Number(provider.oauth) !== 2 || !provider.authorize_url)
      return finish(res, provider, { error: 'Grant: missing or misconfigured provider' });
    const state =
      typeof provider.state === 'string' && provider.state !== '' ? provider.state : randomBytes(20).toString('hex');
    const customParams =
      provider.custom_params !== null && typeof provider.custom_params === 'object' ? provider.custom_params : {};
    const query = qs.stringify({
      client_id: provider.key,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: scopeOf(provider),
      state,
      ...customParams,
    });
    writeFlowState(rt, req, res, {
      provider: name,
      state,
      ...(typeof given === 'string' ? { callback: provider.callback as string } : {}),
      expires: Date.now() + COOKIE_MAX_AGE_S * 1000,
    });
    res.redirect(`${withSubdomain(provider.authorize_url, provider)}?${query}`);
    return;
  }

  writeFlowState(rt, req, res, null);
  const query = req.query as Record<string, unknown>;
  if (!flow || flow.provider !== name || Number(provider.oauth) !== 2 || !provider.access_url)
    return finish(res, provider, { error: 'Grant: missing session or misconfigured provider' });
  if (typeof query.code !== 'string' || query.code === '')
    return finish(
      res,
      provider,
      Object.keys(query).length > 0 ? query : { error: 'Grant: OAuth2 missing code parameter' },
    );
  if (query.state !== flow.state) return finish(res, provider, { error: 'Grant: OAuth2 state mismatch' });
  finish(res, provider, await exchangeCode(provider, query.code, redirectUri));
}

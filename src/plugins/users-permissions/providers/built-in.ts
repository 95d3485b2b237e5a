/**
 * The sign-in providers Strapi 4.26's users-permissions registers (`providers-registry.js`): each
 * one's icon, its grant settings (off, no key or secret until configured) and its `authCallback`,
 * which reads `{ username, email }` from the provider's API with the access token the front end
 * got through `/connect/<provider>`. The addresses and fields are Strapi's (purest's provider
 * table); twitter's API needs OAuth 1.0a signatures, which this service does not make.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import jsonwebtoken from 'jsonwebtoken';
import type { AuthCallbackArgs, AuthProvider } from './registry.js';
import { field, getProfileJson } from './profile-request.js';

interface Profile {
  username: unknown;
  email: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const token = (args: AuthCallbackArgs): string => String(args.accessToken ?? '');
/** a provider's own setting from the grant settings (`subdomain`, `key`, `jwksurl`) */
const setting = (args: AuthCallbackArgs, provider: string, name: string): string =>
  String(field(args.providers, provider, name) ?? '');

async function github(args: AuthCallbackArgs): Promise<Profile> {
  const headers = { 'user-agent': 'strapi' };
  const user = await getProfileJson({ url: 'https://api.github.com/user', bearer: token(args), headers });
  // the public e-mail of the profile, else the primary one of the account's addresses
  if (field(user, 'email')) return { username: field(user, 'login'), email: field(user, 'email') };
  const emails = await getProfileJson({ url: 'https://api.github.com/user/emails', bearer: token(args), headers });
  const primary = Array.isArray(emails) ? emails.find((e) => field(e, 'primary') === true) : undefined;
  return { username: field(user, 'login'), email: Array.isArray(emails) ? field(primary, 'email') : null };
}

async function linkedin(args: AuthCallbackArgs): Promise<Profile> {
  const me = await getProfileJson({ url: 'https://api.linkedin.com/v2/me', bearer: token(args) });
  const emails = await getProfileJson({
    url: 'https://api.linkedin.com/v2/emailAddress?q=members&projection=(elements*(handle~))',
    bearer: token(args),
  });
  return { username: field(me, 'localizedFirstName'), email: field(emails, 'elements', 0, 'handle~', 'emailAddress') };
}

/** Cognito's id token, checked against the user pool's keys (the `jwksurl` setting). */
async function cognito(args: AuthCallbackArgs): Promise<Profile> {
  const idToken = String(field(args.query, 'id_token') ?? '');
  const jwksUrl = new URL(setting(args, 'cognito', 'jwksurl'));
  const decoded = jsonwebtoken.decode(idToken, { complete: true });
  const kid = decoded?.header.kid;
  if (!decoded?.payload || !kid) throw new Error('The provided token is not valid');
  try {
    const keys = field(await getProfileJson({ url: `${jwksUrl.origin}${jwksUrl.pathname}` }), 'keys');
    const jwk = Array.isArray(keys) ? (keys as JsonWebKey[]).find((key) => key.kid === kid) : undefined;
    if (!jwk) throw new Error('no key');
    const payload = jsonwebtoken.verify(idToken, createPublicKey({ key: jwk, format: 'jwk' }), {
      algorithms: ['RS256'],
    });
    return { username: field(payload, 'cognito:username'), email: field(payload, 'email') };
  } catch {
    throw new Error('There was an error verifying the token');
  }
}

async function auth0(args: AuthCallbackArgs): Promise<Profile> {
  const url = `https://${setting(args, 'auth0', 'subdomain')}.auth0.com/userinfo`;
  const body = await getProfileJson({ url, bearer: token(args) });
  const email = text(field(body, 'email'));
  const username =
    text(field(body, 'username')) || text(field(body, 'nickname')) || text(field(body, 'name')) || email?.split('@')[0];
  return { username, email: email || `${(username ?? '').replace(/\s+/g, '.')}@strapi.io` };
}

async function cas(args: AuthCallbackArgs): Promise<Profile> {
  const url = `https://${setting(args, 'cas', 'subdomain')}/oidc/profile`;
  const body = await getProfileJson({ url, bearer: token(args) });
  // CAS answers its attributes under `attributes` or flat, as it is configured
  const from = field(body, 'attributes') ? field(body, 'attributes') : body;
  const username = field(from, 'strapiusername') || field(body, 'id') || field(body, 'sub');
  return { username, email: field(from, 'strapiemail') || field(from, 'email') };
}

/** `{ username, email }` from one GET of the provider's API with the access token. */
const simple =
  (
    url: (args: AuthCallbackArgs) => string,
    profile: (body: unknown, args: AuthCallbackArgs) => Profile,
    options: { query?: Record<string, string>; headers?: Record<string, string> } = {},
  ) =>
  async (args: AuthCallbackArgs): Promise<Profile> =>
    profile(await getProfileJson({ url: url(args), bearer: token(args), ...options }), args);

const discordName = (body: unknown): unknown => {
  // a discriminator other than "0" is still part of the name
  const discriminator = field(body, 'discriminator');
  return discriminator && discriminator !== '0'
    ? `${String(field(body, 'username'))}#${String(discriminator)}`
    : field(body, 'username');
};

interface BuiltIn {
  icon: string;
  scope?: string[];
  /** Strapi names the front end's redirect `callback` for some providers, `callbackUrl` for others */
  callbackKey: 'callback' | 'callbackUrl';
  extra?: Record<string, string>;
  authCallback(args: AuthCallbackArgs): Promise<Profile>;
}

const BUILT_IN: Record<string, BuiltIn> = {
  discord: {
    icon: 'discord',
    callbackKey: 'callbackUrl',
    scope: ['identify', 'email'],
    authCallback: simple(
      () => 'https://discord.com/api/users/@me',
      (body) => ({ username: discordName(body), email: field(body, 'email') }),
    ),
  },
  facebook: {
    icon: 'facebook-square',
    callbackKey: 'callbackUrl',
    scope: ['email'],
    authCallback: simple(
      () => 'https://graph.facebook.com/me',
      (body) => ({ username: field(body, 'name'), email: field(body, 'email') }),
      { query: { fields: 'name,email' } },
    ),
  },
  google: {
    icon: 'google',
    callbackKey: 'callbackUrl',
    scope: ['email'],
    // the token's own information, as Strapi asks Google for it
    authCallback: async (args) => {
      const body = await getProfileJson({
        url: 'https://accounts.google.com/o/oauth2/tokeninfo',
        query: { accessToken: token(args) },
      });
      const email = text(field(body, 'email'));
      return { username: email?.split('@')[0], email };
    },
  },
  github: { icon: 'github', callbackKey: 'callbackUrl', scope: ['user', 'user:email'], authCallback: github },
  microsoft: {
    icon: 'windows',
    callbackKey: 'callbackUrl',
    scope: ['user.read'],
    authCallback: simple(
      () => 'https://graph.microsoft.com/v1.0/me',
      (body) => ({ username: field(body, 'userPrincipalName'), email: field(body, 'userPrincipalName') }),
    ),
  },
  twitter: {
    icon: 'twitter',
    callbackKey: 'callbackUrl',
    authCallback: () => Promise.reject(new Error('Twitter sign-in (OAuth 1.0a) is not supported by Content Service')),
  },
  instagram: {
    icon: 'instagram',
    callbackKey: 'callbackUrl',
    scope: ['user_profile'],
    authCallback: simple(
      () => 'https://graph.instagram.com/me',
      // Instagram gives no e-mail: Strapi makes one up
      (body) => ({ username: field(body, 'username'), email: `${String(field(body, 'username'))}@strapi.io` }),
      { query: { fields: 'id,username' } },
    ),
  },
  vk: {
    icon: 'vk',
    callbackKey: 'callbackUrl',
    scope: ['email'],
    authCallback: (args) =>
      simple(
        () => 'https://api.vk.com/method/users.get',
        (body) => ({
          username: `${String(field(body, 'response', 0, 'last_name'))} ${String(field(body, 'response', 0, 'first_name'))}`,
          email: field(args.query, 'raw', 'email'),
        }),
        { query: { id: String(field(args.query, 'raw', 'user_id') ?? ''), v: '5.122' } },
      )(args),
  },
  twitch: {
    icon: 'twitch',
    callbackKey: 'callbackUrl',
    scope: ['user:read:email'],
    authCallback: (args) =>
      simple(
        () => 'https://api.twitch.tv/helix/users',
        (body) => ({ username: field(body, 'data', 0, 'login'), email: field(body, 'data', 0, 'email') }),
        { headers: { 'Client-Id': setting(args, 'twitch', 'key') } },
      )(args),
  },
  linkedin: {
    icon: 'linkedin',
    callbackKey: 'callbackUrl',
    scope: ['r_liteprofile', 'r_emailaddress'],
    authCallback: linkedin,
  },
  cognito: {
    icon: 'aws',
    callbackKey: 'callback',
    extra: { subdomain: 'my.subdomain.com' },
    scope: ['email', 'openid', 'profile'],
    authCallback: cognito,
  },
  reddit: {
    icon: 'reddit',
    callbackKey: 'callback',
    scope: ['identity'],
    authCallback: simple(
      () => 'https://oauth.reddit.com/api/v1/me',
      // Reddit gives no e-mail: Strapi makes one up
      (body) => ({ username: field(body, 'name'), email: `${String(field(body, 'name'))}@strapi.io` }),
      { headers: { 'user-agent': 'strapi' } },
    ),
  },
  auth0: {
    icon: '',
    callbackKey: 'callback',
    extra: { subdomain: 'my-tenant.eu' },
    scope: ['openid', 'email', 'profile'],
    authCallback: auth0,
  },
  cas: {
    icon: 'book',
    callbackKey: 'callback',
    scope: ['openid email'],
    extra: { subdomain: 'my.subdomain.com/cas' },
    authCallback: cas,
  },
  patreon: {
    icon: '',
    callbackKey: 'callback',
    scope: ['identity', 'identity[email]'],
    authCallback: simple(
      () => 'https://www.patreon.com/api/oauth2/v2/identity',
      (body) => ({
        username: field(body, 'data', 'attributes', 'full_name'),
        email: field(body, 'data', 'attributes', 'email'),
      }),
      { query: { 'fields[user]': 'full_name,email' } },
    ),
  },
  keycloak: {
    icon: '',
    callbackKey: 'callback',
    extra: { subdomain: 'myKeycloakProvider.com/realms/myrealm' },
    scope: ['openid', 'email', 'profile'],
    authCallback: (args) =>
      simple(
        () => `https://${setting(args, 'keycloak', 'subdomain')}/protocol/openid-connect/userinfo`,
        (body) => ({ username: field(body, 'preferred_username'), email: field(body, 'email') }),
      )(args),
  },
};

/**
 * The built-in providers as Strapi's registry starts with them, in its order; `baseURL` is
 * `<server.url>/<api prefix>/auth`, where Strapi points each provider's front-end redirect.
 */
export function builtInProviders(baseURL: string): Record<string, AuthProvider> {
  return Object.fromEntries(
    Object.entries(BUILT_IN).map(([name, p]) => [
      name,
      {
        enabled: false,
        icon: p.icon,
        grantConfig: {
          key: '',
          secret: '',
          ...(p.callbackKey === 'callback' ? {} : { callbackUrl: `${baseURL}/${name}/callback` }),
          ...p.extra,
          ...(p.callbackKey === 'callback' ? { callback: `${baseURL}/${name}/callback` } : {}),
          ...(p.scope ? { scope: p.scope } : {}),
        },
        authCallback: p.authCallback,
      },
    ]),
  );
}

/**
 * The OAuth endpoints of Strapi's built-in providers, as `grant` knows them (its provider table):
 * where `/connect/<provider>` sends the browser, where the code is exchanged, how scopes are
 * joined. A provider's grant settings may set or override each (`authorize_url`, `access_url`,
 * `oauth`, `scope_delimiter`; `[subdomain]` is its `subdomain` setting), which is how an app's
 * own provider names them.
 */
export interface OAuthEndpoints {
  authorize_url: string;
  access_url: string;
  /** 2: OAuth 2 (1, twitter's OAuth 1.0a, is not run here) */
  oauth: 1 | 2;
  scope_delimiter?: string;
}

export const OAUTH_ENDPOINTS: Readonly<Record<string, OAuthEndpoints>> = {
  discord: {
    authorize_url: 'https://discord.com/api/oauth2/authorize',
    access_url: 'https://discord.com/api/oauth2/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  facebook: {
    authorize_url: 'https://www.facebook.com/dialog/oauth',
    access_url: 'https://graph.facebook.com/oauth/access_token',
    oauth: 2,
  },
  google: {
    authorize_url: 'https://accounts.google.com/o/oauth2/v2/auth',
    access_url: 'https://oauth2.googleapis.com/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  github: {
    authorize_url: 'https://github.com/login/oauth/authorize',
    access_url: 'https://github.com/login/oauth/access_token',
    oauth: 2,
  },
  microsoft: {
    authorize_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    access_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  twitter: {
    authorize_url: 'https://api.twitter.com/oauth/authenticate',
    access_url: 'https://api.twitter.com/oauth/access_token',
    oauth: 1,
  },
  instagram: {
    authorize_url: 'https://api.instagram.com/oauth/authorize',
    access_url: 'https://api.instagram.com/oauth/access_token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  vk: { authorize_url: 'https://oauth.vk.com/authorize', access_url: 'https://oauth.vk.com/access_token', oauth: 2 },
  twitch: {
    authorize_url: 'https://id.twitch.tv/oauth2/authorize',
    access_url: 'https://id.twitch.tv/oauth2/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  linkedin: {
    authorize_url: 'https://www.linkedin.com/oauth/v2/authorization',
    access_url: 'https://www.linkedin.com/oauth/v2/accessToken',
    oauth: 2,
    scope_delimiter: ' ',
  },
  cognito: {
    authorize_url: 'https://[subdomain]/oauth2/authorize',
    access_url: 'https://[subdomain]/oauth2/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  reddit: {
    authorize_url: 'https://ssl.reddit.com/api/v1/authorize',
    access_url: 'https://ssl.reddit.com/api/v1/access_token',
    oauth: 2,
  },
  auth0: {
    authorize_url: 'https://[subdomain].auth0.com/authorize',
    access_url: 'https://[subdomain].auth0.com/oauth/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  cas: { authorize_url: 'https://[subdomain]/oidc/authorize', access_url: 'https://[subdomain]/oidc/token', oauth: 2 },
  patreon: {
    authorize_url: 'https://www.patreon.com/oauth2/authorize',
    access_url: 'https://www.patreon.com/api/oauth2/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
  keycloak: {
    authorize_url: 'https://[subdomain]/protocol/openid-connect/auth',
    access_url: 'https://[subdomain]/protocol/openid-connect/token',
    oauth: 2,
    scope_delimiter: ' ',
  },
};

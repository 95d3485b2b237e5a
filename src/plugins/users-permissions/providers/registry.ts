/**
 * `strapi.plugin('users-permissions').service('providers-registry')` of Strapi 4.26: the sign-in
 * providers by name, the built-in ones first, where a project adds its own from `register`
 * (`add(name, { enabled, icon, grantConfig: { key, secret, callback, scope, authorize_url,
 * access_url, oauth }, authCallback })`). `run` calls a provider's `authCallback` for the profile.
 */
import { builtInProviders } from './built-in.js';

export interface AuthCallbackArgs {
  accessToken: unknown;
  /** the sign-in request's query (`access_token`, `raw[...]`, `id_token`...) */
  query: unknown;
  /** the grant settings of every provider (`strapi.store` key `grant`) */
  providers: unknown;
  /** Strapi hands its HTTP client `purest` here; this service has none (a provider uses `fetch`) */
  purest: undefined;
}

export interface AuthProvider {
  enabled?: boolean;
  icon?: string;
  grantConfig?: Record<string, unknown>;
  authCallback?(args: AuthCallbackArgs): unknown;
  [setting: string]: unknown;
}

export interface ProvidersRegistry {
  getAll(): Record<string, AuthProvider>;
  get(name: string): AuthProvider | undefined;
  add(name: string, provider: AuthProvider): void;
  remove(name: string): void;
  run(args: { provider: string; accessToken?: unknown; query?: unknown; providers?: unknown }): Promise<unknown>;
}

/** `baseURL`: `<server.url>/<api prefix>/auth`, the front-end redirect Strapi's defaults name. */
export function createProvidersRegistry(baseURL: string): ProvidersRegistry {
  const providers: Record<string, AuthProvider> = {
    email: { enabled: true, icon: 'envelope', grantConfig: {} },
    ...builtInProviders(baseURL),
  };
  return {
    getAll: () => providers,
    get: (name) => providers[name],
    add(name, provider) {
      providers[name] = provider;
    },
    remove(name) {
      Reflect.deleteProperty(providers, name);
    },
    async run({ provider, accessToken, query, providers: settings }) {
      const authProvider = Object.hasOwn(providers, provider) ? providers[provider] : undefined;
      if (!authProvider) throw new Error('Unknown auth provider');
      if (typeof authProvider.authCallback !== 'function')
        throw new Error(`The ${provider} provider has no authCallback`);
      return authProvider.authCallback({ accessToken, query, providers: settings, purest: undefined });
    },
  };
}

/** Joins URL parts as Strapi's `url-join` does here: `('', '/api', 'auth')` is `api/auth`. */
export function joinUrl(first: string, ...rest: string[]): string {
  const tail = rest.map((part) => part.replace(/^\/+|\/+$/g, '')).filter((part) => part !== '');
  return first ? [first.replace(/\/+$/, ''), ...tail].join('/') : tail.join('/');
}

/**
 * `strapi.plugin('users-permissions').service('providers-registry')` of Strapi 4.26: the login
 * providers by name, where a project adds its own OAuth provider from `register`
 * (`add(name, { enabled, icon, grantConfig: { key, secret, callback, scope }, authCallback })`).
 * It keeps what is added and `run` calls a provider's `authCallback`; the service itself signs
 * users in with `email` (the local provider) only, so its connect routes use none of them.
 */

export interface AuthProvider {
  enabled?: boolean;
  icon?: string;
  grantConfig?: Record<string, unknown>;
  authCallback?(args: { accessToken: unknown; query: unknown; providers: unknown; purest: undefined }): unknown;
  [setting: string]: unknown;
}

export interface ProvidersRegistry {
  getAll(): Record<string, AuthProvider>;
  get(name: string): AuthProvider | undefined;
  add(name: string, provider: AuthProvider): void;
  remove(name: string): void;
  run(args: { provider: string; accessToken?: unknown; query?: unknown; providers?: unknown }): Promise<unknown>;
}

export function createProvidersRegistry(): ProvidersRegistry {
  const providers: Record<string, AuthProvider> = { email: { enabled: true, icon: 'envelope', grantConfig: {} } };
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
      const authCallback = providers[provider]?.authCallback;
      if (typeof authCallback !== 'function') throw new Error(`Unknown auth provider: ${provider}`);
      // Strapi passes its HTTP client `purest`, which this service does not have
      return authCallback({ accessToken, query, providers: settings, purest: undefined });
    },
  };
}

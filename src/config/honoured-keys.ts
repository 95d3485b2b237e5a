/**
 * Which configuration keys Content Service uses, file by file. Everything else an app's `config/`
 * holds (Strapi features the service does not have: the admin panel, an SQL `connection`, cron,
 * webhooks, e-mail and upload providers, …) is accepted and reported once at start-up as ignored.
 * `true` marks a key whose whole value is used; a function, a key used only with such values.
 */
export type KeyTree = true | ((value: unknown) => boolean) | { readonly [key: string]: KeyTree };

export const HONOURED_KEYS: Readonly<Record<string, KeyTree>> = {
  server: { host: true, port: true, url: true, proxy: true, dirs: { public: true } },
  admin: { apiToken: { salt: true } },
  database: { uri: true, dataDir: true },
  api: {
    rest: {
      prefix: true,
      defaultLimit: true,
      maxLimit: true,
      withCount: true,
      maxPopulateDepth: true,
      timeBudgetMs: true,
      maxPopulateRelations: true,
    },
  },
  middlewares: true,
  permissions: true,
  // custom field uid → base type (src/content-types/custom-field-config.ts)
  'custom-fields': true,
  plugins: {
    i18n: { enabled: true, config: { locales: true, defaultLocale: true } },
    'users-permissions': {
      enabled: true,
      config: {
        jwtSecret: true,
        jwt: { expiresIn: true },
        ratelimit: true,
        register: { allowedFields: true },
        resetPasswordUrl: true,
        email: { send: true },
      },
    },
    graphql: {
      enabled: true,
      config: {
        endpoint: true,
        shadowCRUD: true,
        playgroundAlways: true,
        depthLimit: true,
        costLimit: true,
        amountLimit: true,
        defaultLimit: true,
        maxLimit: true,
        apolloServer: { tracing: true },
      },
    },
    upload: {
      enabled: true,
      config: {
        provider: (value) => value === 'local',
        providerOptions: { directory: true },
        sizeLimit: true,
        breakpoints: true,
        responsiveDimensions: true,
        sizeOptimization: true,
        autoOrientation: true,
      },
    },
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value !== 'function';
}

function walk(value: unknown, honoured: KeyTree, path: string, out: string[]): void {
  if (typeof honoured === 'function') {
    if (!honoured(value)) out.push(path);
    return;
  }
  if (honoured === true || !isPlainObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const next = honoured[key];
    const itemPath = `${path}.${key}`;
    if (next === undefined) out.push(itemPath);
    else walk(item, next, itemPath, out);
  }
}

/** The configuration keys (dotted paths, `file.key.sub`) that Content Service does not use. */
export function ignoredKeys(tree: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(tree)) {
    const honoured = HONOURED_KEYS[name];
    if (honoured === undefined) out.push(name);
    else walk(value, honoured, name, out);
  }
  return out;
}

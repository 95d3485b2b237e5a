import { nearMiss } from './near-miss.js';

/**
 * Which configuration keys Content Service uses, file by file. Everything else an app's `config/`
 * holds (Strapi features the service does not have: the admin panel, an SQL `connection`, …) is accepted and reported once at start-up as ignored.
 * `true` marks a key whose whole value is used; a function, a key used only with such values.
 */
export type KeyTree = true | ((value: unknown) => boolean) | { readonly [key: string]: KeyTree };

export const HONOURED_KEYS: Readonly<Record<string, KeyTree>> = {
  server: {
    host: true,
    port: true,
    url: true,
    proxy: true,
    // the keys that sign cookies (ctx.cookies, ctx.app.keys)
    app: { keys: true },
    dirs: { public: true },
    cron: { enabled: true, tasks: true },
    webhooks: { defaultHeaders: true },
  },
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
        // the sign-in providers' settings, and the check of a connect's `?callback=`
        providers: true,
        callback: { validate: true },
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
    email: { enabled: true, config: { provider: true, providerOptions: true, settings: true } },
    upload: {
      enabled: true,
      config: {
        provider: true,
        providerOptions: true,
        actionOptions: true,
        sizeLimit: true,
        breakpoints: true,
        responsiveDimensions: true,
        sizeOptimization: true,
        autoOrientation: true,
        sweep: true,
      },
    },
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value !== 'function';
}

/** Where the configuration holds keys the service does not use, by dotted path (`file.key.sub`). */
export interface UnusedKeys {
  /** keys of Strapi features the service does not have, or of the app's own configuration */
  ignored: string[];
  /** keys one slip away from a key the service uses at the same place: most likely typos */
  typos: { path: string; suggestion: string }[];
}

function honouredAt(tree: { readonly [key: string]: KeyTree }, key: string): KeyTree | undefined {
  return Object.hasOwn(tree, key) ? tree[key] : undefined;
}

function walk(value: unknown, honoured: KeyTree, path: string, out: UnusedKeys): void {
  if (typeof honoured === 'function') {
    if (!honoured(value)) out.ignored.push(path);
    return;
  }
  if (honoured === true || !isPlainObject(value)) return;
  for (const [key, item] of Object.entries(value)) visit(honoured, key, item, `${path}.${key}`, out);
}

function visit(
  siblings: { readonly [key: string]: KeyTree },
  key: string,
  value: unknown,
  path: string,
  out: UnusedKeys,
) {
  const next = honouredAt(siblings, key);
  if (next !== undefined) return walk(value, next, path, out);
  const suggestion = nearMiss(key, Object.keys(siblings));
  if (suggestion !== undefined) out.typos.push({ path, suggestion });
  else out.ignored.push(path);
}

/**
 * Whether a config file holds the tasks `server.cron.tasks` runs: Strapi's docs keep them in
 * `config/cron-tasks.js`, which `config/server.js` requires (Strapi loads that file as a config of
 * its own too, which nothing reads): the same tasks by name.
 */
function holdsServerCronTasks(value: unknown, tree: Record<string, unknown>): boolean {
  const server = tree.server;
  const cron = isPlainObject(server) ? server.cron : undefined;
  const tasks = isPlainObject(cron) ? cron.tasks : undefined;
  if (!isPlainObject(value) || !isPlainObject(tasks)) return false;
  // each file is loaded as a module of its own, so the two are equal copies rather than one object
  const names = Object.keys(value);
  return (
    names.length > 0 && names.length === Object.keys(tasks).length && names.every((name) => Object.hasOwn(tasks, name))
  );
}

/** The configuration keys Content Service does not use, typos apart. */
export function unusedKeys(tree: Record<string, unknown>): UnusedKeys {
  const out: UnusedKeys = { ignored: [], typos: [] };
  for (const [name, value] of Object.entries(tree))
    if (!holdsServerCronTasks(value, tree)) visit(HONOURED_KEYS, name, value, name, out);
  return out;
}

import { resolve } from 'node:path';
import defaultsDeep from 'lodash/defaultsDeep.js';
import { ConfigError } from './config-error.js';
import { readConfigTree, type ConfigTree } from './config-tree.js';
import { loadDotenv } from './dotenv.js';
import { unusedKeys } from './honoured-keys.js';
import { middlewareList } from './middleware-list.js';
import { serverTree } from './server-tree.js';
import type { ConfigOverrides, ConfigTypo, PluginConfig, ServiceConfig } from './types.js';

const DEFAULT_PLUGINS: Record<string, PluginConfig> = {
  i18n: { enabled: true, config: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] } },
  'users-permissions': { enabled: true, config: {} },
  upload: { enabled: true, config: {} },
};

/** How long each database read of a request may take (REST and GraphQL); see the README, Reliability. */
const DEFAULT_TIME_BUDGET_MS = 1500;
type Section = Record<string, unknown>;

function isObject(value: unknown): value is Section {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads `config/<name>` (merged with its environment file) as one object. */
function section(config: ConfigTree, name: string): Section {
  const value = config.tree[name];
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigError(config.fileOf(name), undefined, 'must export an object');
  return value;
}

function child(config: ConfigTree, name: string, parent: Section, key: string): Section {
  const value = parent[key];
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigError(config.fileOf(name, key), key, 'must be an object');
  return value;
}

function integer(file: string, key: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(
      file,
      key,
      `must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got ${typeof value === 'number' ? value : JSON.stringify(value)}`,
    );
  return n;
}

function optionalString(file: string, key: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(file, key, 'must be a string');
  return value;
}

function readPlugins(config: ConfigTree): Record<string, PluginConfig> {
  const plugins: Record<string, PluginConfig> = structuredClone(DEFAULT_PLUGINS);
  for (const [name, value] of Object.entries(section(config, 'plugins'))) {
    const file = config.fileOf('plugins', name);
    // Strapi accepts `name: false` / `name: true` as a short declaration
    if (typeof value === 'boolean') {
      plugins[name] = { enabled: value, config: plugins[name]?.config ?? {} };
      continue;
    }
    if (!isObject(value)) throw new ConfigError(file, name, 'must be an object or a boolean');
    if (value.enabled !== undefined && typeof value.enabled !== 'boolean')
      throw new ConfigError(file, `${name}.enabled`, 'must be a boolean');
    if (value.config !== undefined && !isObject(value.config))
      throw new ConfigError(file, `${name}.config`, 'must be an object');
    if (value.resolve !== undefined && typeof value.resolve !== 'string')
      throw new ConfigError(file, `${name}.resolve`, 'must be a path');
    plugins[name] = {
      ...(typeof value.resolve === 'string' ? { resolve: value.resolve } : {}),
      enabled: value.enabled ?? true,
      // the app's keys win; the plugin's defaults fill in what it leaves out (Strapi's defaultsDeep)
      config: defaultsDeep({}, value.config ?? {}, plugins[name]?.config ?? {}) as Section,
    };
  }
  return plugins;
}

/**
 * `config/permissions` in this service's format (role type → actions). A file of that name whose
 * values are none of them arrays is an app's own configuration (read by its code through
 * `strapi.config`), not this format: it is left alone.
 */
function readPermissions(config: ConfigTree): Record<string, string[]> | undefined {
  const entries = Object.entries(section(config, 'permissions'));
  if (entries.length > 0 && entries.every(([, actions]) => !Array.isArray(actions))) return undefined;
  const out: Record<string, string[]> = {};
  for (const [role, actions] of entries) {
    if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string'))
      throw new ConfigError(config.fileOf('permissions', role), role, 'must be an array of action strings');
    out[role] = actions as string[];
  }
  return out;
}

function readServer(config: ConfigTree, appDir: string): ServiceConfig['server'] {
  const server = section(config, 'server');
  const file = (key: string) => config.fileOf('server', key);
  const dirs = child(config, 'server', server, 'dirs');
  // an empty variable is no setting, as Strapi's defaults read it (`process.env.PORT || 1337`)
  const port = process.env.PORT || (server.port ?? 1337);
  return {
    host: process.env.HOST || (server.host === undefined || server.host === null ? undefined : String(server.host)),
    port: integer(process.env.PORT ? 'env PORT' : file('port'), 'port', port, 0, 65_535),
    url: optionalString(file('url'), 'url', server.url),
    proxy: server.proxy === true,
    publicDir: resolve(appDir, optionalString(file('dirs.public'), 'dirs.public', dirs.public) ?? './public'),
  };
}

function readApi(config: ConfigTree): ServiceConfig['api'] {
  const rest = child(config, 'api', section(config, 'api'), 'rest');
  const file = (key: string) => config.fileOf('api', `rest.${key}`);
  const prefix = optionalString(file('prefix'), 'rest.prefix', rest.prefix) ?? '/api';
  if (!/^\/[^?#]*$/.test(prefix) || prefix.endsWith('/'))
    throw new ConfigError(
      file('prefix'),
      'rest.prefix',
      'must be a path such as "/api" (leading slash, none at the end)',
    );
  return {
    rest: {
      prefix,
      defaultLimit: integer(file('defaultLimit'), 'rest.defaultLimit', rest.defaultLimit ?? 25, 1),
      // -1 (or 0) is "no maximum", as projects mean it (docs/strapi-deviations.md, "No maximum page size")
      maxLimit: integer(file('maxLimit'), 'rest.maxLimit', rest.maxLimit ?? 100, -1),
      withCount: rest.withCount === undefined ? true : rest.withCount !== false,
      maxPopulateDepth: integer(file('maxPopulateDepth'), 'rest.maxPopulateDepth', rest.maxPopulateDepth ?? 10, 1),
      maxPopulateRelations: integer(
        file('maxPopulateRelations'),
        'rest.maxPopulateRelations',
        rest.maxPopulateRelations ?? 100,
        1,
      ),
      timeBudgetMs: integer(file('timeBudgetMs'), 'rest.timeBudgetMs', rest.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS, 0),
    },
  };
}

/** how often each instance reads the credentials epoch by default (src/database/credentials-epoch.ts) */
const DEFAULT_CREDENTIALS_POLL_MS = 100;

function readDatabase(config: ConfigTree, appDir: string): ServiceConfig['database'] {
  const database = section(config, 'database');
  const uri = process.env.MONGODB_URI || optionalString(config.fileOf('database', 'uri'), 'uri', database.uri);
  const dataDir = optionalString(config.fileOf('database', 'dataDir'), 'dataDir', database.dataDir);
  const pollMs = process.env.CREDENTIALS_POLL_MS || DEFAULT_CREDENTIALS_POLL_MS;
  return {
    uri: uri || undefined,
    dataDir: dataDir ?? resolve(appDir, '.data'),
    credentialsPollMs: integer('env CREDENTIALS_POLL_MS', 'CREDENTIALS_POLL_MS', pollMs, 10, 60_000),
  };
}

/** A typo at dotted `path` (`server.prot`; a whole file: `sever`), located in its file. */
function typoIn(config: ConfigTree, path: string, suggestion: string): ConfigTypo {
  const [name = path, ...rest] = path.split('.');
  const key = rest.join('.');
  return rest.length === 0
    ? { file: config.fileOf(name), key: name, suggestion }
    : { file: config.fileOf(name, key), key, suggestion };
}

function environmentOf(nodeEnv: string): ServiceConfig['env'] {
  return nodeEnv === 'production' || nodeEnv === 'test' ? nodeEnv : 'development';
}

function localPluginKey(plugins: Record<string, PluginConfig>, key: string): boolean {
  const [section, name] = key.split('.');
  return section === 'plugins' && name !== undefined && plugins[name]?.resolve !== undefined;
}

/**
 * The configuration of an app directory, read as Strapi v4 reads it: `.env` into the environment,
 * every file of `config/` (`.ts`, `.js`, `.json`) with `config/env/<NODE_ENV>/` merged over it;
 * then the service's own variables (PORT, HOST, MONGODB_URI) and explicit overrides (CLI flags,
 * programmatic API). The tree `strapi.config` reads says where the server listens (serverTree).
 */
export async function loadConfig(appDirInput: string, overrides: ConfigOverrides = {}): Promise<ServiceConfig> {
  const appDir = resolve(appDirInput);
  loadDotenv(appDir);
  const nodeEnv = process.env.NODE_ENV || 'development';
  const tree = await readConfigTree(appDir, nodeEnv);
  const plugins = readPlugins(tree);
  const admin = section(tree, 'admin');
  const permissions = readPermissions(tree);
  const apiToken = child(tree, 'admin', admin, 'apiToken');
  const unused = unusedKeys(tree.tree);

  const config: ServiceConfig = {
    appDir,
    env: environmentOf(nodeEnv),
    server: readServer(tree, appDir),
    admin: { apiTokenSalt: optionalString(tree.fileOf('admin', 'apiToken.salt'), 'apiToken.salt', apiToken.salt) },
    database: readDatabase(tree, appDir),
    api: readApi(tree),
    plugins,
    permissions: permissions ?? {},
    middlewares: {
      file: tree.fileOf('middlewares'),
      entries: middlewareList(tree.fileOf('middlewares'), tree.tree.middlewares),
    },
    tree: {
      ...tree.tree,
      environment: nodeEnv,
      plugin: Object.fromEntries(Object.entries(plugins).map(([name, p]) => [name, p.config])),
    },
    // a local plugin's settings are its own to read
    ignored: [
      ...unused.ignored.filter((key) => !localPluginKey(plugins, key)),
      ...(permissions ? [] : ['permissions']),
    ],
    typos: unused.typos.map(({ path, suggestion }) => typoIn(tree, path, suggestion)),
    fileOf: tree.fileOf,
  };
  const applied = applyOverrides(config, overrides);
  return { ...applied, tree: serverTree(applied) };
}

function applyOverrides(config: ServiceConfig, overrides: ConfigOverrides): ServiceConfig {
  return {
    ...config,
    ...(overrides.env ? { env: overrides.env } : {}),
    server: { ...config.server, ...overrides.server },
    admin: { ...config.admin, ...overrides.admin },
    database: { ...config.database, ...overrides.database },
    api: { rest: { ...config.api.rest, ...overrides.api?.rest } },
    plugins: { ...config.plugins, ...overrides.plugins } as Record<string, PluginConfig>,
    permissions: { ...config.permissions, ...overrides.permissions } as Record<string, string[]>,
    ...(overrides.middlewares?.entries ? { middlewares: { ...config.middlewares, ...overrides.middlewares } } : {}),
  };
}

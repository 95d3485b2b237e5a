import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { readConfigFile, type ConfigValue } from './read-config-file.js';
import type { ConfigOverrides, PluginConfig, ServiceConfig } from './types.js';

const DEFAULT_PLUGINS: Record<string, PluginConfig> = {
  i18n: { enabled: true, config: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] } },
  'users-permissions': { enabled: true, config: {} },
  upload: { enabled: true, config: {} },
};

function integer(file: string, key: string, value: unknown, min: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min)
    throw new ConfigError(file, key, `must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

function object(file: string, key: string, value: unknown): ConfigValue {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(file, key, 'must be an object');
  return value as ConfigValue;
}

function readPlugins(file: string, raw: ConfigValue): Record<string, PluginConfig> {
  const plugins: Record<string, PluginConfig> = structuredClone(DEFAULT_PLUGINS);
  for (const [name, value] of Object.entries(raw)) {
    const entry = object(file, name, value);
    if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean')
      throw new ConfigError(file, `${name}.enabled`, 'must be a boolean');
    plugins[name] = {
      enabled: (entry.enabled as boolean | undefined) ?? true,
      config: { ...(plugins[name]?.config ?? {}), ...object(file, `${name}.config`, entry.config) },
    };
  }
  return plugins;
}

function readPermissions(file: string, raw: ConfigValue): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [role, actions] of Object.entries(raw)) {
    if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string'))
      throw new ConfigError(file, role, 'must be an array of action strings');
    out[role] = actions as string[];
  }
  return out;
}

/**
 * The configuration of an app directory: files under `config/`, then environment variables
 * (PORT, HOST, MONGODB_URI, NODE_ENV), then explicit overrides (CLI flags, programmatic API).
 */
export async function loadConfig(appDirInput: string, overrides: ConfigOverrides = {}): Promise<ServiceConfig> {
  const appDir = resolve(appDirInput);
  const server = await readConfigFile(appDir, 'server');
  const database = await readConfigFile(appDir, 'database');
  const api = await readConfigFile(appDir, 'api');
  const plugins = await readConfigFile(appDir, 'plugins');
  const permissions = await readConfigFile(appDir, 'permissions');

  const serverFile = server?.file ?? 'config/server';
  const rest = object(api?.file ?? 'config/api', 'rest', api?.value.rest);
  const apiFile = api?.file ?? 'config/api';
  const nodeEnv = process.env.NODE_ENV;

  const config: ServiceConfig = {
    appDir,
    env: nodeEnv === 'production' || nodeEnv === 'test' ? nodeEnv : 'development',
    server: {
      host: String(process.env.HOST ?? server?.value.host ?? '0.0.0.0'),
      port: integer(
        process.env.PORT ? 'env PORT' : serverFile,
        'port',
        process.env.PORT ?? server?.value.port ?? 1337,
        0,
      ),
      bodyLimit: String(server?.value.bodyLimit ?? '1mb'),
    },
    database: {
      uri: process.env.MONGODB_URI || (database?.value.uri as string | undefined) || undefined,
      dataDir: (database?.value.dataDir as string | undefined) ?? resolve(appDir, '.data'),
    },
    api: {
      rest: {
        defaultLimit: integer(apiFile, 'rest.defaultLimit', rest.defaultLimit ?? 25, 1),
        maxLimit: integer(apiFile, 'rest.maxLimit', rest.maxLimit ?? 100, 1),
        withCount: rest.withCount === undefined ? true : rest.withCount !== false,
        maxPopulateDepth: integer(apiFile, 'rest.maxPopulateDepth', rest.maxPopulateDepth ?? 10, 1),
        maxPopulateRelations: integer(apiFile, 'rest.maxPopulateRelations', rest.maxPopulateRelations ?? 100, 1),
      },
    },
    plugins: readPlugins(plugins?.file ?? 'config/plugins', plugins?.value ?? {}),
    permissions: readPermissions(permissions?.file ?? 'config/permissions', permissions?.value ?? {}),
  };
  if (config.database.uri !== undefined && typeof config.database.uri !== 'string') {
    throw new ConfigError(database?.file ?? 'config/database', 'uri', 'must be a string');
  }
  return applyOverrides(config, overrides);
}

function applyOverrides(config: ServiceConfig, overrides: ConfigOverrides): ServiceConfig {
  return {
    ...config,
    ...(overrides.env ? { env: overrides.env } : {}),
    server: { ...config.server, ...overrides.server },
    database: { ...config.database, ...overrides.database },
    api: { rest: { ...config.api.rest, ...overrides.api?.rest } },
    plugins: { ...config.plugins, ...overrides.plugins } as Record<string, PluginConfig>,
    permissions: { ...config.permissions, ...overrides.permissions } as Record<string, string[]>,
  };
}

export function pluginEnabled(config: ServiceConfig, name: string): boolean {
  return config.plugins[name]?.enabled === true;
}

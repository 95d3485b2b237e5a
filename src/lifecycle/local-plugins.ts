/**
 * A Strapi v4 project's own plugins: the `config/plugins` entries with `resolve` (a folder, usually
 * `./src/plugins/<name>`) and not `enabled: false`, loaded as Strapi's plugin loader loads them:
 * the folder's `strapi-server` (an object, or a function given `{ env }`: `require('./server')`),
 * filled with Strapi's defaults, its `config.default` under the app's `config` for it, checked by
 * its `config.validator`. A folder without a `strapi-server` is an admin-only plugin: nothing runs.
 * The plugin object then lives as the built-in ones do (`plugin-objects.ts`): its `register` and
 * `bootstrap` run before the app's, its `content-api` routes are served under `/api/<plugin>`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import defaultsDeep from 'lodash/defaultsDeep.js';
import { ConfigError, env, importAppModule, type ServiceConfig } from '../config/index.js';
import type { ContentTypeSource } from '../content-types/index.js';
import { callAppFunction, type PluginHolder, type PluginServer } from './plugin-objects.js';
import type { StrapiApp } from './strapi-app.js';
import { withStrapiFactories } from './strapi-factories.js';

const SERVER_FILE = /^strapi-server\.(js|cjs|mjs|ts)$/;

/** One local plugin, loaded. */
export interface LocalPlugin {
  name: string;
  /** its `strapi-server` file */
  file: string;
  /** relative to the app, for messages */
  label: string;
  server: PluginServer;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

/** The plugin's settings: its defaults under the app's, checked by its validator (a throw stops start-up). */
function pluginSettings(name: string, label: string, declared: unknown, own: Record<string, unknown>) {
  const config = record(declared);
  const defaults = typeof config.default === 'function' ? callAppFunction(config.default, { env }) : config.default;
  const settings = defaultsDeep({}, own, record(defaults)) as Record<string, unknown>;
  if (typeof config.validator === 'function') {
    try {
      callAppFunction(config.validator, settings);
    } catch (err) {
      throw new ConfigError(
        label,
        undefined,
        `Error regarding ${name} config: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return settings;
}

/** Strapi's empty plugin under what the module gives. */
function pluginServer(exported: Record<string, unknown>, settings: Record<string, unknown>): PluginServer {
  const routes = exported.routes;
  return {
    ...exported,
    routes: Array.isArray(routes) ? routes : (record(routes) as PluginServer['routes']),
    controllers: record(exported.controllers),
    services: record(exported.services),
    middlewares: record(exported.middlewares),
    policies: record(exported.policies),
    contentTypes: record(exported.contentTypes) as PluginServer['contentTypes'],
    config: settings,
  };
}

function serverFile(dir: string): string | undefined {
  const name = readdirSync(dir).find((file) => SERVER_FILE.test(file));
  return name ? join(dir, name) : undefined;
}

/**
 * Loads the app's local plugins. A `resolve` that names no folder, a module that cannot be loaded
 * or exports no object, and a failing validator stop start-up naming the file. A local plugin
 * named as a built-in one is left to the built-in (said to `warn`).
 */
export async function loadLocalPlugins(
  config: ServiceConfig,
  builtIn: readonly string[],
  warn: (message: string) => void,
): Promise<LocalPlugin[]> {
  const declared = Object.entries(config.plugins).filter(([, plugin]) => plugin.enabled && plugin.resolve);
  return withStrapiFactories(async () => {
    const loaded: LocalPlugin[] = [];
    for (const [name, plugin] of declared) {
      const where = config.fileOf('plugins', name);
      const dir = resolve(config.appDir, plugin.resolve ?? '');
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        throw new ConfigError(where, `${name}.resolve`, `${plugin.resolve ?? ''} couldn't be resolved`);
      const file = serverFile(dir);
      if (!file) continue;
      const label = relative(config.appDir, file);
      if (builtIn.includes(name)) {
        warn(
          `${label}: the local plugin "${name}" has the name of a built-in plugin of this service, which is used instead`,
        );
        continue;
      }
      let exported = await importAppModule(file, label);
      if (typeof exported === 'function') exported = callAppFunction(exported, { env });
      if (!isObject(exported))
        throw new ConfigError(label, undefined, "a plugin's strapi-server must export an object");
      loaded.push({
        name,
        file,
        label,
        server: pluginServer(exported, pluginSettings(name, label, exported.config, plugin.config)),
      });
    }
    return loaded;
  });
}

/** Runs a lifecycle function of each local plugin's object (as the app's extensions left it); a throw stops start-up naming the plugin. */
export async function runLocalPluginHook(
  plugins: readonly LocalPlugin[],
  holders: ReadonlyMap<string, PluginHolder>,
  hook: 'register' | 'bootstrap' | 'destroy',
  strapi: StrapiApp,
): Promise<void> {
  for (const plugin of plugins) {
    const run = holders.get(plugin.name)?.server[hook];
    if (typeof run !== 'function') continue;
    try {
      await callAppFunction(run, { strapi });
    } catch (err) {
      throw new ConfigError(
        plugin.label,
        undefined,
        `${hook}() failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}

/** The content-types a local plugin's server code exports (`contentTypes: { <name>: { schema } }`), for the registry. */
export function localPluginTypes(plugin: LocalPlugin): ContentTypeSource[] {
  return Object.entries(plugin.server.contentTypes).flatMap(([key, value]) => {
    const schema: unknown = isObject(value) ? value.schema : undefined;
    if (!isObject(schema)) return [];
    const info = record(schema.info);
    const name = typeof info.singularName === 'string' ? info.singularName : key;
    return [
      {
        uid: `plugin::${plugin.name}.${name}`,
        // checked when the registry is built, as a schema read from a file
        schema: schema as unknown as ContentTypeSource['schema'],
        source: `${plugin.label} (contentTypes.${key})`,
        namespace: 'plugin' as const,
      },
    ];
  });
}

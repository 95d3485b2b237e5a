/**
 * What Strapi's plugin loader does with a plugin's `strapi-server`, whichever way the plugin came
 * (a local folder, `local-plugins.ts`; a package the app installed, `installed-plugins.ts`): the
 * module (an object, or a function given `{ env }`: `require('./server')`) filled with Strapi's
 * defaults, its `config.default` under the app's `config` for it, checked by its `config.validator`;
 * then its `register`/`bootstrap`/`destroy` on the plugin object as the app's extensions left it,
 * and its content-types for the registry.
 */
import defaultsDeep from 'lodash/defaultsDeep.js';
import { ConfigError, env, importAppModule } from '../config/index.js';
import type { ContentTypeSource } from '../content-types/index.js';
import { callAppFunction, type PluginHolder, type PluginServer } from './plugin-objects.js';
import type { StrapiApp } from './strapi-app.js';

/** One plugin of the project (local or installed), loaded. */
export interface LoadedPlugin {
  name: string;
  /** its `strapi-server` file */
  file: string;
  /** for messages: relative to the app for a local plugin, the package name for an installed one */
  label: string;
  server: PluginServer;
  /**
   * third-party code (an installed package): a throw in its lifecycle functions is logged and the
   * plugin left out of the later ones, instead of stopping start-up
   */
  thirdParty: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The plugin's settings: its defaults under the app's, checked by its validator (a throw stops
 * start-up). An async validator (strapi-plugin-website-builder's yup `validate`) is awaited: Strapi
 * calls it without awaiting, so a refusal there is an unhandled rejection; here it refuses as a throw.
 */
async function pluginSettings(name: string, label: string, declared: unknown, own: Record<string, unknown>) {
  const config = record(declared);
  const defaults = typeof config.default === 'function' ? callAppFunction(config.default, { env }) : config.default;
  const settings = defaultsDeep({}, own, record(defaults)) as Record<string, unknown>;
  if (typeof config.validator === 'function') {
    try {
      await callAppFunction(config.validator, settings);
    } catch (err) {
      throw new ConfigError(label, undefined, `Error regarding ${name} config: ${reason(err)}`);
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

/**
 * A plugin's `strapi-server` module as its exported object (a function is called with `{ env }`).
 * A module that cannot be loaded or exports no object throws a ConfigError naming `label`.
 */
export async function importPluginModule(file: string, label: string): Promise<Record<string, unknown>> {
  let exported = await importAppModule(file, label);
  try {
    if (typeof exported === 'function') exported = callAppFunction(exported, { env });
  } catch (err) {
    throw new ConfigError(label, undefined, `its strapi-server function failed: ${reason(err)}`);
  }
  if (!isObject(exported)) throw new ConfigError(label, undefined, "a plugin's strapi-server must export an object");
  return exported;
}

/** The plugin object of an exported `strapi-server`, with its settings (`declaredConfig`: the app's `config/plugins` `<name>.config`). */
export async function pluginOf(
  name: string,
  file: string,
  label: string,
  exported: Record<string, unknown>,
  declaredConfig: Record<string, unknown>,
  thirdParty: boolean,
): Promise<LoadedPlugin> {
  return {
    name,
    file,
    label,
    thirdParty,
    server: pluginServer(exported, await pluginSettings(name, label, exported.config, declaredConfig)),
  };
}

/**
 * The project's plugins in the order Strapi 4.26's loader gives them (and runs their lifecycle
 * functions in): those `config/plugins` declares, in its order (local ones and installed ones
 * given settings alike), then the other installed ones, in the app's package.json order.
 */
export function inStrapiOrder(plugins: readonly LoadedPlugin[], declared: readonly string[]): LoadedPlugin[] {
  const rank = (plugin: LoadedPlugin) => {
    const at = declared.indexOf(plugin.name);
    return at === -1 ? declared.length : at;
  };
  // a stable sort: the undeclared keep their package.json order
  return [...plugins].sort((a, b) => rank(a) - rank(b));
}

/**
 * Runs a lifecycle function of each plugin's object (as the app's extensions left it). A local
 * plugin's throw stops start-up naming it; a third-party plugin's is said to `warn`, and the
 * plugin's later lifecycle functions are not run (`failed` remembers it).
 */
export async function runPluginHook(
  plugins: readonly LoadedPlugin[],
  holders: ReadonlyMap<string, PluginHolder>,
  hook: 'register' | 'bootstrap' | 'destroy',
  strapi: StrapiApp,
  failed: Set<string>,
  warn: (message: string) => void,
): Promise<void> {
  for (const plugin of plugins) {
    if (failed.has(plugin.name)) continue;
    const run = holders.get(plugin.name)?.server[hook];
    if (typeof run !== 'function') continue;
    try {
      await callAppFunction(run, { strapi });
    } catch (err) {
      if (!plugin.thirdParty) throw new ConfigError(plugin.label, undefined, `${hook}() failed: ${reason(err)}`);
      failed.add(plugin.name);
      const after = hook === 'destroy' ? '' : '; its later lifecycle functions are not run';
      warn(`the plugin "${plugin.name}" (${plugin.label}) failed in ${hook}(): ${reason(err)}${after}`);
    }
  }
}

/** The content-types a plugin's server code exports (`contentTypes: { <name>: { schema } }`), for the registry. */
export function pluginContentTypes(plugin: LoadedPlugin): ContentTypeSource[] {
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

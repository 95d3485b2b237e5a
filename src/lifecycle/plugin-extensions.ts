/**
 * `src/extensions/<plugin>/strapi-server.(js|ts)` of a Strapi v4 project: a function given the
 * plugin's object (`plugin-objects.ts`) before any register hook runs, which changes it in place
 * or returns the object the plugin becomes, as Strapi's plugin loader applies it. Extensions of
 * plugins this service does not run (the admin's `content-manager`, a plugin turned off) are left
 * out, as Strapi loads no plugin for them; the start-up notices name them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConfigError, importAppModule, missingModuleMessage } from '../config/index.js';
import { callAppFunction, isBuiltInHook, type PluginHolder, type PluginServer } from './plugin-objects.js';
import type { StrapiApp } from './strapi-app.js';
import { withStrapiFactories } from './strapi-factories.js';

const SERVER_FILE = /^strapi-server\.(js|cjs|mjs|ts)$/;

/** One extension file, loaded. */
export interface PluginExtension {
  plugin: string;
  file: string;
  /** relative to the app, for messages */
  label: string;
  extend: (plugin: PluginServer) => unknown;
}

/** The `strapi-server` file of each extension folder, by plugin name. */
export function extensionServerFiles(appDir: string): Array<{ plugin: string; file: string }> {
  const dir = join(appDir, 'src', 'extensions');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((plugin) => {
      const name = readdirSync(join(dir, plugin)).find((file) => SERVER_FILE.test(file));
      return name ? [{ plugin, file: join(dir, plugin, name) }] : [];
    });
}

/** Loads the extensions of `plugins` (the ones that run here); one that cannot be loaded or is no function stops start-up. */
export async function loadPluginExtensions(appDir: string, plugins: readonly string[]): Promise<PluginExtension[]> {
  const files = extensionServerFiles(appDir).filter(({ plugin }) => plugins.includes(plugin));
  return withStrapiFactories(async () => {
    const loaded: PluginExtension[] = [];
    for (const { plugin, file } of files) {
      const label = relative(appDir, file);
      const exported = await importAppModule(file, label);
      if (typeof exported !== 'function')
        throw new ConfigError(label, undefined, 'a plugin extension must export a function (plugin) => plugin');
      loaded.push({ plugin, file, label, extend: (server) => Reflect.apply(exported, undefined, [server]) as unknown });
    }
    return loaded;
  });
}

function isPluginServer(value: unknown): value is PluginServer {
  return typeof value === 'object' && value !== null;
}

/**
 * Why an extension's function failed: a package it requires as it runs (a copy of the plugin's own
 * bootstrap requiring `url-join`) is named with the command that installs it, as at load time.
 */
function failure(err: unknown): string {
  return missingModuleMessage(err) ?? `failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** Runs each extension on its plugin's object; what it returns becomes the plugin (its own object when it returns nothing). */
export async function applyPluginExtensions(
  extensions: readonly PluginExtension[],
  holders: ReadonlyMap<string, PluginHolder>,
): Promise<void> {
  for (const extension of extensions) {
    const holder = holders.get(extension.plugin);
    if (!holder) continue;
    let result: unknown;
    try {
      result = await extension.extend(holder.server);
    } catch (err) {
      throw new ConfigError(extension.label, undefined, `the extension ${failure(err)}`);
    }
    if (isPluginServer(result)) holder.server = result;
  }
}

/**
 * The lifecycle functions an extension put on a built-in plugin's object (its own are stand-ins,
 * `isBuiltInHook`), run at their stage after the plugin's own work; a throw stops start-up
 * naming the extension.
 */
export async function runExtendedBuiltInHooks(
  extensions: readonly PluginExtension[],
  holders: ReadonlyMap<string, PluginHolder>,
  plugins: readonly string[],
  hook: 'register' | 'bootstrap' | 'destroy',
  strapi: StrapiApp,
): Promise<void> {
  for (const extension of extensions) {
    if (!plugins.includes(extension.plugin)) continue;
    const run = holders.get(extension.plugin)?.server[hook];
    if (typeof run !== 'function' || isBuiltInHook(run)) continue;
    try {
      await callAppFunction(run, { strapi });
    } catch (err) {
      throw new ConfigError(extension.label, undefined, `${hook}() ${failure(err)}`);
    }
  }
}

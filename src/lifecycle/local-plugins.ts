/**
 * A Strapi v4 project's own plugins: the `config/plugins` entries with `resolve` (a folder, usually
 * `./src/plugins/<name>`) and not `enabled: false`, loaded as Strapi's plugin loader loads them
 * (`plugin-loader.ts`). A folder without a `strapi-server` is an admin-only plugin: nothing runs.
 * The plugin object then lives as the built-in ones do (`plugin-objects.ts`): its `register` and
 * `bootstrap` run before the app's, its `content-api` routes are served under `/api/<plugin>`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError, type ServiceConfig } from '../config/index.js';
import { importPluginModule, pluginOf, type LoadedPlugin } from './plugin-loader.js';
import { withStrapiFactories } from './strapi-factories.js';

const SERVER_FILE = /^strapi-server\.(js|cjs|mjs|ts)$/;

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
): Promise<LoadedPlugin[]> {
  const declared = Object.entries(config.plugins).filter(([, plugin]) => plugin.enabled && plugin.resolve);
  return withStrapiFactories(async () => {
    const loaded: LoadedPlugin[] = [];
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
      const exported = await importPluginModule(file, label);
      loaded.push(pluginOf(name, file, label, exported, plugin.config, false));
    }
    return loaded;
  });
}

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
import { MissingModuleError } from '../config/config-error.js';
import { importPluginModule, pluginOf, type LoadedPlugin } from './plugin-loader.js';
import { withStrapiFactories } from './strapi-factories.js';

const SERVER_FILE = /^strapi-server\.(js|cjs|mjs|ts)$/;

function serverFile(dir: string): string | undefined {
  const name = readdirSync(dir).find((file) => SERVER_FILE.test(file));
  return name ? join(dir, name) : undefined;
}

/** Where a TypeScript plugin keeps its server's sources (Strapi's generator; the plugin SDK). */
const TS_SERVER_SOURCES = ['server/index.ts', 'server/src/index.ts'];

/**
 * The server sources of a TypeScript plugin that is not built: its `strapi-server` requires
 * `./dist/server`, which its build makes. Strapi's TypeScript dev mode runs the sources; so does the
 * service (through its TypeScript loader).
 */
function unbuiltServerSources(dir: string): string | undefined {
  if (existsSync(join(dir, 'dist'))) return undefined;
  return TS_SERVER_SOURCES.map((path) => join(dir, path)).find((path) => existsSync(path));
}

async function importServer(dir: string, file: string, label: string): Promise<Record<string, unknown>> {
  try {
    return await importPluginModule(file, label);
  } catch (err) {
    const sources = err instanceof MissingModuleError ? unbuiltServerSources(dir) : undefined;
    if (!sources) throw err;
    return importPluginModule(sources, label);
  }
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
      const exported = await importServer(dir, file, label);
      loaded.push(await pluginOf(name, file, label, exported, plugin.config, false));
    }
    return loaded;
  });
}

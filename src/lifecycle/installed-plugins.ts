/**
 * The Strapi plugins a project installed from npm, found as Strapi 4's `getEnabledPlugins` finds
 * them: every dependency of the app's package.json whose own package.json says
 * `strapi.kind: 'plugin'` is the plugin `strapi.name`, on unless `config/plugins` turns it off.
 * Packages are looked up from the app directory (its node_modules and those above it), never from
 * this service's. Its `strapi-server.js` (at the package root) is loaded as a local plugin's
 * (`plugin-loader.ts`).
 *
 * Unlike a local plugin, an installed plugin is third-party code the app did not write for this
 * service: what cannot run (a module that fails to load, a config its validator refuses, a
 * content-type this service cannot store, a lifecycle function calling an API it lacks) is warned
 * about once, naming the plugin and the reason, and start-up goes on without it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ConfigError, type ServiceConfig } from '../config/index.js';
import { SchemaError } from '../content-types/index.js';
import { importPluginModule, pluginOf, type LoadedPlugin } from './plugin-loader.js';
import { withStrapiFactories } from './strapi-factories.js';

/** Strapi's own plugins that are no part of this service's content API (the admin panel's). */
const STRAPI_INTERNAL_PLUGINS = ['content-manager', 'content-releases'];

/** An installed plugin package with server code. */
export interface InstalledPluginPackage {
  /** `strapi.name` of its package.json */
  name: string;
  packageName: string;
  /** its `strapi-server.js` */
  file: string;
}

type PackageJson = { name?: unknown; dependencies?: unknown; strapi?: { kind?: unknown; name?: unknown } };

const isKebabCase = (value: string) => /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/.test(value);

function readJson(file: string): PackageJson | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The package.json of `dependency` as the app would resolve it (without going through the package's
 * `exports`, which may not list package.json); undefined when it is not installed.
 */
function installedPackageJson(appRequire: NodeJS.Require, dependency: string): string | undefined {
  for (const dir of appRequire.resolve.paths(dependency) ?? []) {
    const file = join(dir, dependency, 'package.json');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * The installed plugins to run. Quietly passed over: a dependency that is not installed (a project
 * directory without node_modules), a package that is no Strapi plugin, one `config/plugins` turns
 * off or a local plugin of the same name replaces, one without `strapi-server.js` (admin-only),
 * and Strapi's own packages of the plugins this service has built in (`builtIn`). Said to `warn`:
 * a plugin name that is not kebab-case, and a third-party package named like a built-in plugin.
 */
export function findInstalledPlugins(
  config: ServiceConfig,
  builtIn: readonly string[],
  warn: (message: string) => void,
): InstalledPluginPackage[] {
  const appPackage = readJson(join(config.appDir, 'package.json'));
  const dependencies = appPackage?.dependencies;
  if (typeof dependencies !== 'object' || dependencies === null) return [];
  const appRequire = createRequire(join(config.appDir, 'package.json'));
  const reserved = [...builtIn, ...STRAPI_INTERNAL_PLUGINS];
  const found: InstalledPluginPackage[] = [];
  for (const dependency of Object.keys(dependencies)) {
    const packageFile = installedPackageJson(appRequire, dependency);
    const info = packageFile ? readJson(packageFile) : undefined;
    if (!packageFile || info?.strapi?.kind !== 'plugin') continue;
    const name = info.strapi.name;
    if (typeof name !== 'string' || !isKebabCase(name)) {
      warn(`the plugin package "${dependency}" is not run: its plugin name "${String(name)}" is not in kebab-case`);
      continue;
    }
    if (reserved.includes(name)) {
      if (!dependency.startsWith('@strapi/'))
        warn(
          `the plugin package "${dependency}" is not run: its name "${name}" is the name of a plugin this service has built in, which is used instead`,
        );
      continue;
    }
    const declared = config.plugins[name];
    if (declared?.enabled === false || declared?.resolve !== undefined) continue;
    const file = join(dirname(packageFile), 'strapi-server.js');
    if (!existsSync(file)) continue;
    found.push({ name, packageName: dependency, file });
  }
  return found;
}

/**
 * Loads the installed plugins' `strapi-server` modules, each with its settings (its defaults under
 * the app's `config/plugins` `<name>.config`, checked by its validator). One that cannot be loaded
 * or whose validator refuses the settings is said to `warn` and left out.
 */
export async function loadInstalledPlugins(
  packages: readonly InstalledPluginPackage[],
  config: ServiceConfig,
  warn: (message: string) => void,
): Promise<LoadedPlugin[]> {
  return withStrapiFactories(async () => {
    const loaded: LoadedPlugin[] = [];
    for (const { name, packageName, file } of packages) {
      try {
        const exported = await importPluginModule(file, packageName);
        loaded.push(await pluginOf(name, file, packageName, exported, config.plugins[name]?.config ?? {}, true));
      } catch (err) {
        const message = err instanceof ConfigError ? err.message : `${packageName}: ${String(err)}`;
        warn(`the plugin "${name}" is not run: ${message}`);
      }
    }
    return loaded;
  });
}

/** `config/plugins` keys of installed plugins that run: theirs to read, not unused configuration. */
export function isInstalledPluginKey(packages: readonly InstalledPluginPackage[], key: string): boolean {
  const [section, name] = key.split('.');
  return section === 'plugins' && packages.some((plugin) => plugin.name === name);
}

/**
 * Builds the registry with the plugins' content-types; when one of an installed plugin's cannot be
 * stored here (a SchemaError naming it, e.g. a relation to a type nobody declares), that plugin is left out
 * (said to `warn`) and the registry built again without it. Any other SchemaError is thrown.
 */
export function withStorablePlugins<T>(
  plugins: readonly LoadedPlugin[],
  build: (plugins: readonly LoadedPlugin[]) => T,
  warn: (message: string) => void,
): { built: T; plugins: LoadedPlugin[] } {
  let kept = [...plugins];
  for (;;) {
    try {
      return { built: build(kept), plugins: kept };
    } catch (err) {
      const culprit =
        err instanceof SchemaError
          ? kept.find((plugin) => plugin.thirdParty && err.message.startsWith(`${plugin.label} (contentTypes.`))
          : undefined;
      if (!culprit || !(err instanceof SchemaError)) throw err;
      warn(
        `the plugin "${culprit.name}" is not run: its content-type cannot be stored by this service: ${err.message}`,
      );
      kept = kept.filter((plugin) => plugin !== culprit);
    }
  }
}

/** The app's package.json dependencies, in their order (none without a package.json). */
export function appDependencies(appDir: string): string[] {
  const dependencies = readJson(join(appDir, 'package.json'))?.dependencies;
  return typeof dependencies === 'object' && dependencies !== null ? Object.keys(dependencies) : [];
}

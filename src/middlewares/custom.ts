/**
 * The app's own middlewares in `config/middlewares`, as Strapi v4 finds them: `global::<name>`
 * (`src/middlewares/<name>`), `api::<api>.<name>` (`src/api/<api>/middlewares/<name>`), and
 * `{ resolve }` (a path from the app directory, or an installed package). Each module exports a
 * factory `(config, { strapi }) => (ctx, next) => …`: loaded at start-up, called once the app
 * registered (where Strapi calls it), and run as a Koa middleware at its place in the list.
 * `plugin::<plugin>.<name>` is a plugin's middleware (its object's `middlewares`, a local or
 * installed plugin's, or a built-in one's such as `plugin::users-permissions.rateLimit`), found
 * when the factories are called: the plugins are loaded by then.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative } from 'node:path';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  ConfigError,
  importAppModule,
  missingModuleMessage,
  namedModuleFile,
  type MiddlewareEntry,
} from '../config/index.js';
import type { Logger } from '../logger.js';
import { koaHandler, type KoaMiddleware } from './koa-bridge.js';
import { withStrapiFactories } from '../lifecycle/strapi-factories.js';

/** One of the app's middlewares, loaded; `start` gives it its config and `{ strapi }`. */
export interface CustomMiddleware {
  name: string;
  /** the module's absolute path */
  file: string;
  /** the Express handler at the entry's place in the list */
  handler: RequestHandler;
  /** calls the module's factory with the app's `strapi` object; a factory that throws stops start-up naming the file */
  start(strapi: unknown): Promise<void>;
}

/** `strapi` is the lifecycle layer's object, passed through untouched */
type Factory = (config: Record<string, unknown>, context: { strapi: unknown }) => unknown;

/** TypeScript first, as the app's other modules. */
const EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'];
const FACTORY_SHAPE = 'a middleware factory (config, { strapi }) => async (ctx, next) => { … }';

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function withExtension(base: string): string | undefined {
  return EXTENSIONS.map((ext) => `${base}${ext}`).find(isFile);
}

/** A `{ resolve }` path: the file itself, with an extension, or a folder's index. */
function resolvedPath(appDir: string, spec: string): string | undefined {
  const base = isAbsolute(spec) ? spec : join(appDir, spec);
  return isFile(base) ? base : (withExtension(base) ?? withExtension(join(base, 'index')));
}

/** A `{ resolve }` package installed in the app (Strapi requires it from its own place in the app's node_modules). */
function packagePath(appDir: string, spec: string): string | undefined {
  try {
    return createRequire(join(appDir, 'package.json')).resolve(spec);
  } catch {
    return undefined;
  }
}

const NAMED = /^(global|api|plugin)::(.+)$/;

/** An entry naming one of the app's own middlewares rather than a `strapi::` one. */
export function isAppMiddleware(entry: MiddlewareEntry): boolean {
  return entry.resolved || !entry.name.startsWith('strapi::');
}

/** The module file of an entry; an entry that names no module of the app stops start-up in one line. */
function moduleFile(file: string, entry: MiddlewareEntry, appDir: string): string {
  const { name } = entry;
  const stop = (message: string) => new ConfigError(file, undefined, `middleware "${name}" ${message}`);
  if (entry.resolved) {
    const found = resolvedPath(appDir, name) ?? packagePath(appDir, name);
    if (!found) throw stop(`is neither a file of the app (from ${appDir}) nor an installed package`);
    return found;
  }
  const [, kind, rest = ''] = NAMED.exec(name) ?? [];
  if (kind === 'global') {
    const found = namedModuleFile(join(appDir, 'src', 'middlewares'), rest);
    if (!found) throw stop(`is not found: no file src/middlewares/${rest}.{ts,js}`);
    return found;
  }
  const [api, middleware] = rest.split('.');
  if (kind === 'api' && api && middleware) {
    const found = namedModuleFile(join(appDir, 'src', 'api', api, 'middlewares'), middleware);
    if (!found) throw stop(`is not found: no file src/api/${api}/middlewares/${middleware}.{ts,js}`);
    return found;
  }
  throw stop(
    'is unknown: name strapi::<name>, global::<name> (src/middlewares/<name>), api::<api>.<name> (src/api/<api>/middlewares/<name>), plugin::<plugin>.<name>, or give { resolve: "<path or package>" }',
  );
}

function isFactory(value: unknown): value is Factory {
  return typeof value === 'function';
}

function isKoaMiddleware(value: unknown): value is KoaMiddleware {
  return typeof value === 'function';
}

/** One of the app's middleware modules, loaded: its path, the name messages show, and its factory. */
export interface LoadedMiddleware {
  path: string;
  shown: string;
  factory: Factory;
}

/**
 * Loads the module an entry names (`global::`, `api::`, `{ resolve }`); a missing or broken file, or
 * one that exports no factory, stops start-up naming it.
 */
export async function loadMiddlewareFactory(
  file: string,
  entry: MiddlewareEntry,
  appDir: string,
): Promise<LoadedMiddleware> {
  const path = moduleFile(file, entry, appDir);
  const shown = relative(appDir, path).startsWith('..') ? path : relative(appDir, path);
  const factory = await withStrapiFactories(() => importAppModule(path, shown));
  if (!isFactory(factory)) throw new ConfigError(shown, undefined, `must export ${FACTORY_SHAPE}`);
  return { path, shown, factory };
}

/** Calls a middleware's factory with its config and `{ strapi }`: its Koa middleware, or null when it gives none. */
export async function startMiddleware(
  loaded: LoadedMiddleware,
  name: string,
  config: Record<string, unknown>,
  strapi: unknown,
): Promise<KoaMiddleware | null> {
  let made: unknown;
  try {
    made = await loaded.factory(config, { strapi });
  } catch (err) {
    const missing = missingModuleMessage(err);
    const message = missing ?? `failed: ${err instanceof Error ? err.message : String(err)}`;
    throw new ConfigError(loaded.shown, undefined, `the middleware factory of "${name}" ${message}`);
  }
  // a factory that gives nothing is skipped, as Strapi does
  if (made === undefined || made === null) return null;
  if (isKoaMiddleware(made)) return made;
  throw new ConfigError(loaded.shown, undefined, `must export ${FACTORY_SHAPE}; its factory returned ${typeof made}`);
}

const PLUGIN_MIDDLEWARE = /^plugin::([^.]+)\.(.+)$/;

/** The middlewares a `strapi` object's plugin has (its object's `middlewares`); undefined: no such plugin. */
function pluginMiddlewares(strapi: unknown, plugin: string): Record<string, unknown> | undefined {
  const find = (strapi as { plugin?: unknown } | null)?.plugin;
  if (typeof find !== 'function') return undefined;
  const found: unknown = Reflect.apply(find, strapi, [plugin]);
  const middlewares = (found as { middlewares?: unknown } | undefined)?.middlewares;
  return typeof middlewares === 'object' && middlewares !== null ? (middlewares as Record<string, unknown>) : undefined;
}

/**
 * A `plugin::<plugin>.<name>` entry: the plugin's middleware factory, looked up when the factories
 * are called; a plugin or middleware that is not there stops start-up naming the entry (Strapi:
 * "Middleware plugin::x.y not found.").
 */
function pluginMiddleware(file: string, entry: MiddlewareEntry): (strapi: unknown) => LoadedMiddleware {
  const [, plugin = '', item = ''] = PLUGIN_MIDDLEWARE.exec(entry.name) ?? [];
  return (strapi) => {
    const middlewares = pluginMiddlewares(strapi, plugin);
    const stop = (why: string) => new ConfigError(file, undefined, `middleware "${entry.name}" is not found: ${why}`);
    if (!middlewares) throw stop(`the plugin "${plugin}" is not installed, or is turned off`);
    const factory = Object.hasOwn(middlewares, item) ? middlewares[item] : undefined;
    if (factory === undefined) {
      const names = Object.keys(middlewares);
      throw stop(
        `the plugin "${plugin}" has no middleware "${item}" (${names.length > 0 ? `its middlewares: ${names.join(', ')}` : 'it has none'})`,
      );
    }
    if (!isFactory(factory)) throw stop(`the plugin's "${item}" is not ${FACTORY_SHAPE}`);
    return { path: file, shown: file, factory };
  };
}

/**
 * Loads an entry's module (before the database starts, so a missing or broken file stops start-up
 * first; a plugin's middleware once the plugins are loaded); its handler passes requests to the
 * Koa middleware its factory makes at `start`.
 */
export async function loadCustomMiddleware(
  file: string,
  entry: MiddlewareEntry,
  context: { appDir: string; logger: Logger; errors: ErrorRequestHandler },
): Promise<CustomMiddleware> {
  if (!entry.resolved && PLUGIN_MIDDLEWARE.test(entry.name)) {
    const find = pluginMiddleware(file, entry);
    let middleware: KoaMiddleware | null | undefined;
    return {
      name: entry.name,
      file: join(context.appDir, file),
      handler: koaHandler(entry.name, () => middleware, context.errors, context.logger),
      async start(strapi) {
        middleware = await startMiddleware(find(strapi), entry.name, entry.config, strapi);
      },
    };
  }
  const loaded = await loadMiddlewareFactory(file, entry, context.appDir);
  let middleware: KoaMiddleware | null | undefined;
  return {
    name: entry.name,
    file: loaded.path,
    handler: koaHandler(entry.name, () => middleware, context.errors, context.logger),
    async start(strapi) {
      middleware = await startMiddleware(loaded, entry.name, entry.config, strapi);
    },
  };
}

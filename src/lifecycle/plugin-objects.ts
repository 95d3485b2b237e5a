/**
 * The built-in plugins as Strapi v4 plugin objects: `{ controllers, services, routes, middlewares,
 * policies, contentTypes, config }`, handed to the app's `src/extensions/<plugin>/strapi-server`
 * (which changes them, or returns another object) and reached through `strapi.plugin(name)`.
 *
 * A plugin's content-API routes are served directly on the API router while its object says what
 * the plugin declared; once the app's extension or register hook changed them (a route added,
 * removed or reconfigured, a controller action replaced), the object's routes are served instead,
 * through the app-route machinery, with the object's controllers (`servedByObject`). The default
 * controller actions run the same handlers over the Koa-like context, so an app's action that
 * wraps the original (`const register = plugin.controllers.auth.register`) gets Strapi's answer
 * in `ctx.body`.
 */
import type { Request } from 'express';
import type { KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import type { PluginAnswer, PluginRoute, PluginRouteMiddleware } from '../plugins/types.js';
import { callMethod, type MethodBag } from './core-controller.js';
import type { AppRoute } from './route-endpoint.js';
import type { StrapiApp } from './strapi-app.js';
import { coreFactoryRecord, type CoreFactoryRecord } from './strapi-factories.js';

/** A plugin object as Strapi's plugin loader gives it to an extension. */
export interface PluginServer {
  /** routers by name (only `type: 'content-api'` ones reach this service's API), or an array: admin routes */
  routes: Record<string, PluginRouter> | AppRoute[];
  /** objects, or factories `({ strapi }) => object` */
  controllers: Record<string, unknown>;
  /** factories `({ strapi }) => object`, or objects */
  services: Record<string, unknown>;
  /** factories `(config, { strapi }) => (ctx, next) => …` */
  middlewares: Record<string, unknown>;
  policies: Record<string, unknown>;
  contentTypes: Record<string, { schema: unknown }>;
  config: Record<string, unknown>;
  register?: unknown;
  bootstrap?: unknown;
  destroy?: unknown;
}

/** One router of a plugin: Strapi's `type` defaults to `'admin'`, its `prefix` to `/<plugin>`. */
export interface PluginRouter {
  type?: string;
  prefix?: string;
  routes: AppRoute[];
}

/** What a plugin's object started as: its content-API routes and the actions serving them, to tell whether the app changed them. */
export interface PluginDefaults {
  routes: AppRoute[];
  /** `<controller>.<action>` → the plugin's own function */
  actions: ReadonlyMap<string, unknown>;
  /** a built-in plugin's own running services, by name */
  ownServices?: () => Readonly<Record<string, unknown>>;
}

/** What a built-in plugin declares. */
export interface PluginDeclaration {
  name: string;
  routes: PluginRoute[];
  middlewares: Readonly<Record<string, PluginRouteMiddleware>>;
  /** the running services, by name (each becomes a factory on the object) */
  services(): Record<string, unknown>;
  config: Record<string, unknown>;
  contentTypes: Record<string, { schema: unknown }>;
}

/** One built-in plugin's object, and how to tell whether the app changed what it serves. */
export interface PluginHolder {
  readonly name: string;
  server: PluginServer;
  /** the controller instance of `name` (a factory is made once, with `{ strapi }`) */
  controller(name: string): MethodBag | undefined;
  controllerNames(): string[];
  /** the service instance of `name`, from the object's (maybe wrapped) factory */
  service(name: string): unknown;
  /** the service instance of `name` where the app replaced or wrapped the plugin's own factory; undefined otherwise */
  changedService(name: string): unknown;
  /** the plugin's own service `name`, whatever the app made of its object's factory (undefined: it has none) */
  ownService(name: string): unknown;
  serviceNames(): string[];
  /** a route handler named by a string (`<controller>.<action>` or `plugin::<plugin>.<controller>.<action>`); undefined: no such action */
  handler(name: string): KoaMiddleware | undefined;
  /** the Koa middleware of `plugin::<plugin>.<name>` with its config; undefined: no such middleware */
  middleware(name: string, config: Record<string, unknown>): KoaMiddleware | undefined;
  /** whether the object's routes or their actions are no longer the plugin's own: they are served as the object says */
  servedByObject(): boolean;
  /** the object's content-API routes, each path under the plugin's prefix (`/<plugin>` unless `config.prefix`) */
  contentApiRoutes(): AppRoute[];
  /** the object's admin routes (every router not of the content API, or a `routes` array), each path under its prefix likewise */
  adminRoutes(): AppRoute[];
  /** the content-API actions of the object's controllers the plugin does not declare (the app's own) */
  addedActions(): string[];
}

/** The request's answer kept on the Koa context, for a handler written for Express's response. */
function answerOn(ctx: KoaContext): PluginAnswer {
  const answer: PluginAnswer = {
    status(code) {
      ctx.status = code;
      return answer;
    },
    json(body) {
      ctx.body = body;
    },
    redirect(url) {
      ctx.redirect(url);
    },
    setHeader(name, value) {
      ctx.set(name, value);
    },
  };
  return answer;
}

/** A route's direct handler as a controller action over the Koa-like context (`ctx.params` are the route's). */
function controllerAction(run: PluginRoute['run']): (ctx: KoaContext) => Promise<void> {
  return async (ctx) => {
    const req: Request = ctx.req;
    req.params = { ...ctx.params };
    await run(req, answerOn(ctx));
  };
}

/** An Express middleware as a Koa one, with Strapi's middleware factory signature around it. */
function koaMiddlewareFactory(middleware: PluginRouteMiddleware): (config?: unknown) => KoaMiddleware {
  return (config) => {
    const given = isObject(config) && Object.keys(config).length > 0 ? config : undefined;
    const handler = given ? middleware.withConfig(given) : middleware.handler;
    return (ctx, next) =>
      new Promise<void>((resolve, reject) => {
        void handler(ctx.req, ctx.res, (err?: unknown) => (err ? reject(err) : resolve()));
      }).then(() => next());
  };
}

/** A route's path under its prefix, as koa-router joins them: `/` under `/email` is `/email`. */
export function prefixedPath(prefix: string, path: string): string {
  return path === '/' && prefix !== '' ? prefix : `${prefix}${path}`;
}

/** Calls a function the app's code gave (a factory, a hook), whatever it declares. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- a factory of the app's, of any signature
export function callAppFunction(fn: Function, ...args: unknown[]): unknown {
  return Reflect.apply(fn, undefined, args) as unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** What the plugin declares of a route, in Strapi's words (a fresh copy: apps change these in place). */
function routeOf(route: PluginRoute): AppRoute {
  return {
    method: route.method,
    path: route.path,
    handler: route.handler,
    config: route.config
      ? { ...route.config, ...(route.config.middlewares ? { middlewares: [...route.config.middlewares] } : {}) }
      : {},
  };
}

const routeKey = (route: AppRoute): string =>
  JSON.stringify([route.method, route.path, route.handler, route.config ?? {}]);

/** The stand-ins a built-in plugin's object holds for its lifecycle functions. */
const builtInHooks = new WeakSet<object>();

/**
 * A built-in plugin's own register/bootstrap/destroy run in this service's code; its object holds
 * a stand-in for each, which an extension may wrap (`const bootstrap = plugin.bootstrap;
 * plugin.bootstrap = async (ctx) => { await bootstrap(ctx); … }`) or replace.
 */
function builtInHook(): () => Promise<void> {
  const hook = async () => {};
  builtInHooks.add(hook);
  return hook;
}

/** The factories a built-in plugin's object holds for its own services (`() => service`). */
const builtInServiceFactories = new WeakSet<object>();

function builtInServiceFactory(service: unknown): () => unknown {
  const factory = () => service;
  builtInServiceFactories.add(factory);
  return factory;
}

export function isBuiltInHook(value: unknown): boolean {
  return typeof value === 'function' && builtInHooks.has(value);
}

/** A built-in plugin's object: its routes, the controller actions that run them, its services and middlewares. */
export function builtInPluginServer(declared: PluginDeclaration): { server: PluginServer; defaults: PluginDefaults } {
  const controllers: Record<string, Record<string, unknown>> = {};
  const actions = new Map<string, unknown>();
  for (const route of declared.routes) {
    const [controller = '', action = ''] = route.handler.split('.');
    const made = controllerAction(route.run);
    (controllers[controller] ??= {})[action] ??= made;
    if (!actions.has(route.handler)) actions.set(route.handler, controllers[controller][action]);
  }
  // made when first read: the running services exist once the `strapi` object does
  let services: Record<string, unknown> | undefined;
  const server: PluginServer = {
    routes: { 'content-api': { type: 'content-api', routes: declared.routes.map(routeOf) } },
    controllers,
    get services() {
      services ??= Object.fromEntries(
        Object.entries(declared.services()).map(([name, service]) => [name, builtInServiceFactory(service)]),
      );
      return services;
    },
    set services(value) {
      services = value;
    },
    middlewares: Object.fromEntries(
      Object.entries(declared.middlewares).map(([name, middleware]) => [name, koaMiddlewareFactory(middleware)]),
    ),
    policies: {},
    contentTypes: declared.contentTypes,
    config: declared.config,
    register: builtInHook(),
    bootstrap: builtInHook(),
    destroy: builtInHook(),
  };
  return { server, defaults: { routes: declared.routes.map(routeOf), actions, ownServices: declared.services } };
}

/** The content-API routers of a plugin object. */
function contentApiRouters(server: PluginServer): PluginRouter[] {
  if (Array.isArray(server.routes)) return [];
  return Object.values(server.routes).filter((router) => isObject(router) && router.type === 'content-api');
}

/** The admin routers of a plugin object: Strapi's default `type`, and a `routes` array is one. */
function adminRouters(server: PluginServer): PluginRouter[] {
  if (Array.isArray(server.routes)) return [{ type: 'admin', routes: server.routes }];
  return Object.values(server.routes).filter((router) => isObject(router) && router.type !== 'content-api');
}

/** A router's routes, each path under its prefix: `/<plugin>` unless the router's, and a route's own `config.prefix` first. */
function routesUnderPrefix(plugin: string, routers: PluginRouter[]): AppRoute[] {
  return routers.flatMap((router) =>
    (Array.isArray(router.routes) ? router.routes : []).map((route) => ({
      ...route,
      path: prefixedPath(route.config?.prefix ?? (router.prefix || `/${plugin}`), route.path),
    })),
  );
}

/** What a plugin holder needs of the running app. */
export interface PluginHolderHost {
  strapi(): StrapiApp | undefined;
  /** a core controller or service the object holds (`factories.createCoreController(uid, cfg)`), made */
  coreFactoryInstance(record: CoreFactoryRecord): unknown;
}

export function createPluginHolder(
  name: string,
  server: PluginServer,
  defaults: PluginDefaults,
  host: PluginHolderHost,
): PluginHolder {
  const strapi = () => host.strapi();
  const declaredKeys = defaults.routes.map(routeKey);
  const instances = new Map<string, { from: unknown; made: unknown }>();

  const instance = (kind: 'controllers' | 'services', item: string): unknown => {
    const source = holder.server[kind][item];
    if (source === undefined) return undefined;
    const key = `${kind}:${item}`;
    const known = instances.get(key);
    if (known && known.from === source) return known.made;
    const record = coreFactoryRecord(source);
    const made: unknown = record
      ? host.coreFactoryInstance(record)
      : typeof source === 'function'
        ? callAppFunction(source, { strapi: strapi() })
        : source;
    instances.set(key, { from: source, made });
    return made;
  };
  const routesNow = (): AppRoute[] => contentApiRouters(holder.server).flatMap((router) => router.routes ?? []);
  const target = (handler: string): { bag: unknown; name: string } => {
    const [controller = '', action = ''] = handler.trim().replace(`plugin::${name}.`, '').split('.');
    return { bag: instance('controllers', controller), name: action };
  };
  const action = (handler: unknown): unknown => {
    if (typeof handler !== 'string') return handler;
    const found = target(handler);
    return isObject(found.bag) ? found.bag[found.name] : undefined;
  };

  const holder: PluginHolder = {
    name,
    server,
    controller(controller) {
      const made = instance('controllers', controller);
      return isObject(made) ? (made as MethodBag) : undefined;
    },
    controllerNames: () => Object.keys(holder.server.controllers),
    service: (service) => instance('services', service),
    ownService: (service) => {
      const own = defaults.ownServices?.() ?? {};
      return Object.hasOwn(own, service) ? own[service] : undefined;
    },
    changedService(service) {
      const source = holder.server.services[service];
      return typeof source === 'function' && builtInServiceFactories.has(source)
        ? undefined
        : instance('services', service);
    },
    handler(handlerName) {
      const { bag, name: actionName } = target(handlerName);
      if (!isObject(bag) || typeof bag[actionName] !== 'function') return undefined;
      // read on every call, as the app's own controllers' actions
      return (ctx, next) => callMethod(bag, actionName, ctx, next);
    },
    serviceNames: () => Object.keys(holder.server.services),
    middleware(middleware, config) {
      const factory = holder.server.middlewares[middleware];
      if (typeof factory !== 'function') return undefined;
      const made = callAppFunction(factory, config, { strapi: strapi() });
      return typeof made === 'function' ? (made as KoaMiddleware) : undefined;
    },
    servedByObject() {
      const routes = routesNow();
      if (routes.length !== declaredKeys.length) return true;
      return routes.some(
        (route, at) =>
          routeKey(route) !== declaredKeys[at] || action(route.handler) !== defaults.actions.get(String(route.handler)),
      );
    },
    contentApiRoutes: () => routesUnderPrefix(name, contentApiRouters(holder.server)),
    adminRoutes: () => routesUnderPrefix(name, adminRouters(holder.server)),
    addedActions() {
      const actions: string[] = [];
      for (const controller of holder.controllerNames()) {
        const bag = holder.controller(controller);
        for (const [actionName, value] of Object.entries(bag ?? {}))
          if (typeof value === 'function' && !defaults.actions.has(`${controller}.${actionName}`))
            actions.push(`plugin::${name}.${controller}.${actionName}`);
      }
      return actions;
    },
  };
  return holder;
}

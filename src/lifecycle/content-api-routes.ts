/**
 * The routes of the app's route files (`route-files.ts`), served as Strapi v4 serves them in the
 * content API, under the REST prefix:
 * - in Strapi's order: the files in turn, and within a file the routes with their own
 *   `config.prefix` first (they are not under the file's `prefix`), then the others; the first
 *   route that matches a request answers it (`GET /articles/:slug` of `01-custom.js` comes before
 *   the core `GET /articles/:id` of `article.js`);
 * - each composed by `route-endpoint.ts`: authentication with the route's `config.auth` (a string
 *   handler's permission is `api::<api>.<controller>.<action>` unless `auth` says otherwise),
 *   policies, middlewares, then the handler;
 * - a core route of `createCoreRouter` with nothing of that (no policies, no middlewares, no
 *   `auth.scope`, no prefix) is left to the REST routes (`rest/content-routes.ts`), which serve it
 *   without going through Koa: the requests it matches first pass straight on.
 * The files' routers are `strapi.api[<api>].routes[<file>]`, which the app's and the plugins'
 * register hooks may change (strapi-plugin-transformer adds a middleware to every route): the
 * routes are placed when composed, after register, as they are then.
 */
import { basename } from 'node:path';
import Router from '@koa/router';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ConfigError } from '../config/index.js';
import type { ContentType } from '../content-types/index.js';
import type { Logger } from '../logger.js';
import { koaHandler, type KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import { coreRoutes, type CoreRoute, type CoreRouteSettings } from '../rest/content-routes.js';
import { notePathMethods } from '../rest/error-middleware.js';
import type { ServiceContext } from '../service-context.js';
import {
  composeEndpoint,
  layerMethods,
  ROUTE_METHODS,
  routerMethod,
  type AppRoute,
  type EndpointHost,
  type ListedRoute,
  type RouterMethod,
} from './route-endpoint.js';
import type { CoreActionConfig, RouteFile } from './route-files.js';
import { coreRouteOf } from './strapi-factories.js';

/** One route of a file, where Strapi places it. */
interface PlacedRoute {
  label: string;
  /** the route as the file's router holds it */
  original: AppRoute;
  route: AppRoute;
  method: RouterMethod;
  /** under the REST prefix, the file's prefix applied */
  path: string;
  /** a core route the REST routes serve as they are */
  plain: boolean;
  /** composes the route (a plugin's routes resolve their handlers in the plugin's controllers) */
  endpoint?: EndpointHost;
}

export interface ContentApiRoutesOptions {
  files: RouteFile[];
  service: ServiceContext;
  apiPrefix: string;
  endpoint: EndpointHost;
  errors: ErrorRequestHandler;
  logger: Logger;
  /** plugins' routes may be added before `compose` (the app changed them): the handler is then there from the start */
  pluginRoutesPossible?: boolean;
  /** before an app handler runs: a multipart body read into `ctx.request.body` / `ctx.request.files` */
  prepareRequest?: (req: Request, res: Response) => Promise<void>;
}

/** A route file's router, as `strapi.api[<api>].routes[<file name>]` gives it. */
export interface ApiRouter {
  type: string;
  prefix: string | undefined;
  routes: AppRoute[];
}

export interface ContentApiRoutes {
  /** each api's routers by file name (without extension), live: changes made before `compose` are served */
  routers(): Record<string, Record<string, ApiRouter>>;
  /** what the REST routes serve of a content-type's core actions, when a route file says */
  coreSettings(uid: string): CoreRouteSettings | undefined;
  /** the handler in front of the REST routes; undefined when every route is a plain core route */
  handler: RequestHandler | undefined;
  /**
   * A plugin's content-API routes (paths under the REST prefix), served after the apis' own as
   * Strapi serves them; a string handler's permission is `plugin::<plugin>.<controller>.<action>`.
   * Before `compose`; needs `pluginRoutesPossible`.
   */
  addPluginRoutes(plugin: string, routes: AppRoute[], endpoint: EndpointHost): void;
  /** composes the endpoints (after the app's register); an unknown policy, middleware or handler throws */
  compose(): Promise<void>;
  /**
   * The routes under the REST prefix once composed, as Koa router layers list them: the apis' route
   * files, the core routes of a content-type without one, the plugin routes added here.
   */
  listRoutes(): ListedRoute[];
}

function hasScope(auth: CoreActionConfig['auth']): boolean {
  return typeof auth === 'object' && auth !== null && auth.scope !== undefined;
}

function hasStrategies(auth: CoreActionConfig['auth']): boolean {
  return typeof auth === 'object' && auth !== null && auth.strategies !== undefined;
}

function methodOf(label: string, route: AppRoute): RouterMethod {
  const where = `route ${String(route?.method)} ${String(route?.path)}`;
  if (route === null || typeof route !== 'object')
    throw new ConfigError(label, undefined, 'a route must be { method, path, handler }');
  const method = routerMethod(route.method);
  if (!method) throw new ConfigError(label, undefined, `${where}: method must be one of ${ROUTE_METHODS.join(', ')}`);
  if (typeof route.path !== 'string' || !route.path.startsWith('/'))
    throw new ConfigError(label, undefined, `${where}: path must be a string starting with "/"`);
  return method;
}

/** A string handler's permission, as Strapi gives it: `api::<api>.<handler>` (`plugin::<plugin>.<handler>`) unless `auth` is set. */
function withDefaultScope(route: AppRoute, prefix: string): AppRoute {
  const config = route.config ?? {};
  if (typeof route.handler !== 'string' || config.auth === false || hasScope(config.auth)) return route;
  const handler = route.handler.trim();
  const scope = [handler.startsWith(prefix) ? handler : `${prefix}${handler}`];
  return { ...route, config: { ...config, auth: { ...(config.auth ?? {}), scope } } };
}

/** A file's routes in Strapi's order: those with their own `config.prefix` first, then the others. */
function placeFile(label: string, api: string, prefix: string | undefined, routes: AppRoute[]): PlacedRoute[] {
  const own = (route: AppRoute) => route.config !== undefined && Object.hasOwn(route.config, 'prefix');
  return [...routes.filter(own), ...routes.filter((route) => !own(route))].map((route) => {
    const method = methodOf(label, route);
    const info = { ...route.info, apiName: api };
    return {
      label,
      original: route,
      route: withDefaultScope({ ...route, info }, `api::${api}.`),
      method,
      path: `${own(route) ? '' : (prefix ?? '')}${route.path}`,
      plain: false,
    };
  });
}

function servedActions(options: { only?: string[]; except?: string[] }, routes: CoreRoute[]): CoreRoute[] {
  return routes.filter(
    (r) =>
      !(options.except ?? []).includes(r.action) && (options.only === undefined || options.only.includes(r.action)),
  );
}

/** A core route as plain as the REST routes serve it: at its own path, with no policies, middlewares, scope or strategies. */
function isPlainCoreRoute(route: AppRoute, filePrefix: string | undefined): boolean {
  const { policies = [], middlewares = [], auth } = route.config ?? {};
  const ownPrefix = route.config !== undefined && Object.hasOwn(route.config, 'prefix');
  return (
    (ownPrefix || !filePrefix) &&
    policies.length === 0 &&
    middlewares.length === 0 &&
    !hasScope(auth) &&
    !hasStrategies(auth)
  );
}

/** The file name a router is known by in `strapi.api[<api>].routes`. */
function routerName(file: RouteFile): string {
  return basename(file.file).replace(/\.(js|cjs|ts)$/, '');
}

export function createContentApiRoutes(options: ContentApiRoutesOptions): ContentApiRoutes {
  const { service } = options;
  const settings = new Map<string, CoreRouteSettings>();
  const files: Array<{ file: RouteFile; router: ApiRouter }> = [];
  // the core routes the REST routes serve (what the files said at start-up)
  const plainAtStart = new Set<AppRoute>();
  const wrapped = new Set<string>();
  for (const file of options.files) {
    if (file.kind === 'custom') {
      files.push({ file, router: { type: 'content-api', prefix: file.prefix, routes: file.routes } });
      // a router wrapping a core router's list (`innerRouter.routes.concat(...)`) serves what it
      // kept of it as its own routes: the content-type's other core actions are not routed, as in Strapi
      for (const route of file.routes) {
        const core = coreRouteOf(route);
        if (core) wrapped.add(core.uid);
      }
      continue;
    }
    const ct: ContentType | undefined = service.registry.contentType(file.uid);
    if (!ct || ct.namespace !== 'api')
      throw new ConfigError(file.label, undefined, `createCoreRouter('${file.uid}'): no such content-type`);
    const served = servedActions(file.options, coreRoutes(service, ct));
    const config = (action: string): CoreActionConfig => file.options.config?.[action] ?? {};
    const routes: AppRoute[] = served.map((core) => ({
      method: core.method.toUpperCase(),
      path: core.path,
      handler: `${ct.uid}.${core.action}`,
      config: config(core.action),
    }));
    const plainActions = new Set<string>();
    for (const [at, route] of routes.entries()) {
      if (!isPlainCoreRoute(route, file.options.prefix)) continue;
      plainAtStart.add(route);
      plainActions.add(served[at]?.action ?? '');
    }
    settings.set(ct.uid, {
      serves: (action) => plainActions.has(action),
      isPublic: (action) => config(action).auth === false,
    });
    files.push({ file, router: { type: 'content-api', prefix: file.options.prefix, routes } });
  }

  for (const uid of wrapped) if (!settings.has(uid)) settings.set(uid, { serves: () => false, isPublic: () => false });

  /** The files' routes in Strapi's order, each plain while the REST routes can still serve it as it is. */
  const placeFiles = (): PlacedRoute[] =>
    files.flatMap(({ file, router }) =>
      placeFile(file.label, file.api, router.prefix, router.routes).map((r) => ({
        ...r,
        plain: plainAtStart.has(r.original) && isPlainCoreRoute(r.original, router.prefix),
      })),
    );
  // checked now, so that a route file's mistake stops start-up before anything else runs
  const placedAtStart = placeFiles();
  const pluginPlaced: PlacedRoute[] = [];

  const router = new Router<KoaContext>();
  const passOn: KoaMiddleware = (_ctx, next) => next();
  const dispatch = router.routes();
  const chain = koaHandler("the app's routes", () => dispatch, options.errors, options.logger, options.prepareRequest);
  // set once composed: before, or when every route is a plain core route, requests pass straight on
  let serving = false;
  const handler: RequestHandler | undefined =
    placedAtStart.every((r) => r.plain) && !options.pluginRoutesPossible
      ? undefined
      : (req, res, next) => {
          if (!serving) return next();
          const match = router.match(req.path, req.method);
          const first = match.pathAndMethod[0];
          if (first === undefined && match.path.length > 0)
            notePathMethods(
              req,
              match.path.flatMap((layer) => layer.methods),
            );
          if (first === undefined || first.stack[0] === passOn) next();
          else chain(req, res, next);
        };
  return {
    coreSettings: (uid) => settings.get(uid),
    handler,
    routers() {
      const byApi: Record<string, Record<string, ApiRouter>> = {};
      for (const { file, router } of files) (byApi[file.api] ??= {})[routerName(file)] = router;
      return byApi;
    },
    addPluginRoutes(plugin, routes, endpoint) {
      const label = `the ${plugin} plugin's routes`;
      for (const route of routes)
        pluginPlaced.push({
          label,
          original: route,
          route: withDefaultScope({ ...route, info: { ...route.info, pluginName: plugin } }, `plugin::${plugin}.`),
          method: methodOf(label, route),
          path: route.path,
          plain: false,
          endpoint,
        });
    },
    async compose() {
      // the apis' routes first: Strapi serves them before the plugins'
      const placed = [...placeFiles(), ...pluginPlaced];
      for (const item of placed) {
        const path = `${options.apiPrefix}${item.path}`;
        if (item.plain) router[item.method](path, passOn);
        else
          router[item.method](
            path,
            await composeEndpoint(item.endpoint ?? options.endpoint, item.route, 'content-api', item.label),
          );
      }
      serving = placed.some((item) => !item.plain);
    },
    listRoutes() {
      const listed = router.stack.map(({ path, methods }) => ({ path, methods }));
      for (const ct of service.registry.listContentTypes())
        if (ct.namespace === 'api' && !settings.has(ct.uid))
          for (const core of coreRoutes(service, ct))
            listed.push({ path: `${options.apiPrefix}${core.path}`, methods: layerMethods(core.method) });
      return listed;
    },
  };
}

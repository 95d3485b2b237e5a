/**
 * `strapi.server` of Strapi v4, on the Express app:
 * - `routes([...])` (outside the content API: only `auth: false` routes answer, as in Strapi) and
 *   `routes({ type: 'content-api', prefix, routes })` / `api('content-api').routes(...)` (under the
 *   REST prefix, with the content API's authentication), each route composed by `route-endpoint.ts`
 *   and matched by @koa/router, Strapi's own router, so paths read the same (`/:id`, `/:id(\\d+)`);
 *   added during `register` they are matched before the route files' and the plugins' routes,
 *   added later (bootstrap) after them, as Strapi registers its routers between the two;
 *   `router` is the root router itself;
 * - `use(middleware)` / `app.use(middleware)`: Koa middlewares; added during `register` they run
 *   before `config/middlewares`, added later they run after it, before the routes (Strapi's order);
 * - `httpServer`: the Node server the service listens on (socket.io and `ws` attach to it);
 * - `app.proxy`: trust `X-Forwarded-*`, as `config/server` `proxy`.
 * Requests no app route matches skip all of this.
 */
import type { Server } from 'node:http';
import Router from '@koa/router';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import compose from 'koa-compose';
import type { Logger } from '../logger.js';
import { koaHandler, type KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import {
  composeEndpoint,
  ROUTE_METHODS,
  routeHandlers,
  routerMethod,
  type AppRoute,
  type EndpointHost,
  type ListedRoute,
  type RouterMethod,
} from './route-endpoint.js';
import type { RouteApi } from '../access/route-auth.js';
import { strictObject, UnsupportedStrapiApi } from './unsupported.js';

/** `routes({ type, prefix, routes })`: a group of routes for one API. */
export interface RouteGroup {
  type?: string;
  prefix?: string;
  routes: AppRoute[];
}

export interface ServerApi {
  routes(routes: AppRoute[] | RouteGroup): ServerApi;
  use(middleware: KoaMiddleware): ServerApi;
  listRoutes(): ListedRoute[];
}

/** The Koa application as apps touch it. */
export interface KoaAppFacade {
  use(middleware: KoaMiddleware): KoaAppFacade;
  proxy: boolean;
  keys: string[];
}

export interface StrapiServer {
  app: KoaAppFacade;
  router: Router<KoaContext>;
  httpServer: Server;
  api(name: string): ServerApi;
  use(middleware: KoaMiddleware): StrapiServer;
  routes(routes: AppRoute[] | RouteGroup): StrapiServer;
  listRoutes(): ListedRoute[];
}

export interface AppServerOptions {
  httpServer: Server;
  /** `api.rest.prefix` */
  apiPrefix: string;
  proxy: { get(): boolean; set(on: boolean): void };
  keys: string[];
  /** the file whose code adds routes, for messages (the app's src/index) */
  source: string;
  endpoint: EndpointHost;
  errors: ErrorRequestHandler;
  logger: Logger;
  /** before an app handler runs: a multipart body read into `ctx.request.body` / `ctx.request.files` */
  prepareRequest?: (req: Request, res: Response) => Promise<void>;
  /** the content API's routes the service serves besides those added here (the apis', the plugins') */
  servedContentApiRoutes?: () => ListedRoute[];
  /** the plugins' admin routes the service serves (`auth: false`, at `/<plugin><path>`) */
  servedAdminRoutes?: () => ListedRoute[];
}

/** What the service mounts and calls around the `strapi.server` the app uses. */
export interface AppServer {
  server: StrapiServer;
  /** before config/middlewares: what `use` added during register */
  first: RequestHandler;
  /** after config/middlewares, before the routes: what `use` added after register */
  later: RequestHandler;
  /** the app's routes added during register: before the route files' and the plugins' */
  routes: RequestHandler;
  /** the app's routes added after register: after every other route */
  laterRoutes: RequestHandler;
  /** register is over: from now on `use` adds after config/middlewares, `routes` after the other routes */
  registered(): void;
  /** composes the routes added so far (a policy or middleware that cannot be found stops start-up) */
  settle(): Promise<void>;
}

class RouteError extends Error {
  constructor(route: unknown, message: string) {
    const { method, path } = (route ?? {}) as { method?: unknown; path?: unknown };
    super(`strapi.server.routes: route ${String(method)} ${String(path)}: ${message}`);
    this.name = 'RouteError';
  }
}

function checkRoute(route: AppRoute): RouterMethod {
  if (route === null || typeof route !== 'object') throw new RouteError(route, 'must be { method, path, handler }');
  const method = routerMethod(route.method);
  if (!method) throw new RouteError(route, `method must be one of ${ROUTE_METHODS.join(', ')}`);
  if (typeof route.path !== 'string' || !route.path.startsWith('/'))
    throw new RouteError(route, 'path must be a string starting with "/"');
  // a controller action named by a string is looked up once the routes are composed
  if (typeof route.handler !== 'string') {
    try {
      routeHandlers(route);
    } catch (err) {
      throw new RouteError(route, err instanceof Error ? err.message : String(err));
    }
  }
  return method;
}

/** Koa middlewares kept in a list and run in order, skipped entirely while the list is empty. */
function middlewareSlot(name: string, list: KoaMiddleware[], options: AppServerOptions): RequestHandler {
  const chain = koaHandler(name, () => compose(list), options.errors, options.logger);
  return (req, res, next) => (list.length === 0 ? next() : chain(req, res, next));
}

/** The routers of one place in the chain: outside the content API, and under its prefix. */
function routerPair(apiPrefix: string) {
  const root = new Router<KoaContext>();
  const contentApi = new Router<KoaContext>({ prefix: apiPrefix });
  const matches = (req: Request) =>
    root.match(req.path, req.method).route || contentApi.match(req.path, req.method).route;
  const dispatch = compose([root.routes(), contentApi.routes()]);
  return { root, contentApi, matches, dispatch };
}

export function createAppServer(options: AppServerOptions): AppServer {
  const early = routerPair(options.apiPrefix);
  const late = routerPair(options.apiPrefix);
  const root = early.root;
  const placed = () => (registering ? early : late);
  const earlyMiddlewares: KoaMiddleware[] = [];
  const lateMiddlewares: KoaMiddleware[] = [];
  let registering = true;
  // routes are composed in the order they were added, once start-up reaches settle()
  let pending: Array<{
    route: AppRoute;
    method: RouterMethod;
    path: string;
    api: RouteApi;
    router: Router<KoaContext>;
  }> = [];
  let settled: Promise<void> | undefined;

  const add = async (item: (typeof pending)[number]) => {
    const endpoint = await composeEndpoint(options.endpoint, item.route, item.api, options.source);
    item.router[item.method](item.path, endpoint);
  };
  const addRoutes = (routes: AppRoute[] | RouteGroup, api: RouteApi, router: Router<KoaContext>) => {
    const group: RouteGroup = Array.isArray(routes) ? { routes } : routes;
    if (!Array.isArray(group.routes))
      throw new UnsupportedStrapiApi(
        'strapi.server.routes(x)',
        'x must be an array of routes or { type, prefix, routes }',
      );
    for (const route of group.routes) {
      const method = checkRoute(route);
      // a route with its own `config.prefix` is not under the group's prefix (Strapi's rule)
      const own = route.config !== undefined && Object.hasOwn(route.config, 'prefix');
      const path = `${own ? '' : (group.prefix ?? '')}${route.path}`;
      const item = { route, method, path, api, router };
      if (settled)
        settled = settled.then(() => add(item)).catch((err: unknown) => options.logger.error({ err }, String(err)));
      else pending.push(item);
    }
  };
  const listed = (routers: Router<KoaContext>[]): ListedRoute[] =>
    routers.flatMap((router) => router.stack).map(({ path, methods }) => ({ path, methods }));
  const noAdminPanel = (call: string) =>
    new UnsupportedStrapiApi(call, "the admin panel is not part of this service; it offers api('content-api')");
  const apis: Record<string, ServerApi> = {
    // plugins read its routes (strapi-plugin-rest-cache checks its configured routes against them)
    admin: {
      routes() {
        throw noAdminPanel("strapi.server.api('admin').routes");
      },
      use() {
        throw noAdminPanel("strapi.server.api('admin').use");
      },
      listRoutes: () => options.servedAdminRoutes?.() ?? [],
    },
    'content-api': {
      listRoutes: () => [...(options.servedContentApiRoutes?.() ?? []), ...listed([early.contentApi, late.contentApi])],
      routes(routes) {
        addRoutes(routes, 'content-api', placed().contentApi);
        return this;
      },
      use(middleware) {
        early.contentApi.use(middleware);
        late.contentApi.use(middleware);
        return this;
      },
    },
  };
  const use = (middleware: KoaMiddleware) => {
    if (typeof middleware !== 'function')
      throw new UnsupportedStrapiApi('strapi.server.use(x)', 'x must be a Koa middleware (ctx, next) => { … }');
    (registering ? earlyMiddlewares : lateMiddlewares).push(middleware);
  };
  const app: KoaAppFacade = strictObject(
    {
      use(middleware: KoaMiddleware) {
        use(middleware);
        return app;
      },
      get proxy() {
        return options.proxy.get();
      },
      set proxy(on: boolean) {
        options.proxy.set(on);
      },
      keys: options.keys,
    },
    'strapi.server.app',
    'use(middleware), proxy, keys',
  );
  const server: StrapiServer = strictObject<StrapiServer>(
    {
      app,
      router: root,
      httpServer: options.httpServer,
      api(name) {
        const api = apis[name];
        if (!api) throw noAdminPanel(`strapi.server.api('${name}')`);
        return api;
      },
      use(middleware) {
        use(middleware);
        return server;
      },
      routes(routes) {
        const type = Array.isArray(routes) ? undefined : routes.type;
        if (type === undefined) addRoutes(routes, 'api', placed().root);
        else server.api(type).routes(routes);
        return server;
      },
      // Strapi's: its own router's routes, then each api's
      listRoutes: () => [
        ...listed([early.root, late.root]),
        ...apis['content-api'].listRoutes(),
        ...apis.admin.listRoutes(),
      ],
    },
    'strapi.server',
    'app, router, httpServer, api(name), use(middleware), routes(routes), listRoutes()',
  );

  const routeHandler = ({ matches, dispatch }: ReturnType<typeof routerPair>): RequestHandler => {
    const chain = koaHandler(
      'strapi.server routes',
      () => dispatch,
      options.errors,
      options.logger,
      options.prepareRequest,
    );
    return (req, res, next) => (matches(req) ? chain(req, res, next) : next());
  };
  return {
    server,
    first: middlewareSlot('strapi.server.use', earlyMiddlewares, options),
    later: middlewareSlot('strapi.server.use', lateMiddlewares, options),
    routes: routeHandler(early),
    laterRoutes: routeHandler(late),
    registered() {
      registering = false;
    },
    async settle() {
      const items = pending;
      pending = [];
      for (const item of items) await add(item);
      settled = Promise.resolve();
    },
  };
}

/**
 * The admin routes of the project's plugins (a router of `type: 'admin'`, Strapi's default type for
 * a plugin's routers, or a plugin's `routes` given as an array) that Strapi answers without an
 * admin's session: those marked `config.auth: false`. Strapi's admin API has no prefix of its own,
 * so such a route answers at `/<plugin><path>` (the router's `prefix`, or the route's
 * `config.prefix`, instead), outside the REST prefix: strapi-health-plugin's `ALL /health`.
 * Each is composed as the app's routes are (`route-endpoint.ts`: its policies, middlewares and
 * handler, a string handler being the plugin's controller action).
 *
 * The other admin routes need the admin panel's authentication, which this service has no panel
 * to give: they stay unserved (404), as do `auth: false` routes guarded by an `admin::` policy
 * (an admin's session again) and those that cannot be composed (warned).
 */
import Router from '@koa/router';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import { koaHandler } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import { composeEndpoint, routerMethod, type AppRoute, type EndpointHost, type ListedRoute } from './route-endpoint.js';

export interface PluginAdminRoutesOptions {
  errors: ErrorRequestHandler;
  logger: Logger;
  /** before a handler runs: a multipart body read into `ctx.request.body` / `ctx.request.files` */
  prepareRequest?: (req: Request, res: Response) => Promise<void>;
}

export interface PluginAdminRoutes {
  /** answers the requests a served admin route matches; the others pass on */
  handler: RequestHandler;
  /** serves what a plugin's admin routes allow without an admin; answers how many stay unserved */
  add(plugin: string, routes: AppRoute[], endpoint: EndpointHost): Promise<number>;
  /** the routes served, as Koa router layers list them (`strapi.server.api('admin').listRoutes()`) */
  listRoutes(): ListedRoute[];
}

/** Whether a route needs no admin: `auth: false` and no policy of the admin's. */
function servedWithoutAdmin(route: AppRoute): boolean {
  if (route.config?.auth !== false) return false;
  return !(route.config.policies ?? []).some((policy) => {
    const name = typeof policy === 'string' ? policy : typeof policy === 'function' ? '' : policy.name;
    return name.startsWith('admin::');
  });
}

export function createPluginAdminRoutes(options: PluginAdminRoutesOptions): PluginAdminRoutes {
  const router = new Router<KoaContext>();
  const dispatch = router.routes();
  const chain = koaHandler(
    "the plugins' admin routes",
    () => dispatch,
    options.errors,
    options.logger,
    options.prepareRequest,
  );
  return {
    handler: (req, res, next) => (router.match(req.path, req.method).route ? chain(req, res, next) : next()),
    listRoutes: () => router.stack.map(({ path, methods }) => ({ path, methods })),
    async add(plugin, routes, endpoint) {
      let unserved = 0;
      for (const route of routes) {
        const method = routerMethod(route.method);
        if (!method || typeof route.path !== 'string' || !servedWithoutAdmin(route)) {
          unserved++;
          continue;
        }
        try {
          const info = { ...route.info, pluginName: plugin };
          router[method](
            route.path,
            await composeEndpoint(endpoint, { ...route, info }, 'admin', `the ${plugin} plugin`),
          );
        } catch (err) {
          unserved++;
          options.logger.warn(
            `the ${plugin} plugin's admin route ${String(route.method)} ${route.path} is not served: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
      return unserved;
    },
  };
}

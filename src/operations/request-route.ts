/**
 * The route a request matched, as Strapi 4.26 hands it to the request's middlewares in
 * `ctx.state.route` (`{ method, path, handler, config, info: { apiName | pluginName, type } }`,
 * the path as the route declares it, without the REST prefix). Routes composed as Koa endpoints
 * set it themselves; the core REST routes and the built-in plugins' routes, which Express serves
 * directly, record theirs here, so that a global middleware reading `ctx.state.route` after
 * `await next()` (an activity log keyed on `route.path` or `route.info.apiName`) finds it.
 */
import type { Request } from 'express';

export interface RouteInfo {
  method?: string;
  path?: string;
  handler?: string;
  config?: Record<string, unknown>;
  info: Record<string, unknown>;
}

/** What Strapi's GraphQL endpoint puts in `ctx.state.route` before it authenticates: a content-API route, no more. */
export const GRAPHQL_ROUTE: RouteInfo = { info: { type: 'content-api' } };

const matched = new WeakMap<Request, RouteInfo>();

export function setRequestRoute(req: Request, route: RouteInfo): void {
  matched.set(req, route);
}

/** A copy of the route the request matched (Strapi hands each request its own), or undefined. */
export function requestRoute(req: Request): RouteInfo | undefined {
  const route = matched.get(req);
  if (!route) return undefined;
  return { ...route, ...(route.config ? { config: { ...route.config } } : {}), info: { ...route.info } };
}

/** A route's `config.auth` as Strapi's router fills it: its scope is the handler's action, unless `auth: false`. */
function authConfig(action: string, isPublic: boolean): Record<string, unknown> {
  return isPublic ? { auth: false } : { auth: { scope: [action] } };
}

/** A core route of `createCoreRouter`: handler `<uid>.<action>`, in its api. */
export function coreRouteInfo(uid: string, action: string, method: string, path: string, isPublic: boolean): RouteInfo {
  const [apiName = ''] = uid.replace(/^api::/, '').split('.');
  const handler = `${uid}.${action}`;
  return {
    method: method.toUpperCase(),
    path,
    handler,
    config: authConfig(handler, isPublic),
    info: { apiName, type: 'content-api' },
  };
}

/** A built-in plugin's content-API route: handler `<controller>.<action>`, scope `plugin::<plugin>.<controller>.<action>`. */
export function pluginRouteInfo(
  plugin: string,
  route: { method: string; path: string; handler: string; config?: Record<string, unknown> },
): RouteInfo {
  return {
    method: route.method.toUpperCase(),
    path: route.path,
    handler: route.handler,
    config: { ...route.config, ...authConfig(`plugin::${plugin}.${route.handler}`, false) },
    info: { pluginName: plugin, type: 'content-api' },
  };
}

/**
 * A core REST route running the app's controller action (its controller or service takes part in
 * it), as Strapi v4's router runs a handler: over the request's Koa-like context, with the route's
 * `ctx.params`, `ctx.state.route` and `ctx.state.auth`; a returned value becomes the body unless
 * the action set one; what the action throws answers as Strapi's error middleware does.
 */
import { authState } from '../access/auth-state.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import { koaHandler, type KoaMiddleware } from '../middlewares/koa-bridge.js';
import { requestAuth } from '../operations/request-context.js';
import { requestRoute } from '../operations/request-route.js';
import type { AppCode } from './app-controllers.js';
import { extendsCoreAction, type AppRegistries } from './sanitizer-registries.js';

export interface RestActionOptions {
  code: AppCode;
  errors: ErrorRequestHandler;
  logger: Logger;
  /** before an app handler runs: a multipart body read into `ctx.request.body` / `ctx.request.files` */
  prepareRequest?: (req: Request, res: Response) => Promise<void>;
  /** `strapi.sanitizers` / `strapi.validators` of an app with code (absent: none can be registered) */
  registries?: AppRegistries;
}

function endpoint(handler: KoaMiddleware): KoaMiddleware {
  return async (ctx) => {
    const auth = requestAuth(ctx.req);
    // the core routes' only parameter is `:id`
    ctx.params = Object.fromEntries(Object.entries(ctx.req.params).map(([key, value]) => [key, String(value)]));
    // the core route the REST routes matched (Strapi's route-info step sets it whatever was there)
    ctx.state.route = requestRoute(ctx.req);
    ctx.state.isAuthenticated = true;
    ctx.state.auth = authState(auth);
    // the end of the route's chain: nothing after the handler
    const value = await handler(ctx, async () => undefined);
    if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
  };
}

/**
 * The `appAction` of a content-type's core routes: the app's action when its code takes part in
 * it (its controller or service, or a sanitizer it registered that the action runs), else
 * undefined (the route's direct operation). undefined for a content-type with no code of the
 * app's in an app that cannot register sanitizers, so its routes ask nothing per request; with
 * code elsewhere in the app, they ask the registries (one look-up while they hold nothing).
 */
export function restActions(
  options: RestActionOptions,
  uid: string,
): ((action: string) => RequestHandler | undefined) | undefined {
  const { code, registries } = options;
  const customised = code.customises(uid);
  if (!customised && !registries) return undefined;
  const handlers = new Map<string, RequestHandler>();
  return (action) => {
    if (!customised && !(registries && extendsCoreAction(registries, action))) return undefined;
    const handler = code.restAction(uid, action);
    if (!handler) return undefined;
    let route = handlers.get(action);
    if (!route) {
      // the handler looks the action up on each call: one made once serves every request
      const middleware = endpoint(handler);
      route = koaHandler(`${uid}.${action}`, () => middleware, options.errors, options.logger, options.prepareRequest);
      handlers.set(action, route);
    }
    return route;
  };
}

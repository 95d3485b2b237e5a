import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ForbiddenError } from '../errors/index.js';
import * as operations from '../operations/index.js';
import type { ServiceContext } from '../service-context.js';
import { methodNotAllowed } from './error-middleware.js';
import { operationContext, rawQuery, requestAuth } from '../operations/request-context.js';

type Handler = (req: Request, res: Response) => Promise<unknown>;

/** What the app's `createCoreRouter(uid, { only, except, config })` says about a content-type's core actions. */
export interface CoreRouteSettings {
  /** false for an action left out by `only` / `except`: its route is not there */
  serves(action: string): boolean;
  /** `config.<action>.auth: false`: anyone may call it, with no permission check */
  isPublic(action: string): boolean;
  /** the app's controller action to run instead of the direct operation (its code takes part in it), asked per request */
  appAction?(action: string): RequestHandler | undefined;
}

export const DEFAULT_SETTINGS: CoreRouteSettings = { serves: () => true, isPublic: () => false };

/** Checks `<uid>.<action>` against the caller's ability: 403 (or 401 for a public caller when Strapi does so). */
export function requirePermission(req: Request, uid: string, action: string): void {
  const auth = requestAuth(req);
  if (auth.ability.can(`${uid}.${action}`)) return;
  throw new ForbiddenError();
}

function route(uid: string, action: string, settings: CoreRouteSettings, handler: Handler): RequestHandler {
  const isPublic = settings.isPublic(action);
  return async (req, res, next) => {
    if (!isPublic) requirePermission(req, uid, action);
    const own = settings.appAction?.(action);
    if (own) return own(req, res, next);
    const result = await handler(req, res);
    res.status(200).json(result);
  };
}

type Method = 'get' | 'post' | 'put' | 'delete';
interface CoreRoute {
  method: Method;
  action: string;
  handler: Handler;
}

/**
 * Mounts one path's core routes; a path whose every action is left out is not mounted at all
 * (an unknown route), one with some left is answered 405 for the others.
 */
function mountPath(router: Router, path: string, uid: string, settings: CoreRouteSettings, routes: CoreRoute[]): void {
  const served = routes.filter((r) => settings.serves(r.action));
  if (served.length === 0) return;
  const chain = router.route(path);
  for (const r of served) chain[r.method](route(uid, r.action, settings, r.handler));
  chain.all(methodNotAllowed);
}

/**
 * `/api/<plural>` and `/api/<plural>/:id` for collection types, `/api/<singular>` for single types;
 * `settingsOf(uid)`: the app's core router options for the content-type, when it has some.
 */
export function contentRoutes(
  service: ServiceContext,
  settingsOf: (uid: string) => CoreRouteSettings | undefined = () => undefined,
): Router {
  const router = Router();
  for (const ct of service.registry.listContentTypes()) {
    if (ct.namespace !== 'api') continue;
    const uid = ct.uid;
    const settings = settingsOf(uid) ?? DEFAULT_SETTINGS;
    const ctx = (req: Request) => operationContext(service, req);
    const id = (req: Request) => String(req.params.id);
    if (ct.kind === 'collectionType') {
      mountPath(router, `/${ct.pluralName}`, uid, settings, [
        { method: 'get', action: 'find', handler: (req) => operations.find(ctx(req), uid, rawQuery(req)) },
        {
          method: 'post',
          action: 'create',
          handler: (req) => operations.create(ctx(req), uid, req.body, rawQuery(req)),
        },
      ]);
      mountPath(router, `/${ct.pluralName}/:id`, uid, settings, [
        {
          method: 'get',
          action: 'findOne',
          handler: (req) => operations.findOne(ctx(req), uid, id(req), rawQuery(req)),
        },
        {
          method: 'put',
          action: 'update',
          handler: (req) => operations.update(ctx(req), uid, id(req), req.body, rawQuery(req)),
        },
        {
          method: 'delete',
          action: 'delete',
          handler: (req) => operations.remove(ctx(req), uid, id(req), rawQuery(req)),
        },
      ]);
    } else {
      mountPath(router, `/${ct.singularName}`, uid, settings, [
        { method: 'get', action: 'find', handler: (req) => operations.findSingle(ctx(req), uid, rawQuery(req)) },
        {
          method: 'put',
          action: 'update',
          handler: (req) => operations.upsertSingle(ctx(req), uid, req.body, rawQuery(req)),
        },
        { method: 'delete', action: 'delete', handler: (req) => operations.deleteSingle(ctx(req), uid, rawQuery(req)) },
      ]);
    }
  }
  return router;
}

import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ContentType } from '../content-types/index.js';
import { ForbiddenError } from '../errors/index.js';
import * as operations from '../operations/index.js';
import type { ServiceContext } from '../service-context.js';
import { methodNotAllowed } from './error-middleware.js';
import { operationContext, rawQuery, requestAuth } from '../operations/request-context.js';
import { coreRouteInfo, setRequestRoute } from '../operations/request-route.js';
import { withWriteBody, type WriteTarget } from '../plugins/upload/multipart-entry.js';

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

function route(uid: string, core: CoreRoute, settings: CoreRouteSettings): RequestHandler {
  const { action, handler } = core;
  const isPublic = settings.isPublic(action);
  const info = coreRouteInfo(uid, action, core.method, core.path, isPublic);
  return async (req, res, next) => {
    setRequestRoute(req, info);
    if (!isPublic) requirePermission(req, uid, action);
    const own = settings.appAction?.(action);
    if (own) return own(req, res, next);
    const result = await handler(req, res);
    res.status(200).json(result);
  };
}

/** One core route of a content-type, as Strapi's `createCoreRouter` lists them. */
export interface CoreRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** under the REST prefix: `/articles`, `/articles/:id`, `/homepage` */
  path: string;
  action: string;
  handler: Handler;
}

/**
 * Mounts one path's core routes; a path whose every action is left out is not mounted at all
 * (an unknown route), one with some left is answered 405 for the others.
 */
function mountPath(router: Router, path: string, uid: string, settings: CoreRouteSettings, routes: CoreRoute[]): void {
  const served = routes.filter((r) => r.path === path && settings.serves(r.action));
  if (served.length === 0) return;
  const chain = router.route(path);
  for (const r of served) chain[r.method](route(uid, r, settings));
  chain.all(methodNotAllowed);
}

/** The core routes of an api content-type, in Strapi's order: find, findOne, create, update, delete. */
export function coreRoutes(service: ServiceContext, ct: ContentType): CoreRoute[] {
  const uid = ct.uid;
  const ctx = (req: Request) => operationContext(service, req);
  const id = (req: Request) => String(req.params.id);
  /** a write's body: JSON, or multipart/form-data (`data` and `files.<path>`, stored first) */
  const written = <T>(req: Request, target: WriteTarget, write: (body: unknown) => Promise<T>) =>
    // the registry's schema now: the app's register hooks may have changed its attributes since
    withWriteBody(service, req, service.registry.contentType(uid) ?? ct, target, req.body, write);
  if (ct.kind === 'collectionType') {
    const list = `/${ct.pluralName}`;
    const one = `/${ct.pluralName}/:id`;
    return [
      { method: 'get', path: list, action: 'find', handler: (req) => operations.find(ctx(req), uid, rawQuery(req)) },
      {
        method: 'get',
        path: one,
        action: 'findOne',
        handler: (req) => operations.findOne(ctx(req), uid, id(req), rawQuery(req)),
      },
      {
        method: 'post',
        path: list,
        action: 'create',
        handler: (req) =>
          written(req, { kind: 'create' }, (body) => operations.create(ctx(req), uid, body, rawQuery(req))),
      },
      {
        method: 'put',
        path: one,
        action: 'update',
        handler: (req) =>
          written(req, { kind: 'update', id: id(req) }, (body) =>
            operations.update(ctx(req), uid, id(req), body, rawQuery(req)),
          ),
      },
      {
        method: 'delete',
        path: one,
        action: 'delete',
        handler: (req) => operations.remove(ctx(req), uid, id(req), rawQuery(req)),
      },
    ];
  }
  const path = `/${ct.singularName}`;
  return [
    { method: 'get', path, action: 'find', handler: (req) => operations.findSingle(ctx(req), uid, rawQuery(req)) },
    {
      method: 'put',
      path,
      action: 'update',
      handler: (req) =>
        written(req, { kind: 'single', locale: rawQuery(req).locale }, (body) =>
          operations.upsertSingle(ctx(req), uid, body, rawQuery(req)),
        ),
    },
    {
      method: 'delete',
      path,
      action: 'delete',
      handler: (req) => operations.deleteSingle(ctx(req), uid, rawQuery(req)),
    },
  ];
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
    const settings = settingsOf(ct.uid) ?? DEFAULT_SETTINGS;
    const routes = coreRoutes(service, ct);
    for (const path of new Set(routes.map((r) => r.path))) mountPath(router, path, ct.uid, settings, routes);
  }
  return router;
}

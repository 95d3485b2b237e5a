import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ForbiddenError } from '../errors/index.js';
import * as operations from '../operations/index.js';
import type { ServiceContext } from '../service-context.js';
import { methodNotAllowed } from './error-middleware.js';
import { operationContext, rawQuery, requestAuth } from '../operations/request-context.js';

type Handler = (req: Request, res: Response) => Promise<unknown>;

/** Checks `<uid>.<action>` against the caller's ability: 403 (or 401 for a public caller when Strapi does so). */
export function requirePermission(req: Request, uid: string, action: string): void {
  const auth = requestAuth(req);
  if (auth.ability.can(`${uid}.${action}`)) return;
  throw new ForbiddenError();
}

function route(service: ServiceContext, uid: string, action: string, handler: Handler): RequestHandler {
  return async (req, res) => {
    requirePermission(req, uid, action);
    const result = await handler(req, res);
    res.status(200).json(result);
  };
}

/** `/api/<plural>` and `/api/<plural>/:id` for collection types, `/api/<singular>` for single types. */
export function contentRoutes(service: ServiceContext): Router {
  const router = Router();
  for (const ct of service.registry.listContentTypes()) {
    if (ct.namespace !== 'api') continue;
    const uid = ct.uid;
    const ctx = (req: Request) => operationContext(service, req);
    if (ct.kind === 'collectionType') {
      router
        .route(`/${ct.pluralName}`)
        .get(route(service, uid, 'find', (req) => operations.find(ctx(req), uid, rawQuery(req))))
        .post(route(service, uid, 'create', (req) => operations.create(ctx(req), uid, req.body, rawQuery(req))))
        .all(methodNotAllowed);
      router
        .route(`/${ct.pluralName}/:id`)
        .get(
          route(service, uid, 'findOne', (req) =>
            operations.findOne(ctx(req), uid, String(req.params.id), rawQuery(req)),
          ),
        )
        .put(
          route(service, uid, 'update', (req) =>
            operations.update(ctx(req), uid, String(req.params.id), req.body, rawQuery(req)),
          ),
        )
        .delete(
          route(service, uid, 'delete', (req) =>
            operations.remove(ctx(req), uid, String(req.params.id), rawQuery(req)),
          ),
        )
        .all(methodNotAllowed);
    } else {
      router
        .route(`/${ct.singularName}`)
        .get(route(service, uid, 'find', (req) => operations.findSingle(ctx(req), uid, rawQuery(req))))
        .put(route(service, uid, 'update', (req) => operations.upsertSingle(ctx(req), uid, req.body, rawQuery(req))))
        .delete(route(service, uid, 'delete', (req) => operations.deleteSingle(ctx(req), uid, rawQuery(req))))
        .all(methodNotAllowed);
    }
  }
  return router;
}

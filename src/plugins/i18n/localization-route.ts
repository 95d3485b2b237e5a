import { Router } from 'express';
import { ForbiddenError } from '../../errors/index.js';
import { createLocalization } from '../../operations/localizations.js';
import { operationContext, rawQuery, requestAuth } from '../../rest/request-context.js';
import type { ServiceContext } from '../../service-context.js';

/** `POST /api/<plural>/:id/localizations` for every localized collection type (permission `<uid>.createLocalization`). */
export function localizationRoutes(service: ServiceContext): Router {
  const router = Router();
  for (const contentType of service.registry.listContentTypes()) {
    if (contentType.namespace !== 'api' || !contentType.localized || contentType.kind !== 'collectionType') continue;
    const uid = contentType.uid;
    router.post(`/${contentType.pluralName}/:id/localizations`, async (req, res) => {
      if (!requestAuth(req).ability.can(`${uid}.createLocalization`)) throw new ForbiddenError();
      res.status(200).json(await createLocalization(operationContext(service, req), uid, String(req.params.id), req.body, rawQuery(req)));
    });
  }
  return router;
}

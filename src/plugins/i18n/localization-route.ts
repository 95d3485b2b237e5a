import type { Router } from 'express';
import { ForbiddenError } from '../../errors/index.js';
import { createLocalization } from '../../operations/localizations.js';
import { operationContext, rawQuery, requestAuth } from '../../operations/request-context.js';
import { withWriteBody } from '../upload/multipart-entry.js';
import { isMultipart } from '../upload/index.js';
import type { ServiceContext } from '../../service-context.js';

/**
 * `POST /api/<plural>/:id/localizations` for every localized collection type and
 * `POST /api/<singular>/localizations` for localized single types (permission `<uid>.createLocalization`).
 * The body is the flat entry; a multipart/form-data one carries it as JSON in `data`, its files under
 * `files.<path>` (Strapi's `parseMultipartData`).
 */
export function localizationRoutes(service: ServiceContext, router: Router): void {
  for (const contentType of service.registry.listContentTypes()) {
    if (contentType.namespace !== 'api' || !contentType.localized) continue;
    const uid = contentType.uid;
    const single = contentType.kind === 'singleType';
    const path = single ? `/${contentType.singularName}/localizations` : `/${contentType.pluralName}/:id/localizations`;
    router.post(path, async (req, res) => {
      if (!requestAuth(req).ability.can(`${uid}.createLocalization`)) throw new ForbiddenError();
      const sourceId = single ? null : String(req.params.id);
      const create = (body: unknown) =>
        createLocalization(operationContext(service, req), uid, sourceId, body, rawQuery(req));
      const fromData = (multipart: unknown) => create((multipart as { data: unknown }).data);
      const answer = isMultipart(req)
        ? await withWriteBody(service, req, contentType, { kind: 'create' }, req.body, fromData)
        : await create(req.body);
      res.status(200).json(answer);
    });
  }
}

import type { ContentType } from '../content-types/index.js';
import { NotFoundError } from '../errors/index.js';
import type { ServiceContext } from '../service-context.js';

/** The content-type an operation was routed to (a 404 if the uid is not one). */
export function writableContentType(ctx: ServiceContext, uid: string): ContentType {
  const contentType = ctx.registry.contentType(uid);
  if (!contentType) throw new NotFoundError();
  return contentType;
}

import { entryIdFromPath } from '../content-types/index.js';
import { NotFoundError } from '../errors/index.js';
import { readEntry } from '../query/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/**
 * GET /api/<plural>/:id. An id that names no whole number (`abc`, `1.5`), a missing entry and
 * a draft read without `publicationState=preview` (Strapi answers it: docs/strapi-deviations.md)
 * are 404s. `locale` is ignored.
 */
export async function findOne(ctx: OperationContext, uid: string, id: string, query: RawQuery): Promise<EntryResponse> {
  const entryId = entryIdFromPath(id);
  if (entryId === undefined) throw new NotFoundError();
  const entry = await readEntry(ctx, uid, { _id: entryId }, query);
  if (!entry) throw new NotFoundError();
  return { data: entry, meta: {} };
}

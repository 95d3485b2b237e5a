import { NotFoundError } from '../errors/index.js';
import { readEntry } from '../query/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/**
 * GET /api/<plural>/:id. An id that is not a positive integer (`abc`, `1.5`), a missing entry and
 * a draft read without `publicationState=preview` (Strapi answers it: docs/strapi-deviations.md)
 * are 404s. `locale` is ignored.
 */
export async function findOne(ctx: OperationContext, uid: string, id: string, query: RawQuery): Promise<EntryResponse> {
  if (!/^[1-9]\d{0,14}$/.test(id)) throw new NotFoundError();
  const entry = await readEntry(ctx, uid, { _id: Number(id) }, query);
  if (!entry) throw new NotFoundError();
  return { data: entry, meta: {} };
}

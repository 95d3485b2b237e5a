import { readEntries } from '../query/index.js';
import type { CollectionResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<plural>: a page of entries with Strapi's `meta.pagination`; the app's findMany and count hooks run around it. */
export async function find(ctx: OperationContext, uid: string, query: RawQuery): Promise<CollectionResponse> {
  const { entries, pagination } = await readEntries(ctx, uid, query, { lifecycles: ctx.lifecycles });
  return { data: entries, meta: { pagination } };
}

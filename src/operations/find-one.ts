import { entryIdFromPath } from '../content-types/index.js';
import { NotFoundError } from '../errors/index.js';
import { checkEntryQuery, readEntry } from '../query/index.js';
import type { DbLifecycles } from '../service-context.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/**
 * GET /api/<plural>/:id. An id that names no whole number (`abc`, `1.5`), a missing entry and
 * a draft read without `publicationState=preview` (Strapi answers it: docs/strapi-deviations.md)
 * are 404s, after the query's check (its 400 comes first, as in Strapi). `locale` is ignored. The app's findOne hooks see `where: { id }`, as Strapi's.
 * Strapi's findOne never reads `publicationState` (any value, even `draft` or an object,
 * answers): here it only says whether a draft shows, so anything but `preview` reads as `live`,
 * never a 400.
 */
export function findOne(ctx: OperationContext, uid: string, id: string, query: RawQuery): Promise<EntryResponse> {
  return readOne(ctx, uid, id, query, ctx.lifecycles);
}

/** A written entry read back for its write's answer, which ran its own hooks: no read hooks. */
export function findWritten(ctx: OperationContext, uid: string, id: string, query: RawQuery): Promise<EntryResponse> {
  return readOne(ctx, uid, id, query, undefined);
}

async function readOne(
  ctx: OperationContext,
  uid: string,
  id: string,
  query: RawQuery,
  lifecycles: DbLifecycles | undefined,
): Promise<EntryResponse> {
  const entryId = entryIdFromPath(id);
  const publicationState = query.publicationState === 'preview' ? 'preview' : undefined;
  if (entryId === undefined) {
    // Strapi checks the query before it looks for the entry: a bad one is its 400 whatever the id
    checkEntryQuery(ctx, uid, { ...query, publicationState });
    throw new NotFoundError();
  }
  const entry = await readEntry(
    ctx,
    uid,
    { _id: entryId },
    { ...query, publicationState },
    { lifecycles, where: { id } },
  );
  if (!entry) throw new NotFoundError();
  return { data: entry, meta: {} };
}

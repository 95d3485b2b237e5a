import type { ContentType } from '../content-types/index.js';
import { NotFoundError } from '../errors/index.js';
import {
  createEntry,
  entries,
  readDataPayload,
  dataObject,
  resolveLocale,
  SingleEntryTaken,
  updateEntry,
  writableContentType,
  type StoredEntry,
} from '../write/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
import { queryLocale } from './create.js';
import { deleteLoaded } from './delete.js';
import { answerEntry, checkAnswerQuery } from './write-answer.js';

/** The single type's entry (of the requested locale when localized), if it exists. */
async function singleEntry(
  ctx: OperationContext,
  contentType: ContentType,
  query: RawQuery,
  data: Record<string, unknown> = {},
): Promise<StoredEntry | null> {
  const filter = contentType.localized ? { locale: resolveLocale(ctx, queryLocale(query) ?? data.locale) } : {};
  return entries(ctx.models, contentType.uid).findOne(filter, { sort: { _id: 1 } });
}

/** PUT /api/<singular>: creates the entry or updates it. */
export async function upsertSingle(
  ctx: OperationContext,
  uid: string,
  body: unknown,
  query: RawQuery,
): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  await checkAnswerQuery(ctx, uid, query);
  const data = dataObject(readDataPayload(body));
  const id = await writeSingle(ctx, contentType, query, data);
  return answerEntry(ctx, uid, id, query);
}

/** Updates the entry, or creates it; a create that another request beat (the type's unique index) updates instead. */
async function writeSingle(
  ctx: OperationContext,
  contentType: ContentType,
  query: RawQuery,
  data: Record<string, unknown>,
): Promise<number> {
  for (;;) {
    const existing = await singleEntry(ctx, contentType, query, data);
    try {
      if (!existing) return await createEntry(ctx, contentType, data, { locale: queryLocale(query) });
      await updateEntry(ctx, contentType, existing, data);
      return existing._id;
    } catch (error) {
      // created, or deleted, by another request meanwhile: look again
      if (!(error instanceof SingleEntryTaken) && !(existing && error instanceof NotFoundError)) throw error;
    }
  }
}

/** DELETE /api/<singular>: answers the deleted entry; 404 when there is none. */
export async function deleteSingle(ctx: OperationContext, uid: string, query: RawQuery): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  const existing = await singleEntry(ctx, contentType, query);
  if (!existing) throw new NotFoundError();
  return deleteLoaded(ctx, uid, existing._id, query);
}

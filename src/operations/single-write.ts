import type { ContentType } from '../content-types/index.js';
import { NotFoundError } from '../errors/index.js';
import {
  createEntry,
  entries,
  readDataPayload,
  resolveLocale,
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
  const data = readDataPayload(body);
  const existing = await singleEntry(ctx, contentType, query, data);
  await checkAnswerQuery(ctx, uid, query);
  let id: number;
  if (existing) {
    await updateEntry(ctx, contentType, existing, data);
    id = existing._id;
  } else {
    id = await createEntry(ctx, contentType, data, { locale: queryLocale(query) });
  }
  return answerEntry(ctx, uid, id, query);
}

/** DELETE /api/<singular>: answers the deleted entry; 404 when there is none. */
export async function deleteSingle(ctx: OperationContext, uid: string, query: RawQuery): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  const existing = await singleEntry(ctx, contentType, query);
  if (!existing) throw new NotFoundError();
  return deleteLoaded(ctx, uid, existing._id, query);
}

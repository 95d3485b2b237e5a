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
import { prepareEntryEvents, publicationEvents, requestedPublication } from './entry-events.js';
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
  // Strapi's single-type controller checks the payload before the query (collection types after it)
  const payload = readDataPayload(body);
  await checkAnswerQuery(ctx, uid, query);
  const data = dataObject(payload);
  const written = await writeSingle(ctx, contentType, query, data);
  const published = requestedPublication(data) ?? (written.created || written.wasPublished);
  const [answer, emit] = await Promise.all([
    answerEntry(ctx, uid, written.id, query),
    prepareEntryEvents(ctx, uid, written.id, query, [
      written.created ? 'entry.create' : 'entry.update',
      ...publicationEvents(contentType, written.wasPublished, published),
    ]),
  ]);
  emit();
  return answer;
}

/** The entry a single type's PUT wrote: created, or updated from its publication state. */
interface SingleWritten {
  id: number;
  created: boolean;
  /** published before the write (a created entry was not) */
  wasPublished: boolean;
}

/** Updates the entry, or creates it; a create that another request beat (the type's unique index) updates instead. */
async function writeSingle(
  ctx: OperationContext,
  contentType: ContentType,
  query: RawQuery,
  data: Record<string, unknown>,
): Promise<SingleWritten> {
  for (;;) {
    const existing = await singleEntry(ctx, contentType, query, data);
    try {
      if (!existing) {
        const id = await createEntry(ctx, contentType, data, { locale: queryLocale(query) });
        return { id, created: true, wasPublished: false };
      }
      await updateEntry(ctx, contentType, existing, data);
      return { id: existing._id, created: false, wasPublished: (existing.publishedAt ?? null) !== null };
    } catch (error) {
      // created, or deleted, by another request meanwhile: look again
      if (!(error instanceof SingleEntryTaken) && !(existing && error instanceof NotFoundError)) throw error;
    }
  }
}

/** DELETE /api/<singular>: answers the deleted entry; 404 when there is none. */
export async function deleteSingle(ctx: OperationContext, uid: string, query: RawQuery): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  await checkAnswerQuery(ctx, uid, query);
  const existing = await singleEntry(ctx, contentType, query);
  if (!existing) throw new NotFoundError();
  // Strapi's single-type service finds the entry with the query, then deletes it by id without
  // it: the answer has every attribute and nothing populated, whatever `fields` or `populate` say
  return deleteLoaded(ctx, uid, existing._id, {});
}

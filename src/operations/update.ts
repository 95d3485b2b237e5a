import { dataObject, loadEntry, readDataPayload, updateEntry, writableContentType } from '../write/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
import { prepareEntryEvents, publicationEvents, requestedPublication } from './entry-events.js';
import { answerEntry, checkAnswerQuery } from './write-answer.js';

/** PUT /api/<plural>/:id with `{ data }`. */
export async function update(
  ctx: OperationContext,
  uid: string,
  id: string,
  body: unknown,
  query: RawQuery,
): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  // Strapi validates the query, then reads the body, then looks the entry up
  await checkAnswerQuery(ctx, uid, query);
  const payload = readDataPayload(body);
  const entry = await loadEntry(ctx, contentType, id);
  const wasPublished = (entry.publishedAt ?? null) !== null;
  // Strapi's i18n plugin reads a localized entry's update through lodash's `omit`, which turns an
  // array into an object of its indexes: no attribute is named and the entry is written unchanged
  const data = Array.isArray(payload) && contentType.localized && ctx.i18n ? {} : dataObject(payload);
  await updateEntry(ctx, contentType, entry, data);
  const published = requestedPublication(data) ?? wasPublished;
  const [answer, emit] = await Promise.all([
    answerEntry(ctx, uid, entry._id, query),
    prepareEntryEvents(ctx, uid, entry._id, query, [
      'entry.update',
      ...publicationEvents(contentType, wasPublished, published),
    ]),
  ]);
  emit();
  return answer;
}

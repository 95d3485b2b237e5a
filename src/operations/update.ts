import { dataObject, loadEntry, readDataPayload, updateEntry, writableContentType } from '../write/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
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
  const data = readDataPayload(body);
  const entry = await loadEntry(ctx, contentType, id);
  await updateEntry(ctx, contentType, entry, dataObject(data));
  return answerEntry(ctx, uid, entry._id, query);
}

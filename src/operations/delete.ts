import { NotFoundError } from '../errors/index.js';
import { deleteEntry, loadEntry, withLifecycles, writableContentType } from '../write/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
import { prepareEntryEvents } from './entry-events.js';
import { answerEntry, checkAnswerQuery } from './write-answer.js';

/** Deletes a loaded entry and every reference to it, between its delete hooks; answers the entry as it was. */
export async function deleteLoaded(
  ctx: OperationContext,
  uid: string,
  id: number,
  query: RawQuery,
): Promise<EntryResponse> {
  let answer: EntryResponse | undefined;
  let emit = () => {};
  await withLifecycles(ctx, { action: 'Delete', uid, params: { where: { id } }, id }, async () => {
    [answer, emit] = await Promise.all([
      answerEntry(ctx, uid, id, query),
      prepareEntryEvents(ctx, uid, id, query, ['entry.delete']),
    ]);
    // of parallel deletes of one entry, only the one that removed it answers it (and sends its event)
    if (!(await deleteEntry(ctx.models, ctx.registry, uid, id))) throw new NotFoundError();
    return id;
  });
  emit();
  return answer!;
}

/** DELETE /api/<plural>/:id: answers the deleted entry. */
export async function remove(ctx: OperationContext, uid: string, id: string, query: RawQuery): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  // Strapi validates the query before it looks the entry up
  await checkAnswerQuery(ctx, uid, query);
  const entry = await loadEntry(ctx, contentType, id);
  return deleteLoaded(ctx, uid, entry._id, query);
}

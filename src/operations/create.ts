import { createEntry, type CreateOptions, dataObject, readDataPayload, writableContentType } from '../write/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
import { prepareEntryEvents, publicationEvents, requestedPublication } from './entry-events.js';
import { answerEntry, checkAnswerQuery } from './write-answer.js';

/** `?locale=` of a write (i18n): a string or nothing. */
export function queryLocale(query: RawQuery): string | undefined {
  return typeof query.locale === 'string' ? query.locale : undefined;
}

/**
 * POST /api/<plural> with `{ data }`; answers the created entry read back with the request's query.
 * The entry's locale is `data.locale` (default locale otherwise): as Strapi 4.26's i18n, a create
 * does not read `?locale=` (single types do, see single-write.ts).
 */
export async function create(
  ctx: OperationContext,
  uid: string,
  body: unknown,
  query: RawQuery,
  options: Pick<CreateOptions, 'unpublished'> = {},
): Promise<EntryResponse> {
  const contentType = writableContentType(ctx, uid);
  // Strapi validates the query before it reads the body
  await checkAnswerQuery(ctx, uid, query);
  const data = dataObject(readDataPayload(body));
  const id = await createEntry(ctx, contentType, data, options);
  const published = requestedPublication(data) ?? !options.unpublished;
  const [answer, emit] = await Promise.all([
    answerEntry(ctx, uid, id, query),
    prepareEntryEvents(ctx, uid, id, query, ['entry.create', ...publicationEvents(contentType, false, published)]),
  ]);
  emit();
  return answer;
}

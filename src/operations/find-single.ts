import { NotFoundError } from '../errors/index.js';
import { localeMatch } from '../query/parse/locale.js';
import { readEntry } from '../query/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<singular>: the single type's entry (in the asked or default locale when localized), 404 when it does not exist yet. */
export async function findSingle(ctx: OperationContext, uid: string, query: RawQuery): Promise<EntryResponse> {
  const schema = ctx.registry.contentType(uid);
  if (!schema) throw new NotFoundError();
  const entry = await readEntry(ctx, uid, localeMatch(schema, ctx.i18n, query.locale), query);
  if (!entry) throw new NotFoundError();
  return { data: entry, meta: {} };
}

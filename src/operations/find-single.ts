import { NotFoundError } from '../errors/index.js';
import { localeMatch } from '../query/parse/locale.js';
import { readEntries, readEntry, validateReadQuery } from '../query/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/**
 * GET /api/<singular>: the single type's entry (in the asked or default locale when localized),
 * 404 when it does not exist yet, or when it does not match the request's `filters` or `_q`
 * search (Strapi applies both to a single type's find).
 */
export async function findSingle(ctx: OperationContext, uid: string, query: RawQuery): Promise<EntryResponse> {
  const schema = ctx.registry.contentType(uid);
  if (!schema) throw new NotFoundError();
  const lifecycles = ctx.lifecycles;
  const match = localeMatch(schema, ctx.i18n, query.locale);
  // with findOne hooks, the filters are the event's `where`, which the read applies
  if (lifecycles.listens('beforeFindOne', uid) || lifecycles.listens('afterFindOne', uid)) {
    const entry = await readEntry(ctx, uid, match, query, {
      lifecycles,
      where: query.filters,
      sortDirections: 'checked',
    });
    if (!entry) throw new NotFoundError();
    return { data: entry, meta: {} };
  }
  if (query.filters !== undefined || query._q !== undefined) {
    // Strapi's validator answers first: a bad field or populate is its 400 whatever matches
    validateReadQuery(ctx, uid, query);
    const { filters, locale, publicationState, _q } = query;
    const window = { start: 0, limit: 1 };
    const matching = await readEntries(
      ctx,
      uid,
      { filters, locale, publicationState, _q, fields: ['id'] },
      { style: 'plain', window },
    );
    if (matching.entries.length === 0) throw new NotFoundError();
  }
  const entry = await readEntry(ctx, uid, match, query, { sortDirections: 'checked' });
  if (!entry) throw new NotFoundError();
  return { data: entry, meta: {} };
}

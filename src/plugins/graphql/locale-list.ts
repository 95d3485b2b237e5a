/**
 * `i18NLocales` with its list arguments, as Strapi's shadow CRUD of `plugin::i18n.locale` answers
 * them: `filters` and `sort` on the locale's attributes (a bad key is `Invalid parameter <key>`)
 * and GraphQL's `pagination`. The locales are the configured ones (no stored entries), so the
 * list is filtered, sorted and paged in memory.
 */
import { I18N_LOCALE_UID } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import { localeRows, type LocaleRow } from '../i18n/locale-rows.js';
import { APP_CODE } from '../../query/index.js';
import { filterPredicate } from '../../query/filters/index.js';
import { compileSort } from '../../query/sort/index.js';
import { parseSort } from '../../query/sort/parse.js';
import { sortOrder } from '../../query/sort/value-order.js';
import type { GraphQLContext } from './context.js';
import { pageLimits } from './context.js';
import { toRestFilters } from './filters.js';
import { graphqlPaginationMeta, graphqlWindow } from './pagination.js';

export interface LocaleEntity {
  id: number;
  attributes: Omit<LocaleRow, 'id'>;
}

/** The configured locales, ids in configuration order. */
export function localeEntities(ctx: GraphQLContext): LocaleEntity[] {
  const { i18n } = ctx.service;
  return (i18n ? localeRows(i18n) : []).map(({ id, ...attributes }) => ({ id, attributes }));
}

export function listLocales(
  ctx: GraphQLContext,
  args: Record<string, unknown>,
): { data: LocaleEntity[]; meta: { pagination: Record<string, number | undefined> } } {
  const { registry } = ctx.service;
  const schema = registry.contentType(I18N_LOCALE_UID);
  if (!schema) throw new ValidationError(`Unknown content-type ${I18N_LOCALE_UID}`, {});
  const query = { registry, uid: I18N_LOCALE_UID, access: APP_CODE };
  const matches = filterPredicate({ ...query, filters: toRestFilters(registry, schema, args.filters) });
  // compileSort checks the keys (and directions); the order is then applied to the values in hand
  compileSort({ ...query, sort: args.sort });
  const keys = parseSort(args.sort);
  // as stored: the timestamps are dates (what the filters on a datetime compare with)
  const docOf = ({ id, attributes }: LocaleEntity): Record<string, unknown> => ({
    _id: id,
    ...attributes,
    createdAt: new Date(attributes.createdAt),
    updatedAt: new Date(attributes.updatedAt),
  });
  const matching = localeEntities(ctx)
    .filter((entity) => matches(docOf(entity)))
    .sort((a, b) => {
      for (const key of keys) {
        const [name = ''] = key.path;
        const field = name === 'id' ? '_id' : name;
        const order = sortOrder(docOf(a)[field], docOf(b)[field]) * key.direction;
        if (order !== 0) return order;
      }
      return a.id - b.id;
    });
  const window = graphqlWindow(args.pagination, pageLimits(ctx));
  const data = matching.slice(window.start, window.readLimit === -1 ? undefined : window.start + window.readLimit);
  return { data, meta: { pagination: graphqlPaginationMeta(window, matching.length) } };
}

/**
 * The types every Strapi v4 GraphQL schema has regardless of content-types: scalars, pagination,
 * publication state, scalar filter inputs, `Error`, `GenericMorph`, and the i18n locale types (not a
 * stored content-type here: locales come from the i18n config).
 */
import type { SchemaComposer } from 'graphql-compose';
import { LIST_LOCALES_ACTION } from '../../access/actions.js';
import type { GraphQLContext } from './context.js';
import { FILTERED_SCALARS, scalarFilterFields } from './filters.js';
import {
  entityName,
  entityResponseCollectionName,
  entityResponseName,
  ERROR_TYPE,
  filtersInputName,
  GENERIC_MORPH,
  PAGINATION,
  PAGINATION_ARG,
  PUBLICATION_STATE,
  RESPONSE_COLLECTION_META,
  scalarFilterName,
} from './naming.js';
import { listArgs } from './content-type-types.js';
import { listLocales, localeEntities } from './locale-list.js';
import { CUSTOM_SCALARS } from './scalars.js';
import { isRecord } from './values.js';
import type { RootField } from './shadow-crud.js';

type Composer = SchemaComposer<GraphQLContext>;

export function addBuiltinTypes(sc: Composer): void {
  for (const scalar of CUSTOM_SCALARS) sc.add(scalar);
  sc.createObjectTC({ name: PAGINATION, fields: { total: 'Int!', page: 'Int!', pageSize: 'Int!', pageCount: 'Int!' } });
  sc.createObjectTC({ name: RESPONSE_COLLECTION_META, fields: { pagination: `${PAGINATION}!` } });
  sc.createInputTC({ name: PAGINATION_ARG, fields: { page: 'Int', pageSize: 'Int', start: 'Int', limit: 'Int' } });
  sc.createEnumTC({ name: PUBLICATION_STATE, values: { LIVE: { value: 'LIVE' }, PREVIEW: { value: 'PREVIEW' } } });
  // a dynamic-zone entry whose component is unknown to the schema resolves to `Error`
  sc.createObjectTC({
    name: ERROR_TYPE,
    fields: {
      code: { type: 'String!', resolve: () => 'COMPONENT_NOT_FOUND' },
      message: {
        type: 'String',
        resolve: (value: unknown) => `Component not found: ${String(isRecord(value) ? value.__component : '')}`,
      },
    },
  });
  for (const scalar of FILTERED_SCALARS)
    sc.createInputTC({ name: scalarFilterName(scalar), fields: scalarFilterFields(scalar) });
}

/** `union GenericMorph` of every object type built from a schema; `typeOf` names a value's member. */
export function addGenericMorph(sc: Composer, members: string[], typeOf: (value: unknown) => string | undefined): void {
  sc.createUnionTC({
    name: GENERIC_MORPH,
    types: members,
    resolveType: (value: unknown) => {
      const type = typeOf(value);
      return type !== undefined && members.includes(type) ? type : ERROR_TYPE;
    },
  });
}

const LOCALE = 'I18NLocale';

/** `I18NLocale` types (shadow CRUD of `plugin::i18n.locale`, answered from the i18n configuration). */
export function addLocaleTypes(sc: Composer): void {
  sc.createObjectTC({
    name: LOCALE,
    fields: { name: 'String', code: 'String', createdAt: 'DateTime', updatedAt: 'DateTime' },
  });
  sc.createObjectTC({ name: entityName(LOCALE), fields: { id: 'ID', attributes: LOCALE } });
  sc.createObjectTC({ name: entityResponseName(LOCALE), fields: { data: entityName(LOCALE) } });
  sc.createObjectTC({
    name: entityResponseCollectionName(LOCALE),
    fields: { data: `[${entityName(LOCALE)}!]!`, meta: `${RESPONSE_COLLECTION_META}!` },
  });
  const filters = filtersInputName(LOCALE);
  sc.createInputTC({
    name: filters,
    fields: {
      id: 'IDFilterInput',
      name: 'StringFilterInput',
      code: 'StringFilterInput',
      createdAt: 'DateTimeFilterInput',
      updatedAt: 'DateTimeFilterInput',
      and: `[${filters}]`,
      or: `[${filters}]`,
      not: filters,
    },
  });
}

/** The locales, behind the i18n plugin's `listLocales` action as Strapi's resolvers config puts them. */
export function localeQueryFields(): Record<string, RootField> {
  return {
    i18NLocale: {
      type: entityResponseName(LOCALE),
      action: LIST_LOCALES_ACTION,
      args: { id: { type: 'ID' } },
      resolve: (_p, args, ctx) => ({
        data: localeEntities(ctx).find((l) => String(l.id) === String(args.id)) ?? null,
      }),
    },
    i18NLocales: {
      type: entityResponseCollectionName(LOCALE),
      action: LIST_LOCALES_ACTION,
      args: listArgs(filtersInputName(LOCALE), false),
      resolve: (_p, args, ctx) => listLocales(ctx, args),
    },
  };
}

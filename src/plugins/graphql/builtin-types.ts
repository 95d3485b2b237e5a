/**
 * The types every Strapi v4 GraphQL schema has regardless of content-types: scalars, pagination,
 * publication state, scalar filter inputs, `Error`, `GenericMorph`, and the i18n locale and upload
 * folder types (these two are not stored content-types here: locales come from the i18n config,
 * folders do not exist, so the folder queries answer empty).
 */
import type { SchemaComposer } from 'graphql-compose';
import { LIST_LOCALES_ACTION } from '../../access/actions.js';
import { NotFoundError } from '../../errors/index.js';
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
  relationResponseCollectionName,
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
const FOLDER = 'UploadFolder';

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

/** `UploadFolder` types (no folders are stored: queries answer empty, mutations are not supported). */
export function addFolderTypes(sc: Composer): void {
  const filters = filtersInputName(FOLDER);
  sc.createInputTC({
    name: filters,
    fields: {
      id: 'IDFilterInput',
      name: 'StringFilterInput',
      pathId: 'IntFilterInput',
      parent: filters,
      children: filters,
      files: 'UploadFileFiltersInput',
      path: 'StringFilterInput',
      createdAt: 'DateTimeFilterInput',
      updatedAt: 'DateTimeFilterInput',
      and: `[${filters}]`,
      or: `[${filters}]`,
      not: filters,
    },
  });
  sc.createObjectTC({
    name: FOLDER,
    fields: {
      name: 'String!',
      pathId: 'Int!',
      parent: { type: entityResponseName(FOLDER), resolve: () => ({ data: null }) },
      children: {
        type: relationResponseCollectionName(FOLDER),
        args: listArgs(filters, false),
        resolve: () => ({ data: [] }),
      },
      files: {
        type: 'UploadFileRelationResponseCollection',
        args: listArgs('UploadFileFiltersInput', false),
        resolve: () => ({ data: [] }),
      },
      path: 'String!',
      createdAt: 'DateTime',
      updatedAt: 'DateTime',
    },
  });
  sc.createObjectTC({ name: entityName(FOLDER), fields: { id: 'ID', attributes: FOLDER } });
  sc.createObjectTC({ name: entityResponseName(FOLDER), fields: { data: entityName(FOLDER) } });
  sc.createObjectTC({
    name: entityResponseCollectionName(FOLDER),
    fields: { data: `[${entityName(FOLDER)}!]!`, meta: `${RESPONSE_COLLECTION_META}!` },
  });
  sc.createObjectTC({ name: relationResponseCollectionName(FOLDER), fields: { data: `[${entityName(FOLDER)}!]!` } });
  sc.createInputTC({
    name: 'UploadFolderInput',
    fields: { name: 'String', pathId: 'Int', parent: 'ID', children: '[ID]', files: '[ID]', path: 'String' },
  });
}

export function folderQueryFields(): Record<string, RootField> {
  return {
    uploadFolder: {
      type: entityResponseName(FOLDER),
      args: { id: { type: 'ID' } },
      action: 'plugin::upload.folder.findOne',
      resolve: () => ({ data: null }),
    },
    uploadFolders: {
      type: entityResponseCollectionName(FOLDER),
      action: 'plugin::upload.folder.find',
      args: listArgs(filters(), false),
      resolve: () => ({ data: [], meta: { pagination: { total: 0, page: 1, pageSize: 10, pageCount: 0 } } }),
    },
  };
}

function filters(): string {
  return filtersInputName(FOLDER);
}

/** Folder mutations exist in Strapi's SDL; here they answer a NotFoundError (no folders). */
export function folderMutationFields(): Record<string, RootField> {
  const fail = (): never => {
    throw new NotFoundError('Upload folders are not supported');
  };
  const action = (name: string) => `plugin::upload.folder.${name}`;
  return {
    createUploadFolder: {
      type: entityResponseName(FOLDER),
      args: { data: 'UploadFolderInput!' },
      action: action('create'),
      resolve: fail,
    },
    updateUploadFolder: {
      type: entityResponseName(FOLDER),
      args: { id: 'ID!', data: 'UploadFolderInput!' },
      action: action('update'),
      resolve: fail,
    },
    deleteUploadFolder: {
      type: entityResponseName(FOLDER),
      args: { id: 'ID!' },
      action: action('delete'),
      resolve: fail,
    },
  };
}

/**
 * Every generated GraphQL name, spelled in one place (Strapi v4 plugin-graphql `utils/naming`).
 * `api::article.article` → `Article`, `plugin::users-permissions.user` → `UsersPermissionsUser`,
 * component `shared.meta-social` → `ComponentSharedMetaSocial`.
 */
import type { Component, ContentType } from '../../content-types/index.js';

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w.length > 0);
}

export function pascalCase(text: string): string {
  return words(text)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

export function camelCase(text: string): string {
  const pascal = pascalCase(text);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `plugin::users-permissions.user` → `users-permissions`; null for `api::` uids. */
function pluginOf(uid: string): string | null {
  const match = /^plugin::([^.]+)\./.exec(uid);
  return match?.[1] ?? null;
}

/** The output type of a content-type or component. */
export function typeName(schema: ContentType | Component): string {
  if (schema.modelType === 'component')
    return `Component${pascalCase(schema.category)}${pascalCase(schema.uid.slice(schema.category.length + 1))}`;
  const plugin = pluginOf(schema.uid);
  return pascalCase(plugin ? `${plugin}-${schema.singularName}` : schema.singularName);
}

export const entityName = (type: string) => `${type}Entity`;
export const entityResponseName = (type: string) => `${type}EntityResponse`;
export const entityResponseCollectionName = (type: string) => `${type}EntityResponseCollection`;
export const relationResponseCollectionName = (type: string) => `${type}RelationResponseCollection`;
export const filtersInputName = (type: string) => `${type}FiltersInput`;
export const inputName = (type: string) => `${type}Input`;
/** `ENUM_<TYPE>_<ATTRIBUTE>`, or the attribute's own `enumName` when the schema gives one. */
export const enumName = (type: string, attribute: string, declared?: string) =>
  declared ?? `ENUM_${type.toUpperCase()}_${attribute.toUpperCase()}`;
export const dynamicZoneName = (type: string, attribute: string) => `${type}${pascalCase(attribute)}DynamicZone`;
export const dynamicZoneInputName = (type: string, attribute: string) => `${dynamicZoneName(type, attribute)}Input`;
/** `String` → `StringFilterInput` */
export const scalarFilterName = (scalar: string) => `${scalar}FilterInput`;

/** `article`, `authorProfile`, `usersPermissionsUser` */
export function findOneQueryName(ct: ContentType): string {
  const plugin = pluginOf(ct.uid);
  return camelCase(plugin ? `${plugin}-${ct.singularName}` : ct.singularName);
}

/** `articles`, `categories`, `usersPermissionsUsers` */
export function findQueryName(ct: ContentType): string {
  const plugin = pluginOf(ct.uid);
  return camelCase(plugin ? `${plugin}-${ct.pluralName}` : ct.pluralName);
}

export const createMutationName = (type: string) => `create${type}`;
export const updateMutationName = (type: string) => `update${type}`;
export const deleteMutationName = (type: string) => `delete${type}`;
export const createLocalizationMutationName = (type: string) => `create${type}Localization`;

export const PAGINATION_ARG = 'PaginationArg';
export const PUBLICATION_STATE = 'PublicationState';
export const RESPONSE_COLLECTION_META = 'ResponseCollectionMeta';
export const PAGINATION = 'Pagination';
export const ERROR_TYPE = 'Error';
export const GENERIC_MORPH = 'GenericMorph';
export const LOCALE_CODE_SCALAR = 'I18NLocaleCode';

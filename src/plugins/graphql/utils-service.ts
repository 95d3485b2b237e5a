/**
 * `strapi.plugin('graphql').service('utils')` of Strapi v4, as far as plugins use it: `naming`,
 * the generated names of a content-type or component given as Strapi describes it (any object with
 * its `uid`, e.g. `strapi.contentTypes[uid]`); `mappers.strapiScalarToGraphQLScalar`; the
 * `attributes` predicates. strapi-plugin-slugify names its union's members with
 * `naming.getEntityResponseName(contentType)`; strapi-plugin-comments builds filter inputs of its own.
 */
import type { Attribute, Registry, Schema, ScalarType } from '../../content-types/index.js';
import { SCALAR_GRAPHQL_TYPES } from './attribute-types.js';
import { FILTERED_SCALARS } from './filters.js';
import { isRecord } from './values.js';
import {
  createMutationName,
  deleteMutationName,
  entityName,
  entityResponseCollectionName,
  entityResponseName,
  filtersInputName,
  findOneQueryName,
  findQueryName,
  inputName,
  relationResponseCollectionName,
  pascalCase,
  scalarFilterName,
  typeName,
  updateMutationName,
} from './naming.js';

export function createUtilsService(registry: Registry) {
  const schemaOf = (described: unknown): Schema => {
    const uid = typeof described === 'object' && described !== null ? (described as { uid?: unknown }).uid : described;
    const schema = typeof uid === 'string' ? registry.schema(uid) : undefined;
    if (!schema)
      throw new TypeError(`graphql naming: ${JSON.stringify(uid)} is no content-type or component of this app`);
    return schema;
  };
  const contentTypeOf = (described: unknown) => {
    const schema = schemaOf(described);
    if (schema.modelType !== 'contentType') throw new TypeError(`graphql naming: ${schema.uid} is a component`);
    return schema;
  };
  /**
   * A schema object the registry does not know by uid (a plugin's own schema file, as
   * strapi-plugin-comments passes it) is named as Strapi's naming does: `plugin` + `info.singularName`.
   */
  const type = (described: unknown) => {
    const info = isRecord(described) && isRecord(described.info) ? described.info : undefined;
    if (isRecord(described) && typeof described.uid !== 'string' && typeof info?.singularName === 'string') {
      const plugin = typeof described.plugin === 'string' ? described.plugin : '';
      return pascalCase(plugin ? `${plugin}-${info.singularName}` : info.singularName);
    }
    return typeName(schemaOf(described));
  };
  return {
    naming: {
      getTypeName: type,
      getComponentName: type,
      getEntityName: (ct: unknown) => entityName(type(ct)),
      getEntityResponseName: (ct: unknown) => entityResponseName(type(ct)),
      getEntityResponseCollectionName: (ct: unknown) => entityResponseCollectionName(type(ct)),
      getRelationResponseCollectionName: (ct: unknown) => relationResponseCollectionName(type(ct)),
      getFiltersInputTypeName: (ct: unknown) => filtersInputName(type(ct)),
      getComponentInputName: (ct: unknown) => inputName(type(ct)),
      getContentTypeInputName: (ct: unknown) => inputName(type(ct)),
      getFindQueryName: (ct: unknown) => findQueryName(contentTypeOf(ct)),
      getFindOneQueryName: (ct: unknown) => findOneQueryName(contentTypeOf(ct)),
      getCreateMutationTypeName: (ct: unknown) => createMutationName(type(ct)),
      getUpdateMutationTypeName: (ct: unknown) => updateMutationName(type(ct)),
      getDeleteMutationTypeName: (ct: unknown) => deleteMutationName(type(ct)),
      getScalarFilterInputTypeName: (scalar: string) => scalarFilterName(scalar),
    },
    mappers: {
      strapiScalarToGraphQLScalar: (scalar: string): string | undefined =>
        Object.hasOwn(SCALAR_GRAPHQL_TYPES, scalar) ? SCALAR_GRAPHQL_TYPES[scalar as ScalarType] : undefined,
    },
    attributes: {
      isStrapiScalar: (attribute: Attribute) => Object.hasOwn(SCALAR_GRAPHQL_TYPES, attribute.type),
      isGraphQLScalar: (attribute: { type: string }) =>
        (FILTERED_SCALARS as readonly string[]).includes(attribute.type),
      isMorphRelation: (attribute: Attribute) =>
        attribute.type === 'relation' && String(attribute.relation).includes('morph'),
      isMedia: (attribute: Attribute) => attribute.type === 'media',
      isRelation: (attribute: Attribute) => attribute.type === 'relation',
      isEnumeration: (attribute: Attribute) => attribute.type === 'enumeration',
      isComponent: (attribute: Attribute) => attribute.type === 'component',
      isDynamicZone: (attribute: Attribute) => attribute.type === 'dynamiczone',
    },
  };
}

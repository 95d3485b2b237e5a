/**
 * `strapi.plugin('graphql').service('utils')` of Strapi v4, as far as plugins use it: `naming`,
 * the generated names of a content-type or component given as Strapi describes it (any object with
 * its `uid`, e.g. `strapi.contentTypes[uid]`). strapi-plugin-slugify names its union's members
 * with `naming.getEntityResponseName(contentType)`.
 */
import type { Registry, Schema } from '../../content-types/index.js';
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
  const type = (described: unknown) => typeName(schemaOf(described));
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
    },
  };
}

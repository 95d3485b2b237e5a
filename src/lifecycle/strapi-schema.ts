/** Schemas as Strapi's `strapi.contentTypes[uid]` / `strapi.components[uid]` describe them. */
import type { Component, ContentType } from '../content-types/index.js';

/** A content-type or component as Strapi describes it (read-only here). */
export interface StrapiContentType {
  uid: string;
  modelType: 'contentType' | 'component';
  kind?: 'collectionType' | 'singleType';
  modelName: string;
  collectionName: string;
  info: { displayName: string; singularName?: string; pluralName?: string };
  attributes: ContentType['attributes'];
}

/** A content-type or component of the registry as Strapi describes it. */
export function describeSchema(schema: ContentType | Component): StrapiContentType {
  const [, name = schema.uid] = /^(?:[a-z-]+::[\w-]+\.)?(.+)$/.exec(schema.uid) ?? [];
  return schema.modelType === 'contentType'
    ? {
        uid: schema.uid,
        modelType: 'contentType',
        kind: schema.kind,
        modelName: name,
        collectionName: schema.collectionName,
        info: { displayName: schema.displayName, singularName: schema.singularName, pluralName: schema.pluralName },
        attributes: schema.attributes,
      }
    : {
        uid: schema.uid,
        modelType: 'component',
        modelName: name,
        collectionName: schema.collectionName,
        info: { displayName: schema.displayName },
        attributes: schema.attributes,
      };
}

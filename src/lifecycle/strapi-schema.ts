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
  /** a content-type's schema options, `draftAndPublish` always set (plugins read it, e.g. strapi-plugin-navigation) */
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  /** `api::<apiName>.<name>` */
  apiName?: string;
  /** `plugin::<plugin>.<name>` */
  plugin?: string;
  attributes: ContentType['attributes'];
}

/** Where Strapi says a content-type comes from: its api, or its plugin. */
function namespaceOf(uid: string): { apiName: string } | { plugin: string } | Record<string, never> {
  const match = /^(api|plugin)::([^.]+)\./.exec(uid);
  if (!match?.[2]) return {};
  return match[1] === 'api' ? { apiName: match[2] } : { plugin: match[2] };
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
        options: { ...schema.declared.options, draftAndPublish: schema.draftAndPublish },
        pluginOptions: schema.declared.pluginOptions ?? {},
        ...namespaceOf(schema.uid),
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

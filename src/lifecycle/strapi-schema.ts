/** Schemas as Strapi's `strapi.contentTypes[uid]` / `strapi.components[uid]` describe them. */
import cloneDeep from 'lodash/cloneDeep.js';
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
  /**
   * The schema as its file declared it (Strapi's `pickSchema`: collectionName, info, options,
   * pluginOptions, attributes without the timestamps, kind; for a component its whole file), a
   * copy of its own: app code reads attributes there (`__schema__.attributes.slug.targetField`)
   * and what it writes there changes nothing stored, as in Strapi.
   */
  readonly __schema__: Record<string, unknown>;
}

const CONTENT_TYPE_SCHEMA_KEYS = ['connection', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes'];

/** Strapi's `__schema__` of a registry schema, made on first read and kept. */
function withDeclaredSchema<T extends object>(described: T, schema: ContentType | Component): T & StrapiContentType {
  let copy: Record<string, unknown> | undefined;
  const declared = (): Record<string, unknown> => {
    const source = schema.declared as unknown as Record<string, unknown>;
    // a plugin's schema may hold functions: lodash copies them by reference, as Strapi's cloneDeep
    if (schema.modelType === 'component') return cloneDeep(source);
    const picked = Object.fromEntries(
      CONTENT_TYPE_SCHEMA_KEYS.filter((key) => key in source).map((key) => [key, source[key]]),
    );
    return { ...cloneDeep(picked), kind: schema.kind };
  };
  return Object.defineProperty(described, '__schema__', {
    enumerable: true,
    get: () => (copy ??= declared()),
  }) as T & StrapiContentType;
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
  const described =
    schema.modelType === 'contentType'
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
  return withDeclaredSchema(described, schema);
}

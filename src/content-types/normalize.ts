import { describeRelation } from './relations.js';
import { SchemaError } from './schema-error.js';
import { UPLOAD_FILE_UID } from './uids.js';
import {
  RESERVED_ATTRIBUTE_NAMES,
  SCALAR_TYPES,
  RELATION_KINDS,
  type Attribute,
  type Component,
  type ComponentSchema,
  type ContentType,
  type ContentTypeSchema,
  type RelationAttribute,
} from './types.js';

export interface ContentTypeSource {
  uid: string;
  schema: ContentTypeSchema;
  source: string;
  namespace?: 'api' | 'plugin';
}
export interface ComponentSource {
  uid: string;
  schema: ComponentSchema;
  source: string;
}

const KNOWN_TYPES = new Set<string>([...SCALAR_TYPES, 'relation', 'media', 'component', 'dynamiczone']);

function checkAttributes(source: string, attributes: Record<string, Attribute>): void {
  if (!attributes || typeof attributes !== 'object') throw new SchemaError(source, '"attributes" must be an object');
  for (const [name, attr] of Object.entries(attributes)) {
    if (RESERVED_ATTRIBUTE_NAMES.has(name))
      throw new SchemaError(source, `"${name}" is a reserved attribute name`, name);
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new SchemaError(source, 'invalid attribute name', name);
    if (!attr || typeof attr !== 'object' || !KNOWN_TYPES.has(attr.type)) {
      throw new SchemaError(
        source,
        `unknown attribute type ${JSON.stringify((attr as { type?: unknown } | null)?.type)}`,
        name,
      );
    }
    if (
      attr.type === 'enumeration' &&
      (!Array.isArray(attr.enum) || attr.enum.length === 0 || attr.enum.some((v) => typeof v !== 'string'))
    ) {
      throw new SchemaError(source, 'an enumeration needs a non-empty "enum" array of strings', name);
    }
    if (attr.type === 'uid' && attr.targetField !== undefined && !(attr.targetField in attributes)) {
      throw new SchemaError(source, `targetField "${attr.targetField}" is not an attribute`, name);
    }
    if (attr.type === 'relation' && !RELATION_KINDS.includes(attr.relation)) {
      throw new SchemaError(source, `unknown relation kind ${JSON.stringify(attr.relation)}`, name);
    }
    if (attr.type === 'relation' && attr.relation.startsWith('morph')) {
      throw new SchemaError(source, 'polymorphic (morph) relations are not supported', name);
    }
    if (attr.type === 'relation' && attr.inversedBy && attr.mappedBy) {
      throw new SchemaError(source, 'a relation cannot have both inversedBy and mappedBy', name);
    }
    if (attr.type === 'component' && typeof attr.component !== 'string') {
      throw new SchemaError(source, 'a component attribute needs "component"', name);
    }
    if (attr.type === 'dynamiczone' && (!Array.isArray(attr.components) || attr.components.length === 0)) {
      throw new SchemaError(source, 'a dynamic zone needs a non-empty "components" array', name);
    }
  }
}

export function normalizeContentType(input: ContentTypeSource, i18nEnabled: boolean): ContentType {
  const { schema, source, uid } = input;
  if (!schema || typeof schema !== 'object') throw new SchemaError(source, 'not a JSON object');
  if (schema.kind !== 'collectionType' && schema.kind !== 'singleType') {
    throw new SchemaError(
      source,
      `"kind" must be "collectionType" or "singleType", got ${JSON.stringify(schema.kind)}`,
    );
  }
  const info = schema.info ?? ({} as ContentTypeSchema['info']);
  for (const key of ['singularName', 'pluralName'] as const) {
    if (typeof info[key] !== 'string' || !/^[a-z][a-z0-9-]*$/.test(info[key])) {
      throw new SchemaError(source, `info.${key} must be a kebab-case string, got ${JSON.stringify(info[key])}`);
    }
  }
  if (info.singularName === info.pluralName)
    throw new SchemaError(source, 'info.singularName and info.pluralName must differ');
  if (typeof schema.collectionName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema.collectionName)) {
    throw new SchemaError(
      source,
      `"collectionName" must be a plain identifier, got ${JSON.stringify(schema.collectionName)}`,
    );
  }
  checkAttributes(source, schema.attributes);

  const draftAndPublish = schema.options?.draftAndPublish === true;
  const localized = i18nEnabled && schema.pluginOptions?.i18n?.localized === true;
  const attributes: Record<string, Attribute> = { ...schema.attributes };
  attributes.createdAt = { type: 'datetime' };
  attributes.updatedAt = { type: 'datetime' };
  if (draftAndPublish) attributes.publishedAt = { type: 'datetime' };
  if (localized) {
    attributes.locale = { type: 'string' };
    attributes.localizations = { type: 'relation', relation: 'oneToMany', target: uid };
  }
  return {
    modelType: 'contentType',
    uid,
    kind: schema.kind,
    collectionName: schema.collectionName,
    singularName: info.singularName,
    pluralName: info.pluralName,
    displayName: info.displayName ?? info.singularName,
    namespace: input.namespace ?? 'api',
    draftAndPublish,
    localized,
    attributes,
    relations: {},
    source,
  };
}

export function normalizeComponent(input: ComponentSource): Component {
  const { schema, source, uid } = input;
  if (!schema || typeof schema !== 'object') throw new SchemaError(source, 'not a JSON object');
  checkAttributes(source, schema.attributes);
  const [category] = uid.split('.');
  return {
    modelType: 'component',
    uid,
    category: category ?? uid,
    collectionName: schema.collectionName ?? `components_${uid.replace(/[.-]/g, '_')}`,
    displayName: schema.info?.displayName ?? uid,
    attributes: { ...schema.attributes },
    relations: {},
    source,
  };
}

/** Fills `relations` once every schema is known, checking targets and both sides of bidirectional relations. */
export function linkRelations(schema: ContentType | Component, contentTypes: Map<string, ContentType>): void {
  for (const [name, attr] of Object.entries(schema.attributes)) {
    if (attr.type === 'media') {
      schema.relations[name] = {
        attribute: name,
        target: UPLOAD_FILE_UID,
        multiple: attr.multiple === true,
        stored: true,
        media: true,
      };
      continue;
    }
    if (attr.type !== 'relation') continue;
    if (
      schema.modelType === 'contentType' &&
      name === 'localizations' &&
      schema.localized &&
      attr.target === schema.uid
    ) {
      schema.relations[name] = {
        attribute: name,
        target: schema.uid,
        multiple: true,
        stored: false,
        localizations: true,
      };
      continue;
    }
    const target = contentTypes.get(attr.target);
    if (!target) throw new SchemaError(schema.source, `unknown relation target "${attr.target}"`, name);
    let targetAttribute: RelationAttribute | undefined;
    if (attr.mappedBy) {
      const other = target.attributes[attr.mappedBy];
      if (!other || other.type !== 'relation' || other.target !== schema.uid || other.inversedBy !== name) {
        throw new SchemaError(
          schema.source,
          `mappedBy "${attr.mappedBy}" must name a relation of ${attr.target} with inversedBy "${name}"`,
          name,
        );
      }
      targetAttribute = other;
    }
    if (attr.inversedBy) {
      const other = target.attributes[attr.inversedBy];
      if (!other || other.type !== 'relation' || other.target !== schema.uid || other.mappedBy !== name) {
        throw new SchemaError(
          schema.source,
          `inversedBy "${attr.inversedBy}" must name a relation of ${attr.target} with mappedBy "${name}"`,
          name,
        );
      }
    }
    schema.relations[name] = describeRelation(name, attr, targetAttribute);
  }
}

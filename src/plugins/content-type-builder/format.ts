/**
 * Content-types and components as Strapi v4's content-type-builder answers them on its content
 * API: each schema as its file declared it (a custom field with its base type, as Strapi gives it
 * after the register phase), media and relation attributes in the builder's own shape, and what
 * Strapi hides (`visible: false`, the timestamps) left out.
 */
import {
  isMorph,
  type Attribute,
  type Component,
  type ContentType,
  type SchemaAttribute,
} from '../../content-types/index.js';

type Json = Record<string, unknown>;

function formatAttribute(declared: SchemaAttribute, built: Attribute | undefined): Json {
  const { configurable, required, pluginOptions } = declared;
  if (declared.type === 'media')
    return {
      type: 'media',
      multiple: declared.multiple === true,
      required: required === true,
      configurable: configurable === false ? false : undefined,
      private: declared.private === true,
      allowedTypes: declared.allowedTypes,
      pluginOptions,
    };
  if (declared.type === 'relation' && isMorph(declared)) return { ...declared };
  if (declared.type === 'relation')
    return {
      ...declared,
      type: 'relation',
      target: declared.target,
      targetAttribute: declared.inversedBy || declared.mappedBy || null,
      configurable: configurable === false ? false : undefined,
      private: declared.private === true,
      pluginOptions,
      autoPopulate: declared.autoPopulate,
    };
  if (declared.type === 'customField' && built) return { ...declared, type: built.type };
  return { ...declared };
}

function formatAttributes(schema: ContentType | Component): Json {
  const attributes: Json = {};
  for (const [name, declared] of Object.entries(schema.declared.attributes ?? {})) {
    if (declared.visible === false) continue;
    attributes[name] = formatAttribute(declared, schema.attributes[name]);
  }
  return attributes;
}

function isVisible(contentType: ContentType): boolean {
  const builder = contentType.declared.pluginOptions?.['content-type-builder'];
  return !(builder !== null && typeof builder === 'object' && 'visible' in builder && builder.visible !== true);
}

/** The plugin a content-type belongs to (`plugin::<name>.<type>`; the admin's are `admin`), none for an api's. */
const pluginOf = (uid: string): string | undefined =>
  uid.startsWith('admin::') ? 'admin' : /^plugin::([^.]+)\./.exec(uid)?.[1];

/** What the builder lets a relation to the type be: one-way only to admin users, nothing to the other admin, media and hidden types. */
function restrictRelationsTo(uid: string, visible: boolean): string[] | null {
  if (uid === 'admin::user') return ['oneWay', 'manyWay'];
  return uid.startsWith('admin::') || uid === 'plugin::upload.file' || !visible ? [] : null;
}

export function formatContentType(contentType: ContentType): Json {
  const { declared } = contentType;
  const visible = isVisible(contentType);
  return {
    uid: contentType.uid,
    plugin: pluginOf(contentType.uid),
    apiID: contentType.singularName,
    schema: {
      draftAndPublish: false,
      ...declared.options,
      displayName: contentType.displayName,
      singularName: contentType.singularName,
      pluralName: contentType.pluralName,
      description: declared.info?.description ?? '',
      pluginOptions: declared.pluginOptions,
      kind: contentType.kind,
      collectionName: contentType.collectionName,
      attributes: formatAttributes(contentType),
      visible,
      restrictRelationsTo: restrictRelationsTo(contentType.uid, visible),
    },
  };
}

export function formatComponent(component: Component): Json {
  const { declared } = component;
  return {
    uid: component.uid,
    category: component.category,
    apiId: component.uid.slice(component.category.length + 1),
    schema: {
      displayName: declared.info?.displayName,
      description: declared.info?.description ?? '',
      icon: declared.info?.icon,
      collectionName: component.collectionName,
      pluginOptions: declared.pluginOptions,
      attributes: formatAttributes(component),
    },
  };
}

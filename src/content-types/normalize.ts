import { customFieldBaseType, isCustomFieldDeclaration, type CustomFieldTypes } from './custom-fields.js';
import type { SchemaNotice } from './notices.js';
import { isMorph, isMorphTo, isTargetRelation } from './attributes.js';
import { describeRelation } from './relations.js';
import { SchemaError } from './schema-error.js';
import { UPLOAD_FILE_UID } from './uids.js';
import {
  I18N_FIELD_NAMES,
  RESERVED_ATTRIBUTE_NAMES,
  SCALAR_TYPES,
  RELATION_KINDS,
  MORPH_RELATION_KINDS,
  type Attribute,
  type Component,
  type ComponentSchema,
  type ContentType,
  type ContentTypeSchema,
  type CustomFieldAttribute,
  type MorphAttribute,
  type RelationAttribute,
  type SchemaAttribute,
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
const TYPE_LIST = [...KNOWN_TYPES, 'customField'].join(', ');

/** What normalising a schema needs besides the schema: i18n on or off, the app's custom-field mapping. */
export interface NormalizeOptions {
  i18n: boolean;
  customFields: CustomFieldTypes;
  /** start-up log lines collected while normalising (unknown custom fields) */
  notices: SchemaNotice[];
}

/** A custom field becomes its base type, keeping its uid (`customField`) and everything else it declares. */
function resolveCustomField(
  source: string,
  name: string,
  attr: CustomFieldAttribute,
  options: NormalizeOptions,
): Attribute {
  if (typeof attr.customField !== 'string' || attr.customField === '') {
    throw new SchemaError(
      source,
      'a "customField" attribute needs "customField": "plugin::<plugin>.<name>" (the uid its plugin registers)',
      name,
    );
  }
  const type = customFieldBaseType(
    attr.customField,
    options.customFields,
    { source, attribute: name },
    options.notices,
  );
  return { ...attr, type, customField: attr.customField };
}

/** The attributes of a schema, checked, with custom fields resolved to their base types. */
function normalizeAttributes(
  source: string,
  raw: Record<string, SchemaAttribute>,
  options: NormalizeOptions,
  localized = false,
): Record<string, Attribute> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new SchemaError(source, '"attributes" must be an object');
  const attributes: Record<string, Attribute> = {};
  for (const [name, declared] of Object.entries(raw)) {
    if (RESERVED_ATTRIBUTE_NAMES.has(name))
      throw new SchemaError(source, `"${name}" is a reserved attribute name; rename the attribute`, name);
    if (localized && I18N_FIELD_NAMES.has(name))
      throw new SchemaError(
        source,
        `"${name}" is reserved on a localized content-type (i18n adds it); rename the attribute`,
        name,
      );
    // Strapi loads any name (its SQL columns are quoted: `Curriculum Name` works over REST); a stored
    // field cannot start with "$" or contain "." (a path), nor be empty
    if (name === '' || name.startsWith('$') || name.includes('.') || name.includes('\0'))
      throw new SchemaError(source, 'invalid attribute name: it may not be empty, start with "$" or contain "."', name);
    const attr = isCustomFieldDeclaration(declared) ? resolveCustomField(source, name, declared, options) : declared;
    if (attr && typeof attr === 'object' && attr.type === undefined && ('model' in attr || 'collection' in attr)) {
      const media = (attr as { plugin?: unknown }).plugin === 'upload';
      throw new SchemaError(
        source,
        `"model"/"collection" without "type" is Strapi v3's way to declare ${media ? 'media' : 'a relation'}; ` +
          (media
            ? 'in v4 write { "type": "media", "multiple": false, "allowedTypes": [...] }'
            : 'in v4 write { "type": "relation", "relation": "manyToOne", "target": "api::<api>.<name>" }'),
        name,
      );
    }
    if (!attr || typeof attr !== 'object' || !KNOWN_TYPES.has(attr.type)) {
      throw new SchemaError(
        source,
        `unknown attribute type ${JSON.stringify((attr as { type?: unknown } | null)?.type)}; Strapi v4's types are ${TYPE_LIST}`,
        name,
      );
    }
    checkAttribute(source, name, attr);
    attributes[name] = attr;
  }
  return attributes;
}

function checkAttribute(source: string, name: string, attr: Attribute): void {
  if (
    attr.type === 'enumeration' &&
    (!Array.isArray(attr.enum) || attr.enum.length === 0 || attr.enum.some((v) => typeof v !== 'string'))
  ) {
    const registered = attr.customField ? ` (custom field ${attr.customField} is registered as an enumeration)` : '';
    throw new SchemaError(source, `an enumeration needs a non-empty "enum" array of strings${registered}`, name);
  }
  const kinds: readonly string[] = [...RELATION_KINDS, ...MORPH_RELATION_KINDS];
  if (attr.type === 'relation' && !kinds.includes(attr.relation)) {
    throw new SchemaError(
      source,
      `unknown relation kind ${JSON.stringify(attr.relation)}; use one of ${kinds.join(', ')}`,
      name,
    );
  }
  if (isMorph(attr)) {
    checkMorphAttribute(source, name, attr);
    return;
  }
  if (attr.type === 'relation' && attr.inversedBy && attr.mappedBy) {
    throw new SchemaError(source, 'a relation cannot have both inversedBy and mappedBy; keep one of them', name);
  }
  if (attr.type === 'relation' && typeof attr.target !== 'string') {
    throw new SchemaError(source, 'a relation needs "target": "api::<api>.<name>"', name);
  }
  if (attr.type === 'component' && typeof attr.component !== 'string') {
    throw new SchemaError(source, 'a component attribute needs "component": "<category>.<name>"', name);
  }
  if (attr.type === 'dynamiczone' && (!Array.isArray(attr.components) || attr.components.length === 0)) {
    throw new SchemaError(source, 'a dynamic zone needs a non-empty "components" array', name);
  }
}

/** `morphOne`/`morphMany` name the `morphTo*` attribute of their target that links back (checked once all types are known). */
function checkMorphAttribute(source: string, name: string, attr: MorphAttribute): void {
  if (isMorphTo(attr)) return;
  if (typeof attr.target !== 'string' || typeof attr.morphBy !== 'string')
    throw new SchemaError(
      source,
      `a ${attr.relation} needs "target": "api::<api>.<name>" and "morphBy": the morphToOne/morphToMany attribute of that type`,
      name,
    );
}

/**
 * Strapi v4's table name for a schema without `collectionName`: the singular name, prefixed with
 * the plugin's name for a plugin's type (dashes become underscores).
 */
function defaultCollectionName(uid: string, singularName: string): string {
  const plugin = uid.startsWith('plugin::') ? uid.slice('plugin::'.length).split('.')[0] : undefined;
  return (plugin ? `${plugin}_${singularName}` : singularName).toLowerCase().replace(/-/g, '_');
}

export function normalizeContentType(input: ContentTypeSource, options: NormalizeOptions): ContentType {
  const { schema, source, uid } = input;
  if (!schema || typeof schema !== 'object') throw new SchemaError(source, 'not a JSON object');
  const kind = schema.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') {
    throw new SchemaError(source, `"kind" must be "collectionType" or "singleType", got ${JSON.stringify(kind)}`);
  }
  const info = schema.info ?? ({} as ContentTypeSchema['info']);
  for (const key of ['singularName', 'pluralName'] as const) {
    if (typeof info[key] !== 'string' || !/^[a-z][a-z0-9-]*$/.test(info[key])) {
      throw new SchemaError(source, `info.${key} must be a kebab-case string, got ${JSON.stringify(info[key])}`);
    }
  }
  // Strapi checks this for the apis' content-types only (their REST routes are named after both);
  // a plugin's content-type may use one name (@webbio/strapi-plugin-scheduler)
  if (info.singularName === info.pluralName && uid.startsWith('api::'))
    throw new SchemaError(source, 'info.singularName and info.pluralName must differ; give pluralName its plural form');
  const collectionName = schema.collectionName ?? defaultCollectionName(uid, info.singularName);
  // Strapi quotes its table names, so a dash is as good as an underscore (`default-landers`)
  if (typeof collectionName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(collectionName)) {
    throw new SchemaError(
      source,
      `"collectionName" must be letters, digits, "_" and "-", got ${JSON.stringify(collectionName)}`,
    );
  }
  const draftAndPublish = schema.options?.draftAndPublish === true;
  const localized = options.i18n && schema.pluginOptions?.i18n?.localized === true;
  const attributes = normalizeAttributes(source, schema.attributes, options, localized);
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
    kind,
    collectionName,
    singularName: info.singularName,
    pluralName: info.pluralName,
    displayName: info.displayName ?? info.singularName,
    namespace: input.namespace ?? 'api',
    draftAndPublish,
    localized,
    attributes,
    relations: {},
    source,
    declared: schema,
  };
}

export function normalizeComponent(input: ComponentSource, options: NormalizeOptions): Component {
  const { schema, source, uid } = input;
  if (!schema || typeof schema !== 'object') throw new SchemaError(source, 'not a JSON object');
  const attributes = normalizeAttributes(source, schema.attributes, options);
  const [category] = uid.split('.');
  return {
    modelType: 'component',
    uid,
    category: category ?? uid,
    collectionName: schema.collectionName ?? `components_${uid.replace(/[.-]/g, '_')}`,
    displayName: schema.info?.displayName ?? uid,
    attributes,
    relations: {},
    source,
    declared: schema,
  };
}

/** Fills `relations` once every schema is known, checking targets and both sides of bidirectional relations. */
export function linkRelations(
  schema: ContentType | Component,
  contentTypes: Map<string, ContentType>,
  notices: SchemaNotice[],
  deferred?: SchemaError[],
  addedByCode: ReadonlySet<string> = new Set(),
): void {
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
    if (isMorph(attr)) {
      linkMorph(schema, name, attr, contentTypes);
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
    if (!target)
      throw new SchemaError(
        schema.source,
        `unknown relation target "${attr.target}"; add that content-type (or its plugin) or remove the attribute`,
        name,
      );
    let targetAttribute: RelationAttribute | undefined;
    if (attr.mappedBy) {
      const other = target.attributes[attr.mappedBy];
      if (!isTargetRelation(other) || other.target !== schema.uid || other.inversedBy !== name) {
        // Strapi v4 starts with such a side but never links it (no owner names it): it is left out here
        delete schema.attributes[name];
        notices.push({
          level: 'warn',
          message:
            `${schema.source} (attribute "${name}"): left out, mappedBy "${attr.mappedBy}" names no relation of ` +
            `${attr.target} with inversedBy "${name}"; add that attribute to ${attr.target} or remove this one`,
        });
        continue;
      }
      targetAttribute = other;
    }
    if (attr.inversedBy) {
      // a side left out above (its mappedBy names no owner) still counts here, as in Strapi v4
      const other = target.attributes[attr.inversedBy] ?? target.declared.attributes[attr.inversedBy];
      if (!isTargetRelation(other)) {
        const error = new SchemaError(
          schema.source,
          `inversedBy "${attr.inversedBy}" must name a relation of ${attr.target} with mappedBy "${name}"; ` +
            `add that attribute to ${attr.target} or remove "inversedBy"`,
          name,
        );
        // an api type's (or a type the code added) owner side whose other side the app's code may
        // still add: one-way until then
        const mayWait =
          schema.modelType === 'contentType' && (schema.namespace === 'api' || addedByCode.has(schema.uid));
        if (!deferred || other || !mayWait) throw error;
        deferred.push(error);
        const { inversedBy: _missing, ...oneWay } = attr;
        schema.attributes[name] = oneWay;
        schema.relations[name] = describeRelation(name, oneWay);
        continue;
      }
      if (other.target !== schema.uid || other.mappedBy !== name) {
        // Strapi v4 makes this side own its links and wires the other side to whichever owner it maps:
        // here it is a one-way relation
        const { inversedBy, ...oneWay } = attr;
        schema.attributes[name] = oneWay;
        schema.relations[name] = describeRelation(name, oneWay);
        notices.push({
          level: 'info',
          message:
            `${schema.source} (attribute "${name}"): ${attr.target}.${inversedBy} maps ` +
            `${other.mappedBy ? `"${other.mappedBy}"` : 'no attribute of this type'}, so "${name}" is one-way (its links are its own)`,
        });
        continue;
      }
    }
    schema.relations[name] = describeRelation(name, attr, targetAttribute);
  }
}

/**
 * A polymorphic attribute once every schema is known: only on content-types (Strapi stores its
 * links in a table per content-type), and a `morphOne`/`morphMany` names an existing `morphTo*`
 * attribute of its target (Strapi: `Morph target not found`, `Morph target attribute not found`).
 */
function linkMorph(
  schema: ContentType | Component,
  name: string,
  attr: MorphAttribute,
  contentTypes: Map<string, ContentType>,
): void {
  if (schema.modelType === 'component')
    throw new SchemaError(
      schema.source,
      `a ${attr.relation} relation cannot be declared in a component; move it to a content-type`,
      name,
    );
  if (isMorphTo(attr)) return;
  const target = attr.target === undefined ? undefined : contentTypes.get(attr.target);
  if (!target)
    throw new SchemaError(
      schema.source,
      `unknown morph target "${String(attr.target)}"; add that content-type or remove the attribute`,
      name,
    );
  if (!isMorphTo(target.attributes[attr.morphBy ?? '']))
    throw new SchemaError(
      schema.source,
      `morphBy "${String(attr.morphBy)}" must name a morphToOne or morphToMany attribute of ${target.uid}`,
      name,
    );
}

/** A built-in collection type of a plugin (no Draft & Publish), as its plugin declares it. */
/** `pluginOptions` of a type Strapi hides from its admin and builder (most of its own plugins' types). */
export const HIDDEN_FROM_ADMIN = {
  'content-manager': { visible: false },
  'content-type-builder': { visible: false },
} as const;

export function pluginCollectionType(input: {
  uid: string;
  source: string;
  collectionName: string;
  singularName: string;
  pluralName: string;
  displayName: string;
  attributes: ContentTypeSchema['attributes'];
  /** hidden from Strapi's admin and builder (its own plugins' types mostly are) */
  hidden?: boolean;
}): ContentTypeSource {
  const { uid, source, collectionName, singularName, pluralName, displayName, attributes } = input;
  return {
    uid,
    source,
    namespace: 'plugin',
    schema: {
      kind: 'collectionType',
      collectionName,
      info: { singularName, pluralName, displayName },
      options: { draftAndPublish: false },
      ...(input.hidden ? { pluginOptions: HIDDEN_FROM_ADMIN } : {}),
      attributes,
    },
  };
}

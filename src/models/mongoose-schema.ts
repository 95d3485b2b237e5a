import mongoose, { Schema, type SchemaDefinition, type SchemaDefinitionProperty } from 'mongoose';
import {
  isManagedField,
  isMorphTo,
  type Attribute,
  type Component,
  type ContentType,
  type Registry,
} from '../content-types/index.js';
import { hasUniqueIndex, readIndexes } from './read-indexes.js';
import { CLAIMS, LINK_ORDER, REVISION } from './storage-fields.js';

/** The Mongoose path of one scalar attribute (storage layout: docs/ARCHITECTURE.md). */
function scalarPath(attribute: Attribute): SchemaDefinitionProperty {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'enumeration':
    case 'email':
    case 'uid':
    case 'password':
    case 'date':
    case 'time':
      return { type: String };
    case 'datetime':
    case 'timestamp':
      return { type: Date };
    case 'integer':
    case 'float':
    case 'decimal':
      return { type: Number };
    case 'biginteger':
      return { type: BigInt };
    case 'boolean':
      return { type: Boolean };
    case 'json':
    case 'blocks':
      return { type: Schema.Types.Mixed };
    default:
      throw new Error(`not a scalar attribute type: ${attribute.type}`);
  }
}

function attributePaths(schema: ContentType | Component, registry: Registry, seen: Set<string>): SchemaDefinition {
  const def: SchemaDefinition = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (isManagedField(schema, name)) continue;
    switch (attribute.type) {
      case 'relation':
      case 'media': {
        // a polymorphic link is `{ __type, id }` (a list of them for morphToMany)
        if (isMorphTo(attribute)) {
          def[name] =
            attribute.relation === 'morphToMany'
              ? { type: [Schema.Types.Mixed], default: undefined }
              : { type: Schema.Types.Mixed, default: null };
          break;
        }
        const relation = schema.relations[name];
        if (!relation?.stored) break;
        def[name] = relation.multiple ? { type: [Number], default: undefined } : { type: Number, default: null };
        break;
      }
      case 'component': {
        const component = registry.component(attribute.component);
        if (!component) throw new Error(`unknown component ${attribute.component}`);
        const sub = componentSchema(component, registry, seen);
        def[name] = attribute.repeatable ? { type: [sub], default: undefined } : { type: sub, default: null };
        break;
      }
      case 'dynamiczone':
        def[name] = { type: [Schema.Types.Mixed], default: undefined };
        break;
      default:
        def[name] = scalarPath(attribute);
    }
  }
  return def;
}

function componentSchema(component: Component, registry: Registry, seen: Set<string>): Schema {
  if (seen.has(component.uid)) throw new Error(`component ${component.uid} includes itself`);
  const inner = new Set(seen).add(component.uid);
  // `id` is a stored integer here, so Mongoose's `id` virtual is turned off.
  return new Schema(
    { id: { type: Number, required: true }, ...attributePaths(component, registry, inner) },
    { _id: false, id: false, strict: true, suppressReservedKeysWarning: true },
  );
}

/**
 * A single type has one entry (one per locale): a unique index on `locale`, which is missing (null)
 * on every entry of a non-localized one. A non-localized single type whose own attribute is named
 * `locale` uses `localeGroup` instead, which only localized types store.
 */
function singleEntryIndex(contentType: ContentType): [Record<string, 1>, mongoose.IndexOptions] {
  const field = contentType.localized || !('locale' in contentType.attributes) ? 'locale' : 'localeGroup';
  return [
    { [field]: 1 },
    { unique: true, name: field === 'locale' ? 'single_entry_unique' : 'single_entry_unique_group' },
  ];
}

/** The Mongoose schema of a content-type, with its indexes. */
export function contentTypeSchema(contentType: ContentType, registry: Registry): Schema {
  const def: SchemaDefinition = {
    _id: { type: Number, required: true },
    ...attributePaths(contentType, registry, new Set()),
    [REVISION]: { type: Number, default: 0 },
    [CLAIMS]: { type: Schema.Types.Mixed, default: undefined },
    [LINK_ORDER]: { type: Schema.Types.Mixed, default: undefined },
  };
  if (contentType.draftAndPublish) def.publishedAt = { type: Date, default: null };
  if (contentType.localized) {
    def.locale = { type: String, required: true };
    def.localeGroup = { type: Number, required: true };
  }
  const schema = new Schema(def, {
    collection: contentType.collectionName,
    timestamps: true,
    versionKey: false,
    id: false,
    strict: true,
    // Strapi attributes may be named like Mongoose's document methods (`collection`, `errors`, `get`...)
    suppressReservedKeysWarning: true,
    autoIndex: false,
    autoCreate: false,
  });
  for (const index of readIndexes(contentType)) schema.index(index.keys);
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    // uid attributes are unique as in Strapi (its validator checks them like `unique` ones)
    if (attribute.type === 'relation' || attribute.type === 'media') continue;
    if (!hasUniqueIndex(attribute)) continue;
    // unique across locales, as Strapi's validator; sparse: entries without a value do not collide
    // (writes leave an empty unique attribute unset)
    schema.index({ [name]: 1 }, { unique: true, sparse: true, name: `${name}_unique` });
  }
  // at most one entry per (localization group, locale); also serves look-ups by group
  if (contentType.localized) schema.index({ localeGroup: 1, locale: 1 }, { unique: true, name: 'localization_unique' });
  if (contentType.kind === 'singleType') schema.index(...singleEntryIndex(contentType));
  return schema;
}

export type ContentModel = mongoose.Model<Record<string, unknown>>;

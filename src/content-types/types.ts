/**
 * Strapi v4 `schema.json` shapes as read from disk, and the normalised content-type / component
 * descriptions the rest of the service works with.
 */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'enumeration',
  'email',
  'password',
  'uid',
  'date',
  'time',
  'datetime',
  'timestamp',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'json',
  'blocks',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/**
 * Strapi's polymorphic relations: `morphToOne`/`morphToMany` link to entries of any content-type
 * (`{ __type: uid, id }`), `morphOne`/`morphMany` are their inverse sides on a `target` type,
 * named by `morphBy` there.
 */
export const MORPH_RELATION_KINDS = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'] as const;
export type MorphRelationKind = (typeof MORPH_RELATION_KINDS)[number];

interface AttributeCommon {
  required?: boolean;
  unique?: boolean;
  private?: boolean;
  configurable?: boolean;
  writable?: boolean;
  /** `false` leaves the attribute out of `_q` search */
  searchable?: boolean;
  /** `false`: hidden from Strapi's builder and admin (its schema API leaves it out) */
  visible?: boolean;
  pluginOptions?: { i18n?: { localized?: boolean } } & Record<string, unknown>;
  /** the custom field this attribute was declared with (`plugin::color-picker.color`); `type` is its base type */
  customField?: string;
  /** a custom field's own options, kept as declared */
  options?: Record<string, unknown>;
}

export interface ScalarAttribute extends AttributeCommon {
  type: ScalarType;
  default?: unknown;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  /** enumeration values */
  enum?: string[];
  /** uid: the attribute it is derived from */
  targetField?: string;
  /** enumeration: the GraphQL enum type name to use instead of `ENUM_<TYPE>_<ATTRIBUTE>` */
  enumName?: string;
}

export interface RelationAttribute extends AttributeCommon {
  type: 'relation';
  relation: RelationKind;
  target: string;
  inversedBy?: string;
  mappedBy?: string;
  /** Strapi's builder flag, kept as declared */
  autoPopulate?: boolean;
}

/** A polymorphic relation (docs/ARCHITECTURE.md, storage layout: stored on the `morphTo*` side). */
export interface MorphAttribute extends AttributeCommon {
  type: 'relation';
  relation: MorphRelationKind;
  /** `morphOne`/`morphMany`: the content-type whose `morphTo*` attribute (`morphBy`) links here */
  target?: string;
  morphBy?: string;
}

export interface MediaAttribute extends AttributeCommon {
  type: 'media';
  multiple?: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttribute extends AttributeCommon {
  type: 'component';
  component: string;
  repeatable?: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeCommon {
  type: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute =
  ScalarAttribute | RelationAttribute | MorphAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;
export type AttributeType = Attribute['type'];

/** A custom field as a schema declares it; normalisation turns it into its plugin's base type. */
export interface CustomFieldAttribute extends Omit<ScalarAttribute, 'type'> {
  type: 'customField';
  customField: string;
}

/** An attribute as a schema file declares it. */
export type SchemaAttribute = Attribute | CustomFieldAttribute;

/** A `schema.json` of a content-type, as on disk. */
export interface ContentTypeSchema {
  /** Strapi v4 reads a missing kind as `collectionType` */
  kind?: 'collectionType' | 'singleType';
  /** Strapi v4 defaults it from the singular name (`<plugin>_<singular>` for a plugin's) */
  collectionName?: string;
  info: { singularName: string; pluralName: string; displayName: string; description?: string };
  options?: { draftAndPublish?: boolean } & Record<string, unknown>;
  pluginOptions?: { i18n?: { localized?: boolean } } & Record<string, unknown>;
  attributes: Record<string, SchemaAttribute>;
}

/** A component's JSON file, as on disk. */
export interface ComponentSchema {
  collectionName?: string;
  info: { displayName: string; icon?: string; description?: string };
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  attributes: Record<string, SchemaAttribute>;
}

/**
 * How a relation attribute is stored and resolved (docs/ARCHITECTURE.md, storage layout): only the owning side stores ids
 * (`stored`); an inverse (`mappedBy`) side is resolved by a `$lookup` on `inverse.field` of the target.
 */
export interface RelationInfo {
  attribute: string;
  target: string;
  /** true when this side holds many entries (an array in the response) */
  multiple: boolean;
  /** true when this collection stores the ids (to-one: a number or null, to-many: an array of numbers) */
  stored: boolean;
  /** set on `mappedBy` sides: the target's stored attribute that points back, and whether it is an array */
  inverse?: { field: string; multiple: boolean };
  /** the i18n `localizations` relation: entries of the same `localeGroup`, other than the entry itself */
  localizations?: boolean;
  /** a media attribute: stored ids of `plugin::upload.file` entries */
  media?: boolean;
}

export interface ContentType {
  modelType: 'contentType';
  uid: string;
  kind: 'collectionType' | 'singleType';
  collectionName: string;
  singularName: string;
  pluralName: string;
  displayName: string;
  /** `api`, or the plugin that owns it (`users-permissions`, `upload`) */
  namespace: 'api' | 'plugin';
  draftAndPublish: boolean;
  localized: boolean;
  /**
   * Every attribute a client can address, in schema order, followed by the system attributes
   * Strapi adds: `createdAt`, `updatedAt`, `publishedAt` (Draft & Publish), `locale` and
   * `localizations` (i18n). Private ones are included and flagged `private: true`.
   */
  attributes: Record<string, Attribute>;
  relations: Record<string, RelationInfo>;
  /** file the schema came from, for error messages */
  source: string;
  /** the schema as its file (and the app's extensions) declared it: what Strapi's schema API answers */
  declared: ContentTypeSchema;
}

export interface Component {
  modelType: 'component';
  uid: string;
  category: string;
  collectionName: string;
  displayName: string;
  attributes: Record<string, Attribute>;
  relations: Record<string, RelationInfo>;
  source: string;
  /** the schema as its file declared it */
  declared: ComponentSchema;
}

export type Schema = ContentType | Component;

/** Attribute names a schema may not declare (Strapi's reserved names plus our storage fields). */
export const RESERVED_ATTRIBUTE_NAMES = new Set([
  'id',
  '_id',
  '__v',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'localeGroup',
  '__component',
  'document_id',
  'documentId',
  '__rev',
  '__claim',
  '__order',
  '__lease',
  '__grants',
  '__proto__',
]);

/**
 * Collections the service keeps beside the content-types' (a content-type stored in one would
 * share it): the id counters, the write leases, Strapi's webhooks and its settings store.
 */
export const RESERVED_COLLECTION_NAMES = new Set([
  'counters',
  'content_service_leases',
  'content_service_settles',
  'content_service_pending_uploads',
  'strapi_webhooks',
  'strapi_core_store_settings',
]);

/**
 * The fields i18n adds to a localized content-type: reserved there only. On any other content-type
 * or component they are ordinary attributes, as in Strapi (a `locale` string of a type without i18n).
 */
export const I18N_FIELD_NAMES = new Set(['locale', 'localizations']);

import type { SchemaNotice } from './notices.js';
import type { CustomFieldAttribute, ScalarType } from './types.js';

/**
 * The base types a custom field may be registered with (Strapi v4's custom-field registry accepts
 * exactly these; `strapi.customFields.register({ name, plugin, type })`).
 */
export const CUSTOM_FIELD_BASE_TYPES = [
  'biginteger',
  'boolean',
  'date',
  'datetime',
  'decimal',
  'email',
  'enumeration',
  'float',
  'integer',
  'json',
  'password',
  'richtext',
  'string',
  'text',
  'time',
  'uid',
] as const satisfies readonly ScalarType[];
export type CustomFieldBaseType = (typeof CUSTOM_FIELD_BASE_TYPES)[number];

/** Custom field uid → base type, from the app's configuration (`config/custom-fields`). */
export type CustomFieldTypes = Readonly<Record<string, CustomFieldBaseType>>;

/**
 * Custom fields whose plugins are widely used with Strapi v4, and the base type each plugin
 * registers on the server (its `register` phase). The uid is `plugin::<plugin>.<name>`.
 */
export const KNOWN_CUSTOM_FIELDS: CustomFieldTypes = {
  // Strapi's own
  'plugin::color-picker.color': 'string',
  // rich-text editors
  'plugin::ckeditor.CKEditor': 'richtext',
  'plugin::ckeditor5.CKEditor': 'richtext',
  'plugin::tinymce.tinymce': 'richtext',
  // selects and tags
  'plugin::multi-select.multi-select': 'json',
  'plugin::country-select.country': 'string',
  'plugin::timezone-select.timezone': 'string',
  'plugin::tagsinput.tags': 'json',
  'plugin::remote-select.remote-select': 'string',
  'plugin::remote-select.searchable-remote-select': 'string',
  // icons
  'plugin::react-icons.icon': 'string',
  'plugin::icons-field.icon': 'text',
  'plugin::heroicons-field.icon-picker': 'text',
  'plugin::strapi-plugin-iconhub.iconhub': 'json',
  // maps, media, embeds, code
  'plugin::google-maps.location-picker': 'json',
  'plugin::video-field.video': 'json',
  'plugin::oembed.oembed': 'text',
  'plugin::strapi-code-editor-custom-field.code-editor-json': 'json',
  'plugin::strapi-code-editor-custom-field.code-editor-text': 'text',
  // identifiers
  'plugin::strapi-advanced-uuid.uuid': 'uid',
};

export function isCustomFieldBaseType(value: unknown): value is CustomFieldBaseType {
  return typeof value === 'string' && (CUSTOM_FIELD_BASE_TYPES as readonly string[]).includes(value);
}

/** A schema attribute declared as `{ "type": "customField", "customField": "<uid>", "options": {...} }`. */
export function isCustomFieldDeclaration(attribute: unknown): attribute is CustomFieldAttribute {
  return (
    attribute !== null && typeof attribute === 'object' && (attribute as { type?: unknown }).type === 'customField'
  );
}

/**
 * The base type of a custom field: the app's mapping first, then the known plugins; `json` (with
 * one warning naming the field and the mapping to add) when neither knows it.
 */
export function customFieldBaseType(
  uid: string,
  configured: CustomFieldTypes,
  where: { source: string; attribute: string },
  notices: SchemaNotice[],
): CustomFieldBaseType {
  const known = configured[uid] ?? KNOWN_CUSTOM_FIELDS[uid];
  if (known) return known;
  notices.push({
    level: 'warn',
    message:
      `${where.source} (attribute "${where.attribute}"): custom field "${uid}" has no known base type and the app's ` +
      `code does not register it, so it is stored as JSON; map it in config/custom-fields, e.g. { "${uid}": "string" }`,
    unknownCustomField: uid,
  });
  return 'json';
}

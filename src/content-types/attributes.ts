import type { Attribute, Schema } from './types.js';

/** Never selected, filtered, sorted or populated by a client, never in a response. */
export function isPrivate(attribute: Attribute): boolean {
  return attribute.private === true || attribute.type === 'password';
}

/** Attributes that `fields` selects and that are returned by default (Strapi: everything but relations, media, components, dynamic zones). */
export function isScalar(attribute: Attribute): boolean {
  return (
    attribute.type !== 'relation' &&
    attribute.type !== 'media' &&
    attribute.type !== 'component' &&
    attribute.type !== 'dynamiczone'
  );
}

/**
 * Fields the service keeps itself on a content-type's entries: the timestamps, Draft & Publish's
 * `publishedAt`, and i18n's `locale` and `localizations` on a localized type. Elsewhere a `locale`
 * or `localizations` is the schema's own attribute, read and written like any other.
 */
export function isManagedField(schema: Schema, name: string): boolean {
  if (schema.modelType !== 'contentType') return false;
  if (name === 'locale' || name === 'localizations') return schema.localized;
  return name === 'createdAt' || name === 'updatedAt' || name === 'publishedAt';
}

import {
  MORPH_RELATION_KINDS,
  type Attribute,
  type MorphAttribute,
  type RelationAttribute,
  type Schema,
} from './types.js';

const MORPH_KINDS = new Set<string>(MORPH_RELATION_KINDS);

/** A polymorphic relation (`morphToOne`, `morphToMany`, `morphOne`, `morphMany`). */
export function isMorph(attribute: Attribute | undefined): attribute is MorphAttribute {
  return attribute?.type === 'relation' && MORPH_KINDS.has(attribute.relation);
}

/** A relation to one content-type (every relation but the polymorphic ones). */
export function isTargetRelation(attribute: Attribute | undefined): attribute is RelationAttribute {
  return attribute?.type === 'relation' && !MORPH_KINDS.has(attribute.relation);
}

/** The side of a polymorphic relation that stores the links (`{ __type, id }`). */
export function isMorphTo(
  attribute: Attribute | undefined,
): attribute is MorphAttribute & { relation: 'morphToOne' | 'morphToMany' } {
  return isMorph(attribute) && (attribute.relation === 'morphToOne' || attribute.relation === 'morphToMany');
}

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

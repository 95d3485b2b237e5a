/**
 * The resolver of `<Type>Entity.attributes`. The service's own reads answer envelopes
 * (`{ id, attributes }`); Strapi's resolver is the identity, so a custom resolver may answer a
 * flat entry (`{ id, title, ... }`, as `strapi.entityService` reads it) for a `<Type>Entity` and
 * have its fields read from it. Both are answered.
 */
import { isRecord } from './values.js';

/** An envelope holds its `id` and `attributes` only; a flat entry also has its fields. */
function isEnvelope(entity: Record<string, unknown>): boolean {
  return isRecord(entity.attributes) && Object.keys(entity).every((key) => key === 'id' || key === 'attributes');
}

export function entityAttributes(entity: unknown): Record<string, unknown> | null {
  if (!isRecord(entity)) return null;
  return isEnvelope(entity) ? (entity.attributes as Record<string, unknown>) : entity;
}

/**
 * The resolver of `<Type>Entity.attributes`. The service's own reads answer envelopes
 * (`{ id, attributes }`); Strapi's resolver is the identity, so a custom resolver may answer a
 * flat entry (`{ id, title, ... }`, as `strapi.entityService` reads it) for a `<Type>Entity` and
 * have its fields read from it. Both are answered.
 */
import { isRecord } from './values.js';

/** An envelope holds its `id` and `attributes` only; a flat entry also has its fields (checked without copying the keys: every entity of an answer comes here). */
function isEnvelope(entity: Record<string, unknown>): boolean {
  if (!isRecord(entity.attributes)) return false;
  for (const key in entity) if (key !== 'id' && key !== 'attributes' && Object.hasOwn(entity, key)) return false;
  return true;
}

export function entityAttributes(entity: unknown): Record<string, unknown> | null {
  if (!isRecord(entity)) return null;
  return isEnvelope(entity) ? (entity.attributes as Record<string, unknown>) : entity;
}

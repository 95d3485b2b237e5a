import type { RelationAttribute, RelationInfo } from './types.js';

const TO_MANY = new Set(['oneToMany', 'manyToMany', 'manyWay', 'morphToMany']);

/** Whether the side declaring `attribute` holds many entries. */
export function isToMany(attribute: RelationAttribute): boolean {
  return TO_MANY.has(attribute.relation);
}

/**
 * Storage and resolution of one relation attribute. `targetAttribute` is the attribute named by
 * `mappedBy` on the target (only for inverse sides).
 */
export function describeRelation(
  name: string,
  attribute: RelationAttribute,
  targetAttribute?: RelationAttribute,
): RelationInfo {
  if (attribute.mappedBy && targetAttribute) {
    return {
      attribute: name,
      target: attribute.target,
      multiple: isToMany(attribute),
      stored: false,
      inverse: { field: attribute.mappedBy, multiple: isToMany(targetAttribute) },
    };
  }
  return { attribute: name, target: attribute.target, multiple: isToMany(attribute), stored: true };
}

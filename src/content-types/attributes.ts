import type { Attribute } from './types.js';

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

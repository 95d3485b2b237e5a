/**
 * Polymorphic fields as Strapi 4.26's GraphQL types them: a `morphToMany` is `[GenericMorph]`, a
 * `morphToOne` `GenericMorph` (its `morphOne`/`morphMany` sides have no field). The linked entries
 * were read with the entry (selection.ts asks for each type's inline fragment); each is answered
 * as its type's attributes (relations inside as `{ data }`), carrying `__type` for the union.
 * An empty list is null, as Strapi's output sanitizer leaves it.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { MorphAttribute, Registry } from '../../content-types/index.js';
import { MORPH_TYPE } from '../../query/index.js';
import { createFormatService } from './format-service.js';
import { GENERIC_MORPH } from './naming.js';
import { populatedValue } from './selection.js';
import { isRecord } from './values.js';

export function morphField(registry: Registry, name: string, attribute: MorphAttribute) {
  if (attribute.relation !== 'morphToMany' && attribute.relation !== 'morphToOne') return null;
  const format = createFormatService(registry);
  const member = (item: unknown): unknown => {
    if (!isRecord(item)) return null;
    const marked: unknown = (item as Record<string | symbol, unknown>)[MORPH_TYPE];
    const type = typeof item.__type === 'string' ? item.__type : typeof marked === 'string' ? marked : undefined;
    if (type === undefined) return null;
    const { __type: _type, ...flat } = item;
    const { data } = format.returnTypes.toEntityResponse(flat, { resourceUID: type });
    return isRecord(data) && isRecord(data.attributes) ? Object.assign(data.attributes, { __type: type }) : null;
  };
  const resolve = (parent: unknown, _args: unknown, _context: unknown, info: GraphQLResolveInfo) => {
    const value = populatedValue(parent, name, info.path.key);
    if (attribute.relation === 'morphToOne') return member(value);
    return Array.isArray(value) && value.length > 0 ? value.map(member) : null;
  };
  return { type: attribute.relation === 'morphToMany' ? `[${GENERIC_MORPH}]` : GENERIC_MORPH, resolve };
}

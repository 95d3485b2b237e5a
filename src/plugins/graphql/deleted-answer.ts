/**
 * What a delete mutation answers, as Strapi's GraphQL plugin answers it: the entry is read without
 * its relations and components, and those fields are resolved after the delete, when they no longer
 * exist: to-many relations `{ data: [] }`, to-one `{ data: null }`, components (lists too) and
 * dynamic zones null.
 */
import type { Schema } from '../../content-types/index.js';
import type { EntryResponse, RawQuery } from '../../operations/index.js';
import { POPULATE_ATTRIBUTE } from '../../query/index.js';
import { isRecord } from './values.js';

/** The query a delete reads the entry with: the selection's fields, nothing populated. */
export function deleteReadQuery(query: RawQuery): RawQuery {
  const { populate: _populate, ...rest } = query;
  return rest;
}

/** The deleted entry's answer with every populated field of the selection answered empty. */
export function emptiedAfterDelete<T extends EntryResponse | { data: null }>(
  schema: Schema,
  query: RawQuery,
  answer: T,
): T {
  const populate = query.populate;
  if (!answer.data || !isRecord(populate)) return answer;
  const attributes = { ...answer.data.attributes };
  for (const [key, spec] of Object.entries(populate)) {
    const aliased: unknown = isRecord(spec)
      ? (spec as { [POPULATE_ATTRIBUTE]?: unknown })[POPULATE_ATTRIBUTE]
      : undefined;
    const name = typeof aliased === 'string' ? aliased : key;
    const attribute = schema.attributes[name];
    if (!attribute) continue;
    if (attribute.type === 'relation' || attribute.type === 'media')
      attributes[key] = { data: schema.relations[name]?.multiple ? [] : null };
    else if (attribute.type === 'component' || attribute.type === 'dynamiczone') attributes[key] = null;
  }
  return { ...answer, data: { ...answer.data, attributes } };
}

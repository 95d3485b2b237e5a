/**
 * What a core controller's `sanitizeOutput`, `sanitizeInput`, `validateInput` and
 * `transformResponse` do to flat entries (`{ id, ...attributes }`, as services and the entity
 * service give them), with Strapi v4's semantics: private and password attributes never leave,
 * a relation to a content-type the caller may not `find` is removed (media are not restricted, as
 * on REST), `id` and the timestamps are not writable; keys that are no attribute stay as they are.
 */
import { isMorph, isPrivate, type Attribute, type Registry, type Schema } from '../content-types/index.js';
import { UPLOAD_FILE_UID } from '../content-types/index.js';
import { ValidationError } from '../errors/index.js';
import type { QueryAccess } from '../query/index.js';

type Doc = Record<string, unknown>;

const NOT_WRITABLE = new Set(['id', 'createdAt', 'updatedAt']);

function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function each(value: unknown, fn: (item: Doc) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isDoc(item) ? fn(item) : item));
  return isDoc(value) ? fn(value) : value;
}

/** The schema an attribute's value is an entry or component of (undefined: a scalar). */
function nestedSchema(registry: Registry, attribute: Attribute, item: Doc): Schema | undefined {
  switch (attribute.type) {
    case 'relation':
      // a polymorphic link names its content-type in `__type`
      if (attribute.target === undefined)
        return typeof item.__type === 'string' ? registry.schema(item.__type) : undefined;
      return registry.schema(attribute.target);
    case 'media':
      return registry.schema(UPLOAD_FILE_UID);
    case 'component':
      return registry.schema(attribute.component);
    case 'dynamiczone':
      return typeof item.__component === 'string' ? registry.schema(item.__component) : undefined;
    default:
      return undefined;
  }
}

function restricted(attribute: Attribute, access: QueryAccess): boolean {
  if (isMorph(attribute)) return attribute.target !== undefined && !access.canRead(attribute.target);
  return attribute.type === 'relation' && !access.canRead(attribute.target);
}

/**
 * A polymorphic list keeps the links to types the caller may read; none left removes the key, as
 * Strapi 4.26's removeRestrictedRelations does (an empty list too). undefined: leave the key out.
 */
function readableMorphs(value: unknown, access: QueryAccess): unknown {
  if (!Array.isArray(value)) return value;
  const kept = value.filter((item) => isDoc(item) && typeof item.__type === 'string' && access.canRead(item.__type));
  return kept.length > 0 ? kept : undefined;
}

/** `sanitizeOutput`: an entry or a list of entries of `schema`, as the caller may see them. */
export function sanitizeOutput(registry: Registry, schema: Schema, data: unknown, access: QueryAccess): unknown {
  return each(data, (entry) => {
    const out: Doc = {};
    for (const [key, value] of Object.entries(entry)) {
      const attribute = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
      if (!attribute) {
        out[key] = value;
        continue;
      }
      if (isPrivate(attribute) || restricted(attribute, access)) continue;
      const readable =
        attribute.type === 'relation' && attribute.target === undefined ? readableMorphs(value, access) : value;
      if (readable === undefined) continue;
      out[key] = each(readable, (item) => {
        const nested = nestedSchema(registry, attribute, item);
        return nested ? sanitizeOutput(registry, nested, item, access) : item;
      });
    }
    return out;
  });
}

/** `sanitizeInput`: `data` without `id`, the timestamps, non-writable attributes and relations the caller may not read. */
export function sanitizeInput(schema: Schema, data: unknown, access: QueryAccess): unknown {
  return each(data, (entry) =>
    Object.fromEntries(Object.entries(entry).filter(([key]) => !refusedInput(schema, key, access))),
  );
}

function refusedInput(schema: Schema, key: string, access: QueryAccess): boolean {
  // links of a polymorphic attribute are checked one by one where they are written
  const attribute = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
  return (
    NOT_WRITABLE.has(key) || attribute?.writable === false || (attribute !== undefined && restricted(attribute, access))
  );
}

/** `validateInput`: what `sanitizeInput` would remove is a 400 instead. */
export function validateInput(schema: Schema, data: unknown, access: QueryAccess): void {
  each(data, (entry) => {
    const refused = Object.keys(entry).find((key) => refusedInput(schema, key, access));
    if (refused !== undefined) throw new ValidationError(`Invalid parameter ${refused}`, { key: refused });
  });
}

/** `transformResponse`: Strapi's REST envelope `{ data, meta }` of flat entries; nothing stays nothing. */
export function transformResponse(registry: Registry, schema: Schema, data: unknown, meta: Doc = {}): unknown {
  if (data === null || data === undefined) return data;
  return { data: envelope(registry, schema, data), meta };
}

function envelope(registry: Registry, schema: Schema | undefined, data: unknown): unknown {
  if (data === null || data === undefined) return data;
  if (Array.isArray(data)) return data.map((item) => envelope(registry, schema, item));
  if (!isDoc(data)) throw new Error('Entry must be an object');
  const { id, ...properties } = data;
  return { id, attributes: attributesOf(registry, schema, properties) };
}

function attributesOf(registry: Registry, schema: Schema | undefined, properties: Doc): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(properties)) {
    const attribute = schema && Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    const nestable = value === null || isDoc(value) || Array.isArray(value);
    if (!attribute || !nestable) out[key] = value;
    else if (attribute.type === 'relation' || attribute.type === 'media')
      out[key] = { data: envelope(registry, nestedSchema(registry, attribute, {}), value) };
    else if (attribute.type === 'component' || attribute.type === 'dynamiczone')
      out[key] = each(value, (item) => {
        const { id, ...rest } = item;
        return { id, ...attributesOf(registry, nestedSchema(registry, attribute, item), rest) };
      });
    else out[key] = value;
  }
  return out;
}

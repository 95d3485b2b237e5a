import { isPrivate, type Component, type ContentType } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import { isLogicalOperator, isValueOperator, looksLikeOperator } from '../operators.js';
import { asList, isPlainObject } from '../qs-values.js';
import { MAX_FILTER_DEPTH, type ParseContext } from './parse.js';

type Schema = ContentType | Component;

/**
 * What Strapi 4.26's query validator refuses in `filters`, before anything is read: a key that is
 * neither `id`, an attribute nor an operator, then a dynamic zone (or media), then a password,
 * then a private attribute, then a relation to a type the caller may not read. Strapi runs one
 * pass over the whole tree per kind in that order, so the first key of the earliest kind is the
 * one named (`Invalid parameter <key>`). Under `id` every key must be an operator (`filters[id][eq]`
 * is refused); values under other scalar attributes are not looked at: their
 * operators are checked where the filter is parsed (parse.ts), as Strapi's database layer does,
 * which is also why a findOne, which never applies its filters, refuses only what this finds.
 */
export function checkFilterKeys(ctx: ParseContext, schema: Schema, filters: unknown): void {
  // the app's own reads (entity service, query engine) are not validated by Strapi: parse.ts checks them
  if (ctx.access.readsPrivate) return;
  const found: (string | undefined)[] = [];
  walkEntity(ctx, schema, filters, found, 0);
  const key = found.find((refused) => refused !== undefined);
  if (key !== undefined) throw new ValidationError(`Invalid parameter ${key}`, {});
}

/** Under `id` (which Strapi's validator walks as it walks the entity), every key must be an operator. */
function walkOperators(value: unknown, found: (string | undefined)[], depth: number) {
  if (depth > MAX_FILTER_DEPTH || !isPlainObject(value)) return;
  for (const [key, nested] of Object.entries(value)) {
    if (!isLogicalOperator(key) && !isValueOperator(key)) found[UNKNOWN] ??= key;
    else if (isLogicalOperator(key)) walkOperators(nested, found, depth + 1);
  }
}

const CREATOR_FIELDS = new Set(['createdBy', 'updatedBy']);

/** Refusal kinds, in the order Strapi's validator looks for them. */
const UNKNOWN = 0;
const ZONE = 1;
const PASSWORD = 2;
const PRIVATE = 3;
const UNREADABLE = 4;

function walkEntity(ctx: ParseContext, schema: Schema, value: unknown, found: (string | undefined)[], depth: number) {
  if (depth > MAX_FILTER_DEPTH) return;
  const list = asList(value);
  if (list) {
    for (const item of list) walkEntity(ctx, schema, item, found, depth + 1);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, nested] of Object.entries(value)) {
    if (looksLikeOperator(key)) {
      if (isLogicalOperator(key)) walkEntity(ctx, schema, nested, found, depth + 1);
      else if (!isValueOperator(key)) found[UNKNOWN] ??= key;
      continue;
    }
    if (key === 'id') {
      walkOperators(nested, found, depth + 1);
      continue;
    }
    const attribute = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    if (!attribute) {
      // Strapi's content-types have the private relations `createdBy`/`updatedBy` (to admin users)
      if (schema.modelType === 'contentType' && CREATOR_FIELDS.has(key)) found[PRIVATE] ??= key;
      else found[UNKNOWN] ??= key;
      continue;
    }
    if (attribute.type === 'dynamiczone' || attribute.type === 'media') found[ZONE] ??= key;
    else if (isPrivate(attribute)) {
      if (attribute.type === 'password') found[PASSWORD] ??= key;
      else found[PRIVATE] ??= key;
    } else if (attribute.type === 'component') {
      const component = ctx.registry.component(attribute.component);
      if (component) walkEntity(ctx, component, nested, found, depth + 1);
    } else if (attribute.type === 'relation') {
      const relation = schema.relations[key];
      const target = relation ? ctx.registry.contentType(relation.target) : undefined;
      if (!target) continue;
      if (!ctx.access.canRead(target.uid)) found[UNREADABLE] ??= key;
      if (isPlainObject(nested)) walkEntity(ctx, target, nested, found, depth + 1);
    }
  }
}

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
 * pass over the whole tree per kind in that order, so a key of the earliest kind is the one named
 * (`Invalid parameter <key>`): the one its traversal meets first (Finding below). Under `id` every key must be an operator (`filters[id][eq]`
 * is refused); values under other scalar attributes are not looked at: their
 * operators are checked where the filter is parsed (parse.ts), as Strapi's database layer does,
 * which is also why a findOne, which never applies its filters, refuses only what this finds.
 */
export function checkFilterKeys(ctx: ParseContext, schema: Schema, filters: unknown): void {
  // the app's own reads (entity service, query engine) are not validated by Strapi: parse.ts checks them
  if (ctx.access.readsPrivate) return;
  const found: Finding[] = [];
  walkEntity(ctx, schema, filters, found, 0, 0);
  const first = found.find((refused) => refused !== undefined);
  if (first !== undefined) throw new ValidationError(`Invalid parameter ${first.key}`, {});
}

/**
 * A refused key and when Strapi's traversal meets it. The traversal is asynchronous: an object's
 * keys one after the other (each awaits its visitor and handlers, a nested value its own walk),
 * the items of a `$and` / `$or` list side by side (`Promise.all`), so the key met in the fewest
 * steps is the one named, whatever the list's order (`$and[0].$or[0].kind` loses to
 * `$and[1].featured`); on a tie, the earlier one.
 */
interface Finding {
  key: string;
  time: number;
}

/** Steps of the traversal: a key's visitor, its handlers, entering a nested value. */
const VISIT = 1;
const HANDLERS = 10;
const NEST = 2;

function note(found: Finding[], kind: number, key: string, time: number): void {
  const known = found[kind];
  if (known === undefined || time < known.time) found[kind] = { key, time };
}

/** Under `id` (which Strapi's validator walks as it walks the entity), every key must be an operator. */
function walkOperators(value: unknown, found: Finding[], depth: number, start: number): number {
  if (depth > MAX_FILTER_DEPTH || !isPlainObject(value)) return start;
  let time = start + NEST;
  for (const [key, nested] of Object.entries(value)) {
    time += VISIT;
    if (!isLogicalOperator(key) && !isValueOperator(key)) note(found, UNKNOWN, key, time);
    time += HANDLERS;
    if (isLogicalOperator(key)) time = walkOperators(nested, found, depth + 1, time);
  }
  return time;
}

const CREATOR_FIELDS = new Set(['createdBy', 'updatedBy']);

/** Refusal kinds, in the order Strapi's validator looks for them. */
const UNKNOWN = 0;
const ZONE = 1;
const PASSWORD = 2;
const PRIVATE = 3;
const UNREADABLE = 4;

/** Walks a filters value as Strapi's validator does; answers when its walk ends. */
function walkEntity(
  ctx: ParseContext,
  schema: Schema,
  value: unknown,
  found: Finding[],
  depth: number,
  start: number,
): number {
  if (depth > MAX_FILTER_DEPTH) return start;
  const list = asList(value);
  if (list) {
    // side by side: each item starts now, the list ends with the slowest
    return Math.max(start, ...list.map((item) => walkEntity(ctx, schema, item, found, depth + 1, start + NEST)));
  }
  if (!isPlainObject(value)) return start;
  let time = start + NEST;
  for (const [key, nested] of Object.entries(value)) {
    time += VISIT;
    if (looksLikeOperator(key)) {
      const known = isLogicalOperator(key) || isValueOperator(key);
      if (!known) note(found, UNKNOWN, key, time);
      time += HANDLERS;
      // Strapi walks the value of every key that names no attribute, an operator's too
      if (known) time = walkEntity(ctx, schema, nested, found, depth + 1, time);
      continue;
    }
    if (key === 'id') {
      time = walkOperators(nested, found, depth + 1, time + HANDLERS);
      continue;
    }
    const attribute = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    if (!attribute) {
      // Strapi's content-types have the private relations `createdBy`/`updatedBy` (to admin users)
      if (schema.modelType === 'contentType' && CREATOR_FIELDS.has(key)) note(found, PRIVATE, key, time);
      else note(found, UNKNOWN, key, time);
      time += HANDLERS;
      continue;
    }
    time += HANDLERS;
    if (attribute.type === 'dynamiczone' || attribute.type === 'media') note(found, ZONE, key, time - HANDLERS);
    else if (isPrivate(attribute))
      note(found, attribute.type === 'password' ? PASSWORD : PRIVATE, key, time - HANDLERS);
    else if (attribute.type === 'component') {
      const component = ctx.registry.component(attribute.component);
      if (component) time = walkEntity(ctx, component, nested, found, depth + 1, time);
    } else if (attribute.type === 'relation') {
      const relation = schema.relations[key];
      const target = relation ? ctx.registry.contentType(relation.target) : undefined;
      if (!target) continue;
      if (!ctx.access.canRead(target.uid)) note(found, UNREADABLE, key, time);
      if (isPlainObject(nested)) time = walkEntity(ctx, target, nested, found, depth + 1, time);
    }
  }
  return time;
}

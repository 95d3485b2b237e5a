/**
 * Relation and media fields of entries a custom resolver answered itself: flat
 * (`strapi.entityService`'s `{ id, title, author: ... }` for a `<Type>Entity`, see
 * entity-attributes.ts), or through the format service's `toEntityResponse`, whose attributes
 * carry their entry's id (`withEntryId`). Strapi's association resolver loads every such field
 * from the database; the generated queries here populate them in their one read instead, so an
 * entry that did not come through one has a selected field it lacks read on its own: the owner
 * entry by id with that field populated (one read per selected field and entry, as Strapi's
 * resolver costs; none for a field not selected). A component the format service answered knows
 * its place in its entry (`withComponentPlace`): its relation is read through the entry, populated
 * down to that component (Strapi loads it by the component's own id).
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Registry, Schema } from '../../content-types/index.js';
import { NotFoundError } from '../../errors/index.js';
import * as operations from '../../operations/index.js';
import { fieldError, operationContext, type GraphQLContext } from './context.js';
import { fieldOfEntryQuery, populatedValue } from './selection.js';
import { isRecord } from './values.js';

/** What a populated relation or media field holds: its `{ data }` answer (null: nothing linked). */
function isFieldAnswer(value: unknown): boolean {
  return isRecord(value) && Object.hasOwn(value, 'data');
}

/** The id of the entry the format service's attributes belong to (not enumerable: never answered, never spread). */
const ENTRY_ID = Symbol('entry id');

/** `attributes` carrying the id of their entry, for relation fields the entry does not hold. */
export function withEntryId<T extends Record<string, unknown>>(attributes: T, id: unknown): T {
  Object.defineProperty(attributes, ENTRY_ID, { value: id, enumerable: false });
  return attributes;
}

/**
 * Where a component sits in its entry: the entry, then each component attribute down to it (the
 * item's id in that attribute, and its component uid in a dynamic zone).
 */
export interface ComponentPlace {
  uid: string;
  id: number;
  steps: Array<{ attribute: string; id: number; component?: string }>;
}

const COMPONENT_PLACE = Symbol('component place');

/** A component's formatted attributes carrying their place (not enumerable: never answered, never spread). */
export function withComponentPlace<T extends Record<string, unknown>>(attributes: T, place: ComponentPlace): T {
  Object.defineProperty(attributes, COMPONENT_PLACE, { value: place, enumerable: false });
  return attributes;
}

function componentPlace(owner: Schema, parent: unknown): ComponentPlace | undefined {
  if (owner.modelType !== 'component' || !isRecord(parent) || !Object.hasOwn(parent, COMPONENT_PLACE)) return undefined;
  return (parent as { [COMPONENT_PLACE]?: ComponentPlace })[COMPONENT_PLACE];
}

/** The id of a flat entry of a content-type, or of the entry formatted attributes belong to (components have none to read by). */
function flatEntryId(owner: Schema, parent: unknown): number | undefined {
  if (owner.modelType !== 'contentType' || !isRecord(parent)) return undefined;
  const id = Number(Object.hasOwn(parent, ENTRY_ID) ? (parent as { [ENTRY_ID]?: unknown })[ENTRY_ID] : parent.id);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * The field's answer: as populated (at once: the generated queries' entries hold every selected
 * field), or read for an entry answered flat.
 */
export function relationFieldValue(
  registry: Registry,
  owner: Schema,
  name: string,
  parent: unknown,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): unknown {
  const value = populatedValue(parent, name, info.path.key);
  if (isFieldAnswer(value)) return value;
  const place = componentPlace(owner, parent);
  if (place) return readField(registry, owner, name, place, context, info);
  const id = flatEntryId(owner, parent);
  return id === undefined ? value : readField(registry, owner, name, { uid: owner.uid, id, steps: [] }, context, info);
}

/** The populate reaching `populate` (a component's) from its entry, along `steps`. */
function populateAlong(steps: ComponentPlace['steps'], populate: Record<string, unknown>): Record<string, unknown> {
  return steps.reduceRight<Record<string, unknown>>((inner, step) => {
    const level = { populate: inner };
    return { [step.attribute]: step.component ? { on: { [step.component]: level } } : level };
  }, populate);
}

/** The component at the end of `steps` in the entry's answered attributes (undefined: no longer there). */
function componentAt(attributes: unknown, steps: ComponentPlace['steps']): unknown {
  let current = attributes;
  for (const step of steps) {
    const value = isRecord(current) ? current[step.attribute] : undefined;
    const items = Array.isArray(value) ? value : [value];
    current = items.find(
      (item) => isRecord(item) && item.id === step.id && (!step.component || item.__component === step.component),
    );
  }
  return current;
}

/**
 * The owner entry by id (a draft too: the app's resolver answered it) with the field populated
 * live unless its arguments ask for preview, as any populated relation.
 */
async function readField(
  registry: Registry,
  owner: Schema,
  name: string,
  place: ComponentPlace,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  const query = fieldOfEntryQuery(info, registry, owner, context);
  const refused = fieldError(context, info.fieldNodes[0]);
  if (refused) throw refused;
  const populate = isRecord(query.populate) ? query.populate : {};
  for (const level of Object.values(populate)) if (isRecord(level)) level.publicationState ??= 'live';
  try {
    const read = await operations.findOne(operationContext(context), place.uid, String(place.id), {
      fields: ['id'],
      populate: populateAlong(place.steps, populate),
      publicationState: 'preview',
    });
    return populatedValue(componentAt(read.data?.attributes, place.steps), name, info.path.key) ?? null;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

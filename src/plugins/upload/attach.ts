/**
 * `ref`, `refId`, `field` of an upload: the new files go into that media attribute of an entry
 * (`ref` a content-type uid, `refId` its id) or of a component inside one (`ref` a component uid,
 * `refId` the component's id, wherever it is nested). Checked before anything is stored (the
 * three come together, the target exists, `field` is a media attribute accepting the files' types,
 * the caller may `update` the entry); attached after the files are stored. A single media
 * attribute takes the (last) new file; a multiple one gets the new files appended.
 */
import type { Attribute, Component, ContentType, MediaAttribute, Registry } from '../../content-types/index.js';
import type { RequestAuth } from '../../access/ability.js';
import { ForbiddenError, ValidationError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import {
  allowsMime,
  atRevision,
  entries,
  isPlainObject,
  NEXT_REVISION,
  notAllowedMessage,
  retryWhileStale,
  StaleEntry,
  updateEntries,
  type StoredEntry,
} from '../../write/index.js';

export interface AttachRequest {
  ref: string;
  refId: number;
  field: string;
}

export interface AttachTarget {
  contentType: ContentType;
  entryId: number;
  /** the component uid when `ref` names one */
  component: string | null;
  refId: number;
  field: string;
  attribute: MediaAttribute;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** null when none of the three is given; a 400 when only some are, or refId is not an id. */
export function readAttachRequest(raw: { ref?: unknown; refId?: unknown; field?: unknown }): AttachRequest | null {
  const ref = text(raw.ref);
  const refId = text(raw.refId);
  const field = text(raw.field);
  if (ref === undefined && refId === undefined && field === undefined) return null;
  if (ref === undefined || refId === undefined || field === undefined)
    throw new ValidationError('ref, refId and field must be given together to attach the upload to an entry');
  if (!/^[1-9]\d{0,14}$/.test(refId)) throw new ValidationError(`refId must be an id, got "${refId}"`);
  return { ref, refId: Number(refId), field };
}

function componentUids(attribute: Attribute): string[] {
  if (attribute.type === 'component') return [attribute.component];
  if (attribute.type === 'dynamiczone') return attribute.components;
  return [];
}

/** Dotted paths (arrays traversed implicitly) under which components of `uid` are stored. */
function componentPaths(registry: Registry, schema: ContentType | Component, uid: string, seen: Set<string>): string[] {
  const paths: string[] = [];
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    for (const inner of componentUids(attribute)) {
      if (inner === uid) paths.push(name);
      const component = registry.component(inner);
      if (!component || seen.has(inner)) continue;
      for (const path of componentPaths(registry, component, uid, new Set(seen).add(inner)))
        paths.push(`${name}.${path}`);
    }
  }
  return [...new Set(paths)];
}

/** The stored component object of `uid` with `id` inside `value` (an entry or a part of one). */
function findComponent(
  registry: Registry,
  schema: ContentType | Component,
  value: Record<string, unknown>,
  uid: string,
  id: number,
): Record<string, unknown> | null {
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
    const stored = value[name];
    const items = (Array.isArray(stored) ? stored : [stored]).filter(isPlainObject);
    for (const item of items) {
      const itemUid = attribute.type === 'component' ? attribute.component : item.__component;
      if (typeof itemUid !== 'string') continue;
      if (itemUid === uid && item.id === id) return item;
      const component = registry.component(itemUid);
      const found = component ? findComponent(registry, component, item, uid, id) : null;
      if (found) return found;
    }
  }
  return null;
}

function mediaAttribute(schema: ContentType | Component, field: string): MediaAttribute {
  const attribute = schema.attributes[field];
  if (attribute?.type !== 'media') throw new ValidationError(`${field} is not a media attribute of ${schema.uid}`);
  return attribute;
}

/** The entry holding component `uid` #`id`, searched in every content-type that can hold it. */
async function entryHoldingComponent(
  ctx: ServiceContext,
  uid: string,
  id: number,
): Promise<{ contentType: ContentType; entry: StoredEntry } | null> {
  for (const contentType of ctx.registry.listContentTypes()) {
    const paths = componentPaths(ctx.registry, contentType, uid, new Set([uid]));
    if (paths.length === 0) continue;
    const candidates = entries(ctx.models, contentType.uid).find({ $or: paths.map((p) => ({ [`${p}.id`]: id })) });
    for await (const entry of candidates) {
      if (findComponent(ctx.registry, contentType, entry, uid, id)) return { contentType, entry };
    }
  }
  return null;
}

/** Where the upload goes; every problem is a 4xx before any file is stored. */
export async function resolveAttachTarget(
  ctx: ServiceContext,
  auth: RequestAuth,
  request: AttachRequest,
): Promise<AttachTarget> {
  const notFound = () => new ValidationError(`${request.ref} ${request.refId} does not exist`);
  const component = ctx.registry.component(request.ref);
  let contentType: ContentType | undefined;
  let entryId: number;
  let attribute: MediaAttribute;
  if (component) {
    attribute = mediaAttribute(component, request.field);
    const holder = await entryHoldingComponent(ctx, component.uid, request.refId);
    if (!holder) throw notFound();
    contentType = holder.contentType;
    entryId = holder.entry._id;
  } else {
    contentType = ctx.registry.contentType(request.ref);
    if (!contentType) throw new ValidationError(`Unknown ref ${request.ref}`);
    attribute = mediaAttribute(contentType, request.field);
    const found = await entries(ctx.models, contentType.uid).countDocuments({ _id: request.refId }, { limit: 1 });
    if (found === 0) throw notFound();
    entryId = request.refId;
  }
  if (!auth.ability.can(`${contentType.uid}.update`)) throw new ForbiddenError();
  return {
    contentType,
    entryId,
    component: component?.uid ?? null,
    refId: request.refId,
    field: request.field,
    attribute,
  };
}

/** A 400 when the attribute does not accept one of the files. */
export function assertAccepts(target: AttachTarget, files: Array<{ name: string; mime: string }>): void {
  for (const file of files) {
    if (!allowsMime(target.attribute, file.mime))
      throw ValidationError.forPath(
        [target.field],
        notAllowedMessage(target.attribute, target.field, file.name, file.mime),
      );
  }
}

function withFiles(attribute: MediaAttribute, current: unknown, ids: number[]): number | number[] | null {
  if (!attribute.multiple) return ids.at(-1) ?? null;
  const list = Array.isArray(current) ? current.filter((id): id is number => typeof id === 'number') : [];
  return [...list, ...ids.filter((id) => !list.includes(id))];
}

/**
 * Sets the files on the target. The entry is read, changed and written back only if nobody wrote
 * it in between (compare-and-set on its revision, as the write path's), read again and recomputed
 * otherwise, so parallel uploads into one entry all land. False when the entry (or component) is gone.
 */
export async function attachFiles(ctx: ServiceContext, target: AttachTarget, ids: number[]): Promise<boolean> {
  const collection = entries(ctx.models, target.contentType.uid);
  return retryWhileStale(async () => {
    const entry = await collection.findOne({ _id: target.entryId });
    if (!entry) return false;
    let set: Record<string, unknown>;
    if (target.component) {
      const copy = structuredClone(entry);
      const holder = findComponent(ctx.registry, target.contentType, copy, target.component, target.refId);
      if (!holder) return false;
      holder[target.field] = withFiles(target.attribute, holder[target.field], ids);
      const changed = Object.keys(target.contentType.attributes).filter(
        (name) => JSON.stringify(copy[name]) !== JSON.stringify(entry[name]),
      );
      set = Object.fromEntries(changed.map((name) => [name, copy[name]]));
    } else {
      set = { [target.field]: withFiles(target.attribute, entry[target.field], ids) };
    }
    const matched = await updateEntries(ctx.models, target.contentType.uid, atRevision(entry), {
      $set: set,
      ...NEXT_REVISION,
    });
    if (matched !== 1) throw new StaleEntry();
    return true;
  });
}

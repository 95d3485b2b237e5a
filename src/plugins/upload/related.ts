/**
 * A file's `related`: the entries and components whose media attributes hold it, as Strapi v4
 * reads its morph relation (`files_related_morphs`). Each is `{ __type, id, ...its readable
 * scalars }`, one per link (an entry holding the file in two attributes is there twice), ordered
 * by the file's position in the attribute, then as Strapi wrote the links: by entry, its
 * components before its own attributes, in schema order. One query per content-type that has
 * media attributes, whatever the number of files.
 */
import type { Attribute, Component, ContentType, Registry } from '../../content-types/index.js';
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import type { OperationContext } from '../../operations/index.js';
import { formatScalar } from '../../query/format.js';
import { defaultFields } from '../../query/parse/fields.js';
import { entries } from '../../write/index.js';

export type RelatedItem = { __type: string; id: number } & Record<string, unknown>;

type Doc = Record<string, unknown>;

interface Link {
  file: number;
  position: number;
  item: RelatedItem;
}

function componentUids(attribute: Attribute): string[] {
  if (attribute.type === 'component') return [attribute.component];
  if (attribute.type === 'dynamiczone') return attribute.components;
  return [];
}

/** Dotted paths of every media attribute of a schema, through its (nested) components. */
function mediaPaths(registry: Registry, schema: ContentType | Component, prefix: string, seen: Set<string>): string[] {
  return Object.entries(schema.attributes).flatMap(([name, attribute]) => {
    if (attribute.type === 'media') return [`${prefix}${name}`];
    return componentUids(attribute).flatMap((uid) => {
      const component = registry.component(uid);
      if (!component || seen.has(uid)) return [];
      return mediaPaths(registry, component, `${prefix}${name}.`, new Set(seen).add(uid));
    });
  });
}

function readable(schema: ContentType | Component, doc: Doc, uid: string, id: unknown): RelatedItem {
  const item: RelatedItem = { __type: uid, id: Number(id) };
  for (const name of defaultFields(schema)) {
    const attribute = schema.attributes[name];
    if (attribute) item[name] = formatScalar(attribute, doc[name]);
  }
  return item;
}

function storedIds(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The links of one stored object (entry or component) to the wanted files, its components first. */
function linksOf(
  registry: Registry,
  schema: ContentType | Component,
  doc: Doc,
  uid: string,
  id: unknown,
  wanted: Set<number>,
): Link[] {
  const nested: Link[] = [];
  const own: Link[] = [];
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (attribute.type === 'media') {
      storedIds(doc[name]).forEach((file, position) => {
        if (typeof file === 'number' && wanted.has(file))
          own.push({ file, position, item: readable(schema, doc, uid, id) });
      });
      continue;
    }
    if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
    const value = doc[name];
    for (const component of Array.isArray(value) ? value : [value]) {
      if (component === null || typeof component !== 'object') continue;
      const stored = component as Doc;
      const componentUid =
        attribute.type === 'component'
          ? attribute.component
          : typeof stored.__component === 'string'
            ? stored.__component
            : '';
      const componentSchema = registry.component(componentUid);
      if (componentSchema) nested.push(...linksOf(registry, componentSchema, stored, componentUid, stored.id, wanted));
    }
  }
  return [...nested, ...own];
}

/** The related items of each file id (an id without any answers an empty list). */
export async function relatedOfFiles(ctx: OperationContext, fileIds: number[]): Promise<Map<number, RelatedItem[]>> {
  const wanted = new Set(fileIds);
  const links: Link[] = [];
  if (wanted.size > 0)
    for (const contentType of ctx.registry.listContentTypes()) {
      if (contentType.uid === UPLOAD_FILE_UID) continue;
      const paths = mediaPaths(ctx.registry, contentType, '', new Set());
      if (paths.length === 0) continue;
      const docs = await entries(ctx.models, contentType.uid)
        .find({ $or: paths.map((path) => ({ [path]: { $in: [...wanted] } })) })
        .sort({ _id: 1 })
        .toArray();
      for (const doc of docs) links.push(...linksOf(ctx.registry, contentType, doc, contentType.uid, doc._id, wanted));
    }
  // a stable sort: the position first, then the order the links were found in
  links.sort((a, b) => a.position - b.position);
  const related = new Map<number, RelatedItem[]>(fileIds.map((id) => [id, []]));
  for (const link of links) if (ctx.access.canRead(link.item.__type)) related.get(link.file)?.push(link.item);
  return related;
}

// Deleting an entry removes its id from every stored relation that points at it, in every
// content-type, including relations inside (nested, repeatable) components and dynamic zones, and
// every polymorphic link (`{ __type, id }`) to it.
import { isMorphTo, type Attribute, type Component, type ContentType, type Registry } from '../content-types/index.js';
import { claimPath, orderPath, type Models } from '../models/index.js';
import { entries, updateEntries, type EntryUpdate } from './collection.js';
import { NEXT_REVISION } from './revision.js';
import { forgetSettled, recordSettle } from './pending-settles.js';
import { inTransaction, settleAgainAfterCommit, type WriteScope } from './scope.js';

/** One stored relation field pointing at the deleted type: its path segments, arrays marked. */
interface ReferenceField {
  /** e.g. ['seo', 'metaSocial[]', 'author']: a `[]` suffix marks an array of components */
  segments: string[];
  multiple: boolean;
}

function collectFields(
  registry: Registry,
  schema: ContentType | Component,
  target: string,
  prefix: string[],
  seen: Set<string>,
  out: ReferenceField[],
): void {
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const relation = schema.relations[name];
    if (relation?.stored && relation.target === target && !relation.localizations) {
      out.push({ segments: [...prefix, name], multiple: relation.multiple });
    }
    for (const uid of componentUids(attribute)) {
      const component = registry.component(uid);
      if (!component || seen.has(uid)) continue;
      const repeated =
        attribute.type === 'dynamiczone' || (attribute.type === 'component' && attribute.repeatable === true);
      collectFields(
        registry,
        component,
        target,
        [...prefix, repeated ? `${name}[]` : name],
        new Set(seen).add(uid),
        out,
      );
    }
  }
}

function componentUids(attribute: Attribute): string[] {
  if (attribute.type === 'component') return [attribute.component];
  if (attribute.type === 'dynamiczone') return attribute.components;
  return [];
}

/** The MongoDB update that removes `id` from one field, with array filters for component arrays. */
function removal(
  field: ReferenceField,
  id: number,
): { filter: Record<string, unknown>; update: EntryUpdate; arrayFilters: Record<string, unknown>[] } {
  const plainPath = field.segments.map((s) => s.replace(/\[\]$/, '')).join('.');
  const parts: string[] = [];
  const arrayFilters: Record<string, unknown>[] = [];
  field.segments.forEach((segment, i) => {
    if (!segment.endsWith('[]')) {
      parts.push(segment);
      return;
    }
    const name = `a${i}`;
    parts.push(segment.slice(0, -2), `$[${name}]`);
    const rest = field.segments
      .slice(i + 1)
      .map((s) => s.replace(/\[\]$/, ''))
      .join('.');
    arrayFilters.push({ [`${name}.${rest}`]: id });
  });
  const path = parts.join('.');
  // a top-level link may carry a claim stamp or an order key (storage-fields.ts): they go with it
  const extras: Record<string, ''> =
    field.segments.length === 1
      ? { [claimPath(path, field.multiple, id)]: '', [orderPath(path, field.multiple, id)]: '' }
      : {};
  const update: EntryUpdate = {
    ...(field.multiple ? { $pull: { [path]: id } } : { $set: { [path]: null } }),
    ...(Object.keys(extras).length > 0 ? { $unset: extras } : {}),
    ...NEXT_REVISION,
  };
  return { filter: { [plainPath]: id }, update, arrayFilters };
}

export async function removeReferences(
  models: Models,
  registry: Registry,
  targetUid: string,
  id: number,
  scope: WriteScope = {},
): Promise<void> {
  for (const contentType of registry.listContentTypes()) {
    const fields: ReferenceField[] = [];
    collectFields(registry, contentType, targetUid, [], new Set(), fields);
    for (const field of fields) {
      const { filter, update, arrayFilters } = removal(field, id);
      await updateEntries(models, contentType.uid, filter, update, {
        ...(arrayFilters.length > 0 ? { arrayFilters } : {}),
        session: scope.session,
        timestamps: false,
      });
    }
    await removeMorphLinks(models, contentType, { __type: targetUid, id }, scope);
  }
}

/** Removes the polymorphic links of `contentType` to one entry (Strapi leaves them in its join table, unread). */
async function removeMorphLinks(
  models: Models,
  contentType: ContentType,
  link: { __type: string; id: number },
  scope: WriteScope,
): Promise<void> {
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (!isMorphTo(attribute)) continue;
    const many = attribute.relation === 'morphToMany';
    await updateEntries(
      models,
      contentType.uid,
      { [`${name}.id`]: link.id, [`${name}.__type`]: link.__type, ...(many ? { [name]: { $elemMatch: link } } : {}) },
      many ? { $pull: { [name]: link }, ...NEXT_REVISION } : { $set: { [name]: null }, ...NEXT_REVISION },
      { session: scope.session, timestamps: false },
    );
  }
}

/**
 * Deletes an entry, then every stored id pointing at it (integrity.ts says why in this order). In a
 * transaction the sweep runs inside it and once more after the commit (the app's, when it runs in
 * one): links written concurrently were not in the transaction's snapshot. False when the entry was
 * not there (a parallel delete took it first): nothing is written.
 */
export async function deleteEntry(models: Models, registry: Registry, uid: string, id: number): Promise<boolean> {
  const deleted = await inTransaction(models, async (scope) => {
    const { deletedCount } = await entries(models, uid).deleteOne({ _id: id }, { session: scope.session });
    if (deletedCount === 0) return null;
    await removeReferences(models, registry, uid, id, scope);
    // the sweep after the commit, recorded with the delete (pending-settles.ts)
    return { recorded: await recordSettle(models, scope, { sweep: { uid, id } }) };
  });
  if (!deleted) return false;
  if (models.transactions) await settleAgainAfterCommit(() => removeReferences(models, registry, uid, id));
  forgetSettled(models, deleted.recorded);
  return true;
}

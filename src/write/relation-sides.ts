// After an entry is written: the owning documents of `mappedBy` sides the client wrote, and
// exclusive links (a target of a oneToOne, or of a to-many whose other side is to-one, belongs
// to one entry only).
import type { ContentType, Registry } from '../content-types/index.js';
import type { UpdateFilter } from 'mongodb';
import type { Models } from '../models/index.js';
import { applyRelationInput, type RelationInput } from './relation-input.js';
import { entries, type StoredEntry } from './collection.js';
import type { InverseWrite, StoredObject } from './build.js';

/** Ids of the target entries whose owning field points at `id`. */
async function linkedIds(models: Models, write: InverseWrite, id: number): Promise<number[]> {
  const docs = await entries(models, write.relation.target)
    .find({ [write.relation.inverse.field]: id }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .toArray();
  return docs.map((doc) => Number(doc._id));
}

/** The entries on the owning side the client's input on an inverse side adds and removes. */
export async function applyInverseWrites(models: Models, writes: InverseWrite[], id: number, now: Date): Promise<void> {
  for (const write of writes) {
    const { field, multiple } = write.relation.inverse;
    const current = await linkedIds(models, write, id);
    const next = resolve(current, write.input, write.relation.multiple);
    const removed = current.filter((x) => !next.includes(x));
    const added = next.filter((x) => !current.includes(x));
    const collection = entries(models, write.relation.target);
    if (removed.length > 0) {
      const unlink = (
        multiple ? { $pull: { [field]: id }, $set: { updatedAt: now } } : { $set: { [field]: null, updatedAt: now } }
      ) as UpdateFilter<StoredEntry>;
      await collection.updateMany({ _id: { $in: removed } }, unlink);
    }
    if (added.length > 0) {
      const link = (
        multiple ? { $addToSet: { [field]: id }, $set: { updatedAt: now } } : { $set: { [field]: id, updatedAt: now } }
      ) as UpdateFilter<StoredEntry>;
      await collection.updateMany({ _id: { $in: added } }, link);
    }
  }
}

function resolve(current: number[], input: RelationInput, multiple: boolean): number[] {
  // an inverse side has no order of its own (the owning side's arrays hold it): positions are ignored
  const unordered: RelationInput =
    input.kind === 'patch' ? { ...input, connect: input.connect.map(({ id }) => ({ id })) } : input;
  const next = applyRelationInput(current, unordered) ?? current;
  return multiple ? next : next.slice(-1);
}

/**
 * Owning sides whose inverse is to-one (oneToOne, oneToMany with a manyToOne inverse): the
 * targets this entry now links are unlinked from every other entry of the same type.
 */
export async function releaseExclusiveTargets(
  models: Models,
  registry: Registry,
  contentType: ContentType,
  stored: StoredObject,
  id: number,
): Promise<void> {
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (attribute.type !== 'relation' || !attribute.inversedBy || !(name in stored)) continue;
    const inverse = registry.relation(attribute.target, attribute.inversedBy);
    if (!inverse || inverse.multiple) continue;
    const value = stored[name];
    const ids = Array.isArray(value)
      ? value.filter((v): v is number => typeof v === 'number')
      : typeof value === 'number'
        ? [value]
        : [];
    if (ids.length === 0) continue;
    const collection = entries(models, contentType.uid);
    const multiple = contentType.relations[name]?.multiple ?? false;
    const release: UpdateFilter<StoredEntry> = multiple
      ? { $pull: { [name]: { $in: ids } } as UpdateFilter<StoredEntry>['$pull'] }
      : { $set: { [name]: null } };
    await collection.updateMany({ _id: { $ne: id }, [name]: { $in: ids } }, release);
  }
}
